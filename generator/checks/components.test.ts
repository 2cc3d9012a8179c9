import { describe, expect, it } from 'vitest'
import { checkComponents } from './components.ts'
import { contextOf, printed } from './testing.ts'

const WATCH = `entity: priceWatch
label: l
fields:
  pol: { type: ref, ref: port, widget: portSelect }
  rows: { type: array, items: { remark: { type: string, widget: textarea } } }
`
const AREA = `area: watch
label: l
screens:
  - { name: rateSearch, route: /rateSearch, title: t, access: public, status: built, kind: custom, component: rateSearch }
`
const check = (watch: string, area: string) =>
  checkComponents(contextOf({ 'schemas/priceWatch.yaml': watch, 'screens/watch.yaml': area }))

describe('checkComponents', () => {
  it('finds nothing wrong with registered widgets and components', () => {
    expect(check(WATCH, AREA)).toEqual([])
  })

  it('an unknown widget, nested or not, with the nearest registered one', () => {
    const errors = check(WATCH.replace('portSelect', 'portPicker').replace('textarea', 'textarae'), AREA)
    expect(errors.map((e) => `${e.file}:${e.line}:${e.col} ${e.path}: ${e.message} / ${e.fix}`)).toEqual([
      'schemas/priceWatch.yaml:4:40 fields.pol.widget: unknown widget "portPicker" / did you mean "portSelect"?',
      'schemas/priceWatch.yaml:5:65 fields.rows.items.remark.widget: unknown widget "textarae" / did you mean "textarea"?',
    ])
  })

  it('an unknown component says where components are registered', () => {
    expect(
      printed(check(WATCH, AREA.replace('component: rateSearch', 'component: Nothing'))).map((e) => e.split('\n')[0]),
    ).toEqual(['screens/watch.yaml:4:111 screens[0].component: unknown component "Nothing"'])
    expect(check(WATCH, AREA.replace('component: rateSearch', 'component: Xyzzy'))[0]?.fix).toBe(
      'register it in model/registries.ts and runtime/registry.ts',
    )
  })

  it('a look-up filter reads a field of the same record, on a ref field', () => {
    const agent = WATCH.replace(
      '  rows:',
      '  carrier: { type: ref, ref: carrier }\n  agent: { type: ref, ref: bookingAgent, lookupFilter: { carrier: carrier } }\n  rows:',
    )
    expect(check(agent, AREA)).toEqual([])
    const errors = check(agent.replace('lookupFilter: { carrier: carrier }', 'lookupFilter: { carrier: carier }'), AREA)
    expect(errors.map((e) => `${e.path}: ${e.message}`)).toEqual([
      'fields.agent.lookupFilter.carrier: unknown field "carier" of entity priceWatch',
    ])
  })

  it('fills: names fields beside the one it is on and fields of the looked-up entity, and needs the look-up', () => {
    const PRODUCT = `entity: fbaProduct
label: l
fields:
  sku: { type: string }
  nameEn: { type: string }
  price: { type: money }
`
    const lines = (sku: string) => `entity: priceWatch
label: l
fields:
  lines:
    type: array
    items:
      sku: { ${sku} }
      name: { type: string }
      declaredPrice: { type: money }
      weight: { type: number, readOnly: true }
`
    const checked = (sku: string) =>
      checkComponents(
        contextOf({
          'schemas/priceWatch.yaml': lines(sku),
          'schemas/fbaProduct.yaml': PRODUCT,
          'screens/watch.yaml': AREA,
        }),
      ).map((e) => `${e.path}: ${e.message}`)
    expect(checked('type: string, lookup: fbaProduct, fills: { name: nameEn, declaredPrice: price }')).toEqual([])
    expect(checked('type: string, lookup: fbaProduct, fills: { nme: nameEn, weight: price, name: nameCn }')).toEqual([
      'fields.lines.items.sku.fills.nme: unknown field "nme" beside sku',
      'fields.lines.items.sku.fills.weight: "weight" is read-only: a pick cannot fill it',
      'fields.lines.items.sku.fills.name: unknown field "nameCn" of entity fbaProduct',
    ])
    expect(checked('type: string, fills: { name: nameEn }')).toEqual([
      'fields.lines.items.sku.fills: fills: needs the look-up it fills from',
    ])
    expect(checked('type: integer, lookup: fbaProduct')).toEqual([
      'fields.lines.items.sku.lookup: lookup: on a field that is neither a ref nor a text',
    ])
  })
})
