import { type ControlledTransaction, type Kysely, sql, type Transaction } from 'kysely'
import { committed } from '../db/afterCommit.ts'
import { rollBackQuietly, takeRequestTransaction } from '../db/requestTransaction.ts'
import type { DB } from '../db/schema.ts'

/**
 * Runs `work` in a transaction that can see only one tenant's rows: the tenant id is set for the
 * transaction and the role is switched to the row-level-security-bound application role, so a query
 * that forgets its `where tenant_id = …` still cannot read or write another tenant's data.
 */
export function withTenant<T>(
  db: Kysely<DB>,
  tenantId: number,
  work: (trx: Transaction<DB>) => Promise<T>,
): Promise<T> {
  // The request's own transaction, opened by its session read with this tenant already set (server/auth/session.ts):
  // the first withTenant of a signed-in call takes it over instead of opening another (server/db/requestTransaction.ts).
  const held = takeRequestTransaction(db, tenantId)
  if (held) return inHeld(held, work)
  let opened: Transaction<DB> | undefined
  return db
    .transaction()
    .execute(async (trx) => {
      opened = trx
      // One statement for both (set_config('role') is SET LOCAL ROLE): every call pays for it. Without parameters
      // (the id is a number, written as a literal) it travels in one message with the `begin` (server/db/prepared.ts).
      if (!Number.isSafeInteger(tenantId)) throw new Error(`withTenant: tenant id ${tenantId} is not an integer`)
      await sql`select set_config('app.tenant_id', ${sql.lit(String(tenantId))}, true), set_config('role', 'waybill_app', true)`.execute(
        trx,
      )
      return work(trx)
    })
    .then((result) => {
      // Committed: what the change asked to be told afterwards (server/db/afterCommit.ts).
      if (opened) committed(opened)
      return result
    })
}

/** `work` in the request's transaction, committed or rolled back here as `db.transaction()` would. */
async function inHeld<T>(trx: ControlledTransaction<DB>, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  let result: T
  try {
    result = await work(trx)
  } catch (error) {
    await rollBackQuietly(trx)
    throw error
  }
  await trx.commit().execute()
  committed(trx)
  return result
}
