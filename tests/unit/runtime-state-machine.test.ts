import { describe, expect, it } from 'vitest'
import manifest from '../../generated/manifest.json'
import type { ManifestEntity } from '../../model/resolve.ts'
import { stateMachineOf } from '../../runtime/screens/useStateMachine.ts'

const entities = manifest.entities as unknown as Record<string, ManifestEntity>

describe('a state machine read from the manifest (runtime/screens/useStateMachine.ts)', () => {
  const spa = stateMachineOf(entities.spaApplication)

  it("answers a state's label and colour as schemas/spaApplication.yaml declares them", () => {
    expect(spa.field).toBe('state')
    expect(spa.state('pending')).toEqual({ name: 'pending', label: 'state.spaPending', color: 'informative' })
    expect(spa.state('approved')).toMatchObject({ label: 'state.spaApproved', color: 'success' })
    expect(spa.state('expired')).toMatchObject({ label: 'state.spaExpired', color: 'subtle' })
    expect(spa.state('nonsense')).toEqual({ name: 'nonsense', label: 'nonsense', color: 'informative' })
  })

  it('answers the transitions a permission may fire from a state, with label and confirm text', () => {
    expect(spa.allowed('pending', ['spaReview']).map((t) => t.name)).toEqual(['counterOffer', 'approve', 'reject'])
    expect(spa.allowed('pending', ['spaApplyList']).map((t) => t.name)).toEqual(['withdraw'])
    expect(spa.allowed('reapply', ['spaApplyList']).map((t) => t.name)).toEqual(['accept', 'reapply', 'withdraw'])
    expect(spa.allowed('approved', ['spaReview', 'spaApplyList'])).toEqual([])
    expect(spa.allowed(null, ['spaReview'])).toEqual([])
    expect(spa.transition('counterOffer')).toMatchObject({ label: 'spa.counterOffer', confirm: 'spa.confirmCounter' })
  })

  it('answers a transition that takes input with the entity it asks for', () => {
    expect(stateMachineOf(entities.inquiry).transition('reject')?.input).toBe('inquiryRejection')
  })

  it('answers nothing for an entity without a state machine', () => {
    const none = stateMachineOf(entities.port)
    expect(none.field).toBeUndefined()
    expect(none.states).toEqual([])
    expect(none.allowed('x', ['spaReview'])).toEqual([])
  })
})
