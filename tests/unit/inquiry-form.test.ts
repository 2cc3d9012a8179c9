import { describe, expect, it } from 'vitest'
import manifest from '../../generated/manifest.json'
import type { ManifestEntity, ManifestScreen } from '../../model/resolve.ts'
import {
  inquiryUiSchema,
  offeredTerms,
  type TradeTermOption,
  withTradeTerm,
} from '../../runtime/flows/inquiry/inquiryForm.ts'
import { buildUiSchema, type FormSection, someDisabled, withUiRules } from '../../runtime/forms/schemaForm.ts'
import { cellRoutes, routeTarget } from '../../runtime/screens/list/actions.ts'

const option = (
  tradeParty: TradeTermOption['tradeParty'],
  tradeTerm: TradeTermOption['tradeTerm'],
  transportMode: TradeTermOption['transportMode'],
  extra = {},
): TradeTermOption => ({
  tradeParty,
  tradeTerm,
  transportMode,
  isDefault: false,
  needPickUp: false,
  deliveryToConsignee: false,
  collectWarehouse: false,
  customsDeclaration: false,
  lockedCustomsDeclaration: false,
  insurance: false,
  allRisks: false,
  unloadingWarehouse: false,
  otherServices: false,
  ...extra,
})

const OPTIONS = [
  option('seller', 'FOB', 1, {
    isDefault: true,
    needPickUp: true,
    customsDeclaration: true,
    lockedCustomsDeclaration: true,
  }),
  option('seller', 'FCA', 1),
  option('seller', 'FCA', 3, { isDefault: true }),
  option('buyer', 'CIF', 1, { customsDeclaration: true, deliveryToConsignee: true }),
]

describe('the pallet inquiry form', () => {
  it('waits for origin and destination, as screens/inquiry.yaml says, and asks the goods value for insurance only', () => {
    const entity = (manifest.entities as unknown as Record<string, ManifestEntity>).inquiry as ManifestEntity
    const screen = (manifest.screens as unknown as ManifestScreen[]).find((s) => s.name === 'palletInquiry')
    const sections = (screen?.form?.sections ?? []) as FormSection[]
    expect(sections.map((s) => s.fields[0])).toContain('tradeRole')
    const ui = buildUiSchema(entity, sections)
    const entry = (data: Record<string, unknown>, name: string) =>
      withUiRules(ui, entity, data)[name] as Record<string, unknown>
    const drawn = (data: Record<string, unknown>) =>
      (withUiRules(ui, entity, data)['ui:options'] as { sections: FormSection[] }).sections.flatMap((s) => s.fields)

    const half = { transportModes: [1], origin: 'CNSHA', insurance: true }
    expect(entry(half, 'goodsReady')).toMatchObject({ 'ui:disabled': true })
    expect(entry(half, 'containers')).toMatchObject({ 'ui:disabled': true })
    expect(entry(half, 'origin')).not.toHaveProperty('ui:disabled')
    expect(someDisabled(entity, sections, half)).toBe(true)
    // Insurance is disabled, so what it shows is hidden too.
    expect(drawn(half)).not.toContain('goodsValue')

    const route = { ...half, destination: 'USLAX' }
    expect(entry(route, 'goodsReady')).not.toHaveProperty('ui:disabled')
    expect(someDisabled(entity, sections, route)).toBe(false)
    expect(drawn(route)).toContain('goodsValue')
    expect(drawn({ ...route, insurance: false })).not.toContain('goodsValue')
  })

  it('offers only terms configured for every chosen mode of the party', () => {
    expect(offeredTerms(OPTIONS, 'seller', [1]).map((o) => o.tradeTerm)).toEqual(['FOB', 'FCA'])
    expect(offeredTerms(OPTIONS, 'seller', [1, 3]).map((o) => o.tradeTerm)).toEqual(['FCA'])
    expect(offeredTerms(OPTIONS, 'seller', [])).toEqual([])
  })

  it('moves to the default term with its services, and locks the customs clearance it names', () => {
    const first = withTradeTerm({}, { tradeRole: 'seller', transportModes: [1] }, OPTIONS)
    expect(first).toMatchObject({ tradeTerm: 'FOB', needPickUp: true, customsDeclaration: ['export'] })
    // Adding rail drops FOB for the term both modes offer; the customer's untick of a locked box does not hold.
    const both = withTradeTerm(first, { ...first, transportModes: [1, 3] }, OPTIONS)
    expect(both.tradeTerm).toBe('FCA')
    const unticked = withTradeTerm(first, { ...first, customsDeclaration: [] }, OPTIONS)
    expect(unticked.customsDeclaration).toEqual(['export'])
    const buyer = withTradeTerm(first, { ...first, tradeRole: 'buyer' }, OPTIONS)
    expect(buyer).toMatchObject({ tradeTerm: 'CIF', customsDeclaration: ['import'], deliveryToConsignee: true })
  })

  it('fixes the mode a route presets, offers the configured terms and locks customs when the term does', () => {
    const base = {
      transportModes: {},
      origin: {},
      goodsReady: { 'ui:widget': 'select' },
      id: { 'ui:widget': 'hidden' },
    }
    const fields = { transportModes: { label: 'field.transportModes' } }
    const waiting = inquiryUiSchema(base, fields, { presetModes: [1], terms: [], lockCustoms: true })
    expect(waiting.origin).toEqual({})
    expect(waiting.id).toEqual({ 'ui:widget': 'hidden' })
    expect(waiting.transportModes).toMatchObject({ 'ui:readonly': true, 'ui:title': 'field.transportModes' })
    expect(waiting.customsDeclaration).toMatchObject({ 'ui:readonly': true })
    const ready = inquiryUiSchema(base, fields, { presetModes: [], terms: ['FCA'], lockCustoms: false })
    expect(ready.transportModes).not.toHaveProperty('ui:readonly')
    expect(ready.tradeTerm).toMatchObject({ 'ui:options': { terms: ['FCA'] } })
  })
})

describe('route actions carry the record id', () => {
  it('in id by default, or in the parameter the action names', () => {
    expect(routeTarget('/viewInquiry', {}, 7)).toBe('/viewInquiry?id=7')
    expect(routeTarget('/inquiryQuoteDetails', { param: 'inquiry' }, 7)).toBe('/inquiryQuoteDetails?inquiry=7')
  })

  it("opens the route of the row's value (linkBy), else the column's link", () => {
    const column = {
      link: 'orderDetails',
      linkBy: { field: 'containerLoadType', routes: { LCL: 'lclOrderDetail', AIR: 'airOrderDetail' } },
    }
    expect(cellRoutes(column, { containerLoadType: 'AIR' })).toEqual(['airOrderDetail'])
    expect(cellRoutes(column, { containerLoadType: 'FCL' })).toEqual(['orderDetails'])
    expect(cellRoutes(column, {})).toEqual(['orderDetails'])
    expect(cellRoutes({}, { containerLoadType: 'AIR' })).toEqual([])
    // A list both sides share names alternatives: the cell opens the first the user may open.
    const shared = {
      link: ['orderDetailsOperator', 'orderDetails'],
      linkBy: { field: 'containerLoadType', routes: { AIR: ['airOrderDetailOperator', 'airOrderDetail'] } },
    }
    expect(cellRoutes(shared, { containerLoadType: 'AIR' })).toEqual(['airOrderDetailOperator', 'airOrderDetail'])
    expect(cellRoutes(shared, { containerLoadType: 'FCL' })).toEqual(['orderDetailsOperator', 'orderDetails'])
    expect(routeTarget('/editTradeTerm', {}, undefined)).toBe('/editTradeTerm')
  })
})
