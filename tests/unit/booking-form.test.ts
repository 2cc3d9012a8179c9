import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import schemas from '../../generated/entity-schemas.json'
import manifest from '../../generated/manifest.json'
import type { Manifest } from '../../model/resolve.ts'
import { bookingSections, orderServicesOf } from '../../runtime/flows/booking/bookingForm.ts'

/** The booking page's order form (issue #16): every field it shows has a label, the services their values. */

const localeText = (language: string, namespace: string, key: string): string | undefined =>
  (JSON.parse(readFileSync(`locales/${language}/${namespace}.json`, 'utf8')) as Record<string, string>)[key]

const { entities } = manifest as unknown as Manifest
const order = entities.order
if (!order) throw new Error('no order entity in the manifest')
type Property = { title?: string; type?: string; items?: { enum?: unknown[]; title?: string } }
const properties =
  (schemas as unknown as Record<string, { properties: Record<string, Property> }>).order?.properties ?? {}
const serviceValues = (order.fields.services?.values ?? []).map((v) => v.value)
const translated = (key: string) => {
  const [namespace, ...rest] = key.split('.')
  return localeText('zh', namespace as string, rest.join('.'))
}

describe('the booking form', () => {
  it('gives the container table a section of its own where the load type has containers', () => {
    for (const mode of ['FCL', 'RAILWAY']) {
      const sections = bookingSections(mode)
      const own = sections.find((s) => s.fields.includes('containers'))
      expect(own).toEqual({ title: 'booking.sectionContainers', columns: 1, fields: ['containers'] })
    }
    for (const mode of ['LCL', 'AIR'])
      expect(bookingSections(mode).some((s) => s.fields.includes('containers'))).toBe(false)
  })

  it('shows only fields the order has, each with a label in its schema that reads in every language', () => {
    for (const mode of ['FCL', 'LCL', 'AIR', 'RAILWAY'])
      for (const section of bookingSections(mode)) {
        for (const language of ['zh', 'en', 'ja', 'es']) {
          const [namespace, key] = section.title.split('.')
          expect(localeText(language, namespace as string, key as string), `${language} ${section.title}`).toBeTruthy()
        }
        for (const name of section.fields) {
          expect(order.fields[name], name).toBeDefined()
          // What the form labels a field with is its schema's title (rjsf): never the bare name.
          const title = properties[name]?.title
          expect(title, name).toBe(order.fields[name]?.label)
          expect(translated(title as string)).not.toBe(name)
        }
      }
  })

  it("labels a multiple choice on the list the form draws, not only on its items (no raw 'services')", () => {
    expect(properties.services).toMatchObject({
      type: 'array',
      title: 'field.services',
      items: { enum: serviceValues },
    })
    // Every schema a form can draw (entity-schemas.json leaves out the entities only an answer is shaped like).
    const drawn = schemas as unknown as Record<string, { properties: Record<string, Property> }>
    expect(Object.keys(drawn)).toContain('inquiry')
    for (const [name, schema] of Object.entries(drawn))
      for (const [field, def] of Object.entries(entities[name]?.fields ?? {})) {
        if (!def.multiple || def.readOnly || !['enum', 'ref', 'file'].includes(def.type)) continue
        expect(schema.properties[field]?.title, `${name}.${field}`).toBe(def.label)
      }
  })
})

describe('the services a booking from a quote orders', () => {
  it('are those its inquiry asked for, in the order field’s own order', () => {
    expect(
      orderServicesOf(
        {
          needPickUp: true,
          customsDeclaration: ['export'],
          insurance: false,
          collectWarehouse: null,
          warehouseServices: [],
          deliveryToConsignee: true,
        },
        serviceValues,
      ),
    ).toEqual(['pickUp', 'customs', 'delivery'])
    expect(orderServicesOf({ insurance: true, warehouseServices: ['pallet'] }, serviceValues)).toEqual([
      'insurance',
      'warehouse',
    ])
    expect(orderServicesOf({ unloadingWarehouse: true }, serviceValues)).toEqual(['warehouse'])
  })

  it('are none without an inquiry or when it asked for none, and never a value the order does not have', () => {
    expect(orderServicesOf(null, serviceValues)).toEqual([])
    expect(orderServicesOf({ customsDeclaration: [], needPickUp: 'yes' }, serviceValues)).toEqual([])
    expect(orderServicesOf({ needPickUp: true, insurance: true }, ['insurance'])).toEqual(['insurance'])
  })
})
