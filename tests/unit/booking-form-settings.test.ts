import { describe, expect, it } from 'vitest'
import manifest from '../../generated/manifest.json'
import type { ManifestEntity } from '../../model/resolve.ts'
import { bookingSections } from '../../runtime/flows/booking/bookingForm.ts'
import { buildUiSchema, withLookupFilters, withUiRules } from '../../runtime/forms/schemaForm.ts'

/**
 * The booking form under the tenant's feature flags (issue #25): the order's YAML says when the booking agent
 * and the sea freight terms are asked (`{ setting: … }` rules) and that the agent's look-up follows the carrier
 * (`lookupFilter`); the form only applies what the manifest says.
 */

const order = (manifest as unknown as { entities: Record<string, ManifestEntity> }).entities.order as ManifestEntity
const sectionFields = (ui: Record<string, unknown>) =>
  ((ui['ui:options'] as { sections: { fields: string[] }[] }).sections ?? []).flatMap((s) => s.fields)

describe('the booking form and the site settings', () => {
  const ui = buildUiSchema(order, bookingSections('FCL'))
  const sea = { transportMode: 1, containerLoadType: 'FCL', carrier: 'COSU' }

  it('asks for the booking agent and the sea freight terms only while the tenant has them', () => {
    const all = { settings: { hasBookingAgent: true, showSeaFreightTerms: true } }
    expect(sectionFields(withUiRules(ui, order, sea, all))).toEqual(
      expect.arrayContaining(['carrier', 'bookingAgent', 'serviceTerm', 'freightPayment']),
    )
    const none = sectionFields(withUiRules(ui, order, sea, { settings: { hasBookingAgent: false } }))
    expect(none).toContain('carrier')
    for (const name of ['bookingAgent', 'serviceTerm', 'freightPayment']) expect(none).not.toContain(name)
    // Sea freight terms are for sea orders only, whatever the setting.
    const air = sectionFields(withUiRules(ui, order, { ...sea, transportMode: 2 }, all))
    expect(air).toContain('bookingAgent')
    expect(air).not.toContain('serviceTerm')
  })

  it("narrows the agent's look-up to the order's carrier, and to nothing more while none is chosen", () => {
    const options = (data: Record<string, unknown>) =>
      (withLookupFilters(ui, order, data).bookingAgent as { 'ui:options': { lookupFilter: object; ref?: string } })[
        'ui:options'
      ]
    expect(options(sea).lookupFilter).toEqual({ carrier: 'COSU' })
    expect(options({ ...sea, carrier: undefined }).lookupFilter).toEqual({})
  })
})
