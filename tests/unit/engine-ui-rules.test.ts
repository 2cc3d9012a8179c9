import { describe, expect, it } from 'vitest'
import type { EntityDef, TransitionDef } from '../../model/definitions.ts'
import { entitySchema } from '../../model/jsonschema.ts'
import type { Manifest, ManifestEntity, ManifestScreen } from '../../model/resolve.ts'
import { transitionInput, withoutRuleIgnored } from '../../server/engine/uiRules.ts'
import { ApiError } from '../../server/http/errors.ts'

/** server/engine/uiRules.ts: what the engine's create and update leave out, and what a transition takes. */

const claim = {
  entity: 'claim',
  label: 'entity.order',
  fields: {
    note: { type: 'string', rules: [{ effect: 'disable', when: { field: 'state', in: ['approved'] } }] },
    amount: { type: 'money' },
    route: { type: 'string' },
    contractNo: { type: 'string' },
    agent: { type: 'integer', rules: [{ effect: 'show', when: { setting: 'hasBookingAgent' } }] },
  },
} as EntityDef
const entity = {
  ...claim,
  stored: true,
  table: 'claim',
  scope: 'tenant',
  schema: entitySchema(claim, {}),
} as ManifestEntity
const screen = {
  name: 'claimForm',
  entity: 'claim',
  form: {
    sections: [
      { title: 't', fields: ['route'] },
      { title: 't', fields: ['contractNo'], rules: [{ effect: 'enable', when: { field: 'route', filled: true } }] },
    ],
  },
} as unknown as ManifestScreen
const manifest = { entities: { claim: entity }, screens: [screen] } as unknown as Pick<Manifest, 'entities' | 'screens'>
const bound = { entity: 'claim', screens: ['claimForm'] }
const unbound = { entity: 'claim', screens: [] }

describe('a write without what the rules turn off', () => {
  it('judges an update on the stored record under the body, read-only state included', () => {
    expect(withoutRuleIgnored(manifest, unbound, { note: 'late', amount: '1' }, { state: 'approved' })).toEqual({
      amount: '1',
    })
    expect(withoutRuleIgnored(manifest, unbound, { note: 'fine' }, { state: 'pending' })).toEqual({ note: 'fine' })
  })

  it("applies a section's rules only to the endpoints its screen binds", () => {
    expect(withoutRuleIgnored(manifest, bound, { contractNo: 'C-1' })).toEqual({})
    expect(withoutRuleIgnored(manifest, bound, { contractNo: 'C-1' }, { route: 'CNSHA-USLAX' })).toEqual({
      contractNo: 'C-1',
    })
    expect(withoutRuleIgnored(manifest, { entity: 'claim', screens: ['other'] }, { contractNo: 'C-1' })).toEqual({
      contractNo: 'C-1',
    })
  })

  it("judges { setting: … } on the tenant's settings, and refuses a value only a missing feature keeps away", () => {
    const on = { settings: { hasBookingAgent: true } }
    expect(withoutRuleIgnored(manifest, unbound, { agent: 4, amount: '1' }, {}, on)).toEqual({ agent: 4, amount: '1' })
    // The engine's write (no refusal asked): ignored.
    expect(withoutRuleIgnored(manifest, unbound, { agent: 4, amount: '1' }, {}, { settings: {} })).toEqual({
      amount: '1',
    })
    // The HTTP layer: refused at the field, as the tenant lacks the feature.
    const refuse = { settings: { hasBookingAgent: false }, refuseFeatureOff: true }
    const refused = (() => {
      try {
        withoutRuleIgnored(manifest, unbound, { agent: 4 }, {}, refuse)
      } catch (error) {
        return error
      }
    })()
    expect(refused).toBeInstanceOf(ApiError)
    expect((refused as ApiError).fieldErrors).toEqual([{ field: 'agent', message: 'agent.featureOff', params: {} }])
    // Empty, or off by the record's own condition (not a feature): ignored as before.
    expect(withoutRuleIgnored(manifest, unbound, { agent: null, amount: '1' }, {}, refuse)).toEqual({ amount: '1' })
    expect(withoutRuleIgnored(manifest, unbound, { note: 'late' }, { state: 'approved' }, refuse)).toEqual({})
  })

  it('leaves what is not an object to the validator', () => {
    expect(withoutRuleIgnored(manifest, bound, [1, 2])).toEqual([1, 2])
    expect(withoutRuleIgnored(manifest, bound, null)).toBeNull()
  })
})

describe('a transition without input:', () => {
  const plain = { from: ['a'], to: 'b', permission: 'p', label: 'l' } as TransitionDef
  it('takes nothing, and refuses what it is sent', () => {
    expect(transitionInput(manifest, plain, undefined)).toEqual({ values: {} })
    expect(transitionInput(manifest, plain, {})).toEqual({ values: {} })
    expect(() => transitionInput(manifest, plain, { remark: 'x' })).toThrow(ApiError)
  })
})
