import type { EngineRegistry } from '../../engine/index.ts'
import { tenantRoles } from './view.ts'

/**
 * The /operationAuth list of roles and a role's detail (/operationsRoleDetail), the engine's: role is a core table
 * (the session lookup reads it), so the engine reads it through a view (./view.ts) — search, paging, the group's
 * name in labels, 404s, history — preset roles first, in the order the seed made them, then the tenant's own,
 * newest first (the view's `list_rank`). A role keeps no creator: the view has none, and its rows answer none.
 * Every write is hand-written (./handlers.ts) and answers the role read back through the engine.
 */
export function register(engine: EngineRegistry): void {
  engine.view('role', ({ trx, call }) => tenantRoles(trx, call.tenantId), {
    order: [
      { column: 'preset', order: 'desc' },
      { column: 'list_rank', order: 'asc' },
    ],
    creator: false,
  })
}
