import { sql, type Transaction } from 'kysely'
import type { DB } from '../db/schema.ts'
import { ApiError } from '../http/errors.ts'

/**
 * Login limits (issue #17, findings 2 and 6), counted from login_failure rows so that every replica sees the
 * same numbers. Five wrong passwords from anywhere used to lock any account for everyone, its owner included;
 * now an attacker is slowed where they stand and the owner keeps signing in:
 *
 * - **Per account and address**: after PAIR_FAILURES wrong passwords for one account from one address (within
 *   PAIR_WINDOW_HOURS), that address may not try that account again for LOCK_MINUTES, doubling with each
 *   further failure (15, 30, 60 … minutes, at most MAX_LOCK_MINUTES). Answer 300008 (abnormal login).
 * - **Per account, from everywhere**: ACCOUNT_FAILURES wrong passwords within LOCK_MINUTES (many addresses
 *   taking turns) stop password logins to the account from addresses it has never signed in from
 *   (KNOWN_ADDRESS_DAYS); the addresses its owner used still sign in.
 * - **Per address, over all accounts**: IP_FAILURES failures within LOCK_MINUTES answer 429.
 * - A successful login clears its own address's failures only (an owner's sign-in does not hand an attacker
 *   fresh tries); a completed password reset clears all of the account's (the unlock).
 *
 * Unknown accounts are counted under what was typed, exactly like known ones, so the limits tell nothing
 * about which accounts exist.
 */
export const PAIR_FAILURES = 5
export const PAIR_WINDOW_HOURS = 24
export const LOCK_MINUTES = 15
export const MAX_LOCK_MINUTES = 24 * 60
export const ACCOUNT_FAILURES = 20
export const KNOWN_ADDRESS_DAYS = 30
export const IP_FAILURES = 50

/**
 * Serialises work on one key (an account, a mobile number) across replicas until the transaction ends,
 * so that two concurrent requests cannot both pass a count that allows only one of them.
 */
export async function lockKey(trx: Transaction<DB>, key: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx)
}

/** 300008 with the minutes the address must wait, for the log and tests. */
export class LoginLocked extends ApiError {
  constructor(readonly waitSeconds: number | null) {
    super('300008')
  }
}

/** Why a password login must not even be tried now, or null. `userId` is the account's, when there is one. */
export async function loginRefusal(
  trx: Transaction<DB>,
  tenantId: number,
  account: string,
  ip: string,
  userId: number | undefined,
): Promise<ApiError | null> {
  const row = await trx
    .selectFrom('login_failure')
    .select([
      sql<number>`count(*) filter (where username = ${account} and ip = ${ip})::int`.as('pair'),
      // When the address may try again: the last failure plus LOCK_MINUTES doubled per failure past the limit.
      sql<number | null>`ceil(extract(epoch from
        max(at) filter (where username = ${account} and ip = ${ip})
        + make_interval(mins => least(${LOCK_MINUTES} * power(2, greatest(count(*) filter (where username = ${account} and ip = ${ip}) - ${PAIR_FAILURES}, 0)), ${MAX_LOCK_MINUTES})::int)
        - now()))::int`.as('pairWait'),
      sql<number>`count(*) filter (where username = ${account} and at > now() - make_interval(mins => ${LOCK_MINUTES}))::int`.as(
        'account',
      ),
      sql<number>`count(*) filter (where ip = ${ip} and at > now() - make_interval(mins => ${LOCK_MINUTES}))::int`.as(
        'ip',
      ),
    ])
    .where('tenant_id', '=', tenantId)
    .where((eb) => eb.or([eb('username', '=', account), eb('ip', '=', ip)]))
    .where('at', '>', sql<Date>`now() - make_interval(hours => ${PAIR_WINDOW_HOURS})`)
    .executeTakeFirstOrThrow()
  if (row.pair >= PAIR_FAILURES && row.pairWait !== null && row.pairWait > 0) return new LoginLocked(row.pairWait)
  if (row.ip >= IP_FAILURES) return new ApiError('429')
  if (row.account >= ACCOUNT_FAILURES && !(userId !== undefined && (await knownAddress(trx, tenantId, userId, ip))))
    return new LoginLocked(null)
  return null
}

/** Whether the account signed in from this address within KNOWN_ADDRESS_DAYS. */
async function knownAddress(trx: Transaction<DB>, tenantId: number, userId: number, ip: string): Promise<boolean> {
  const row = await trx
    .selectFrom('session')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('ip', '=', ip)
    .where('created_at', '>', sql<Date>`now() - make_interval(days => ${KNOWN_ADDRESS_DAYS})`)
    .limit(1)
    .executeTakeFirst()
  return row !== undefined
}

/** A counted attempt: what `forgetLoginFailure` needs to take it back. */
export interface CountedFailure {
  username: string
  ip: string
  /** The row's instant as PostgreSQL wrote it: microseconds, which a Date would round away. */
  at: string
}

/** Counts a failed (or, until its password is checked, a pending) login. */
export async function recordLoginFailure(
  trx: Transaction<DB>,
  tenantId: number,
  account: string,
  ip: string,
): Promise<CountedFailure> {
  const row = await trx
    .insertInto('login_failure')
    .values({ tenant_id: tenantId, username: account, ip })
    .returning(sql<string>`at::text`.as('at'))
    .executeTakeFirstOrThrow()
  return { username: account, ip, at: row.at }
}

/**
 * Takes back a pending attempt's count: its password was right (a disabled account's login, issue #29). Attempts
 * on one account are serialised by its lock, so its row is the one of that account, address and instant.
 */
export async function forgetLoginFailure(trx: Transaction<DB>, tenantId: number, failure: CountedFailure) {
  await trx
    .deleteFrom('login_failure')
    .where('tenant_id', '=', tenantId)
    .where('username', '=', failure.username)
    .where('ip', '=', failure.ip)
    .where('at', '=', sql<Date>`${failure.at}::timestamptz`)
    .execute()
}

/**
 * A successful login starts its own address's count again (`ip`); a new password set by a reset clears the
 * account's failures from every address (no `ip`): the owner's way out of a lock.
 */
export async function clearLoginFailures(
  trx: Transaction<DB>,
  tenantId: number,
  account: string,
  ip?: string,
): Promise<void> {
  let query = trx.deleteFrom('login_failure').where('tenant_id', '=', tenantId).where('username', '=', account)
  if (ip !== undefined) query = query.where('ip', '=', ip)
  await query.execute()
}

/**
 * The per-key rate limit of API keys (issue #29): a token bucket of `burst` calls refilled at `perMinute`, kept on
 * the key's row (api_key.bucket_tokens as of bucket_at, migration 0034), so every replica draws from one bucket.
 * The caller holds the row (`for update`) in its transaction, so two concurrent calls cannot both take the last
 * token. Answers 0 when a call may go ahead (the token taken), else the whole seconds until one is back.
 */
export interface KeyLimit {
  perMinute: number
  burst: number
}

/** WAYBILL_API_KEY_PER_MINUTE and WAYBILL_API_KEY_BURST (docs/CONFIGURATION.md "API keys"). */
export const DEFAULT_KEY_LIMIT: KeyLimit = { perMinute: 120, burst: 60 }

export async function takeKeyToken(
  trx: Transaction<DB>,
  tenantId: number,
  keyId: number,
  limit: KeyLimit,
): Promise<number> {
  const perSecond = limit.perMinute / 60
  // What the bucket holds now: what it held, plus what flowed in since, never more than the burst.
  const held = sql<number>`least(${limit.burst}::float8, coalesce(bucket_tokens, ${limit.burst}::float8)
    + greatest(extract(epoch from now() - coalesce(bucket_at, now())), 0)::float8 * ${perSecond}::float8)`
  const row = await trx
    .selectFrom('api_key')
    .select(held.as('held'))
    .where('tenant_id', '=', tenantId)
    .where('id', '=', keyId)
    .executeTakeFirstOrThrow()
  const tokens = Number(row.held)
  if (tokens < 1) return Math.max(1, Math.ceil((1 - tokens) / perSecond))
  await trx
    .updateTable('api_key')
    .set({ bucket_tokens: tokens - 1, bucket_at: sql<Date>`now()`, last_used_at: sql<Date>`now()` })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', keyId)
    .execute()
  return 0
}
