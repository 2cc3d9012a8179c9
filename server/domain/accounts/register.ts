import type { EngineRegistry } from '../../engine/index.ts'
import { operationAccounts } from './view.ts'

/**
 * The operation accounts as the engine reads them (/operationAccount): a view of app_user (./view.ts), so their
 * list and detail are the engine's — search, paging, newest first, the role's name in labels, 404s, history. The
 * writes (add, update) are hand-written (./handlers.ts). An account keeps no creator: the view has none, and its
 * rows answer none.
 */
export function register(engine: EngineRegistry): void {
  engine.view('operationAccount', ({ trx, call }) => operationAccounts(trx, call.tenantId), { creator: false })
}
