import type { Transaction } from 'kysely'
import type { DB } from '../db/schema.ts'
import type { Session } from '../http/context.ts'

/**
 * Permissions a user's roles grant but their organisation does not use yet: an enterprise without the FBA
 * service keeps its roles' FBA permissions, yet getCurrentUserInfo leaves them out so the portal shows no
 * FBA menu (issue #26). A domain module registers the reason at start from its register.ts; the server's
 * own refusal of such calls is the module's too (the engine's gates), with a code that says why.
 */
export type WithheldPermissions = (trx: Transaction<DB>, session: Session) => Promise<readonly string[]>

const hooks: WithheldPermissions[] = []

export function onPermissionsShown(hook: WithheldPermissions): void {
  if (!hooks.includes(hook)) hooks.push(hook)
}

/** The session's permissions less those any registered hook withholds, sorted. */
export async function shownPermissions(trx: Transaction<DB>, session: Session): Promise<Set<string>> {
  const shown = new Set(session.permissions)
  for (const hook of hooks) for (const permission of await hook(trx, session)) shown.delete(permission)
  return shown
}
