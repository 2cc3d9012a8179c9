import type { Transaction } from 'kysely'
import type { Registration } from '../../generated/types.ts'
import type { DB } from '../db/schema.ts'
import type { ApiError } from '../http/errors.ts'

/** What a hook learns of a registration: the new personal user and the body as it was checked. */
export interface Registered {
  trx: Transaction<DB>
  tenantId: number
  userId: number
  /** The registration body (its `inviteCode`, when the page had one: ?inviteCode=). */
  input: Registration
}

/**
 * Runs inside userRegister's transaction, after the user and its PersonalUser role are written. Answering
 * an ApiError (an invitation code that is no longer valid) refuses the registration and nothing of it is
 * kept: the user, the role and the spent SMS code roll back together.
 */
export type RegistrationHook = (registered: Registered) => Promise<ApiError | null>

const hooks: RegistrationHook[] = []

/**
 * The hook point for what a registration brings with it (issue #21: the invitation code, which the
 * invitations module consumes). A domain module registers at start from its register.ts.
 */
export function onRegistered(hook: RegistrationHook): void {
  if (!hooks.includes(hook)) hooks.push(hook)
}

/** The hooks in registration order; the first refusal wins. */
export async function runRegistrationHooks(registered: Registered): Promise<ApiError | null> {
  for (const hook of hooks) {
    const refusal = await hook(registered)
    if (refusal) return refusal
  }
  return null
}
