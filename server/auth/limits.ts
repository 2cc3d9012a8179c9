import { sql, type Transaction } from 'kysely'
import type { DB } from '../db/schema.ts'
import { ApiError } from '../http/errors.ts'

/**
 * Login limits, counted from login_failure rows so that every replica sees the same numbers.
 * After LOCKOUT_FAILURES wrong passwords for one account within LOCKOUT_MINUTES the account refuses
 * password logins (300008, abnormal login) until the oldest of those failures is LOCKOUT_MINUTES old.
 * One address may fail IP_FAILURES times in that window over all accounts before it gets 429.
 */
export const LOCKOUT_FAILURES = 5
export const LOCKOUT_MINUTES = 15
export const IP_FAILURES = 50

/**
 * Serialises work on one key (an account, a mobile number) across replicas until the transaction ends,
 * so that two concurrent requests cannot both pass a count that allows only one of them.
 */
export async function lockKey(trx: Transaction<DB>, key: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx)
}

/** Why a password login must not even be tried now, or null. */
export async function loginRefusal(
  trx: Transaction<DB>,
  tenantId: number,
  account: string,
  ip: string,
): Promise<ApiError | null> {
  const row = await trx
    .selectFrom('login_failure')
    .select([
      sql<number>`count(*) filter (where username = ${account})::int`.as('account'),
      sql<number>`count(*) filter (where ip = ${ip})::int`.as('ip'),
    ])
    .where('tenant_id', '=', tenantId)
    .where((eb) => eb.or([eb('username', '=', account), eb('ip', '=', ip)]))
    .where('at', '>', sql<Date>`now() - make_interval(mins => ${LOCKOUT_MINUTES})`)
    .executeTakeFirstOrThrow()
  if (row.account >= LOCKOUT_FAILURES) return new ApiError('300008')
  if (row.ip >= IP_FAILURES) return new ApiError('429')
  return null
}

export async function recordLoginFailure(
  trx: Transaction<DB>,
  tenantId: number,
  account: string,
  ip: string,
): Promise<void> {
  await trx.insertInto('login_failure').values({ tenant_id: tenantId, username: account, ip }).execute()
}

/** A successful login (or a new password) starts the count again. */
export async function clearLoginFailures(trx: Transaction<DB>, tenantId: number, account: string): Promise<void> {
  await trx.deleteFrom('login_failure').where('tenant_id', '=', tenantId).where('username', '=', account).execute()
}
