import { createHmac, randomInt } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import { sql, type Transaction } from 'kysely'
import { RESEND_SECONDS } from '../../rules/codes.ts'
import type { DB } from '../db/schema.ts'
import { ApiError, type Language, messageFor } from '../http/errors.ts'
import { authSecret } from '../jobs/sealed.ts'
import { lockKey } from './limits.ts'
import { currentDelivery } from './sms.ts'
import { sameHash } from './tokens.ts'

/**
 * Verification codes: 6 digits, stored as an HMAC with the server secret, single use, CODE_MINUTES
 * valid, dead after MAX_ATTEMPTS wrong tries. Sending is limited per number or address (one per
 * RESEND_SECONDS — SPEC §9's 60 s wait — PER_HOUR an hour, PER_DAY a day), per client address (PER_IP_HOUR
 * an hour) and per tenant (PER_TENANT_HOUR an hour: what one tenant's SMS budget may lose to a flood), all
 * counted from verification_code rows so that every replica agrees. Requests for numbers and addresses no
 * account has are recorded and counted the same way (nothing is sent), so the limits are no oracle either.
 */
export const CODE_MINUTES = 5
export const MAX_ATTEMPTS = 5
export { RESEND_SECONDS }
export const PER_HOUR = 5
export const PER_DAY = 10
export const PER_IP_HOUR = 20
export const PER_TENANT_HOUR = 500

export type CodePurpose = 'login' | 'reset' | 'bind' | 'register'
export type CodeChannel = 'sms' | 'email'

/**
 * 300001 with the SPEC client message "cannot be obtained again within N seconds", and the seconds in the
 * content (`{ waitSeconds }`), which the sign-in pages count down on their send-code button.
 */
export class ResendTooSoon extends ApiError {
  constructor(readonly waitSeconds: number) {
    super('300001', { seconds: waitSeconds })
  }
  override get key(): string {
    return 'error.codeWait'
  }
  override get content(): Record<string, unknown> {
    return { waitSeconds: this.waitSeconds }
  }
}

/** 300001 with the SPEC client message "code request limit exceeded". */
export class CodeLimitReached extends ApiError {
  constructor() {
    super('300001')
  }
  override get key(): string {
    return 'error.codeLimit'
  }
}

function hashCode(purpose: CodePurpose, target: string, code: string): string {
  return createHmac('sha256', authSecret()).update(`${purpose}:${target}:${code}`).digest('hex')
}

/** The channel of an account string: an e-mail address has an @, anything else is a mobile number. */
export function channelOf(target: string): CodeChannel {
  return target.includes('@') ? 'email' : 'sms'
}

/** E-mail addresses compare without case; mobile numbers as typed. */
export function normaliseTarget(target: string): string {
  const trimmed = target.trim()
  return channelOf(trimmed) === 'email' ? trimmed.toLowerCase() : trimmed
}

export interface CodeScope {
  trx: Transaction<DB>
  tenantId: number
  ip: string
  language: Language
  siteName: string
  log: FastifyBaseLogger
}

export interface CodeRequest {
  target: string
  purpose: CodePurpose
  /** The account the code is for, when it is known (bind: the signed-in user). */
  userId?: number | null
  /**
   * false records the request (so limits count it) without sending anything: a password reset for an
   * address no account has must look exactly like one for an address that has one.
   */
  deliver?: boolean
}

/** Creates and sends a code, or throws a 300001 refusal when a limit is reached. */
export async function issueCode(scope: CodeScope, request: CodeRequest): Promise<void> {
  const { trx, tenantId, ip } = scope
  const { target, purpose } = request
  await lockKey(trx, `code:${tenantId}:${target}`)
  const sent = await trx
    .selectFrom('verification_code')
    .select([
      sql<number>`count(*)::int`.as('day'),
      sql<number>`(count(*) filter (where created_at > now() - interval '1 hour'))::int`.as('hour'),
      sql<
        number | null
      >`ceil(extract(epoch from max(created_at) + make_interval(secs => ${RESEND_SECONDS}) - now()))::int`.as('wait'),
    ])
    .where('tenant_id', '=', tenantId)
    .where('target', '=', target)
    .where('created_at', '>', sql<Date>`now() - interval '1 day'`)
    .executeTakeFirstOrThrow()
  if (sent.wait !== null && sent.wait > 0) throw new ResendTooSoon(sent.wait)
  if (sent.hour >= PER_HOUR || sent.day >= PER_DAY) throw new CodeLimitReached()
  const fromIp = await trx
    .selectFrom('verification_code')
    .select(sql<number>`count(*)::int`.as('hour'))
    .where('tenant_id', '=', tenantId)
    .where('ip', '=', ip)
    .where('created_at', '>', sql<Date>`now() - interval '1 hour'`)
    .executeTakeFirstOrThrow()
  if (fromIp.hour >= PER_IP_HOUR) throw new CodeLimitReached()
  const inTenant = await trx
    .selectFrom('verification_code')
    .select(sql<number>`count(*)::int`.as('hour'))
    .where('tenant_id', '=', tenantId)
    .where('created_at', '>', sql<Date>`now() - interval '1 hour'`)
    .executeTakeFirstOrThrow()
  if (inTenant.hour >= PER_TENANT_HOUR) {
    scope.log.warn({ tenantId }, 'verification codes: the tenant reached its hourly limit')
    throw new CodeLimitReached()
  }

  // Only the newest code of a number and purpose works.
  await trx
    .updateTable('verification_code')
    .set({ expires_at: sql<Date>`now()` })
    .where('tenant_id', '=', tenantId)
    .where('target', '=', target)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .execute()
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0')
  const channel = channelOf(target)
  await trx
    .insertInto('verification_code')
    .values({
      tenant_id: tenantId,
      channel,
      target,
      purpose,
      user_id: request.userId ?? null,
      code_hash: hashCode(purpose, target, code),
      expires_at: sql<Date>`now() + make_interval(mins => ${CODE_MINUTES})`,
      ip,
    })
    .execute()
  if (request.deliver === false) return
  const params = { site: scope.siteName, code, minutes: CODE_MINUTES }
  const text = messageFor('common.verificationCodeText', scope.language, params)
  const delivery = currentDelivery()
  if (channel === 'sms')
    await delivery.sms(scope).send(target, text, { name: 'verificationCode', params: [code, String(CODE_MINUTES)] })
  else
    await delivery.mail(scope).send(target, messageFor('common.verificationCodeSubject', scope.language, params), text)
}

export interface CodeCheck {
  target: string
  purpose: CodePurpose
  code: string
  /** Only a code sent for this account counts (bind). */
  userId?: number
}

/**
 * Spends the newest live code of a number and purpose when `code` matches it. Answers the refusal to
 * throw (300004 for an SMS code, 300003 for an e-mail code) rather than throwing it, because a wrong try
 * is counted in this transaction and must be committed.
 */
export async function checkCode(trx: Transaction<DB>, tenantId: number, check: CodeCheck): Promise<ApiError | null> {
  const wrong = new ApiError(channelOf(check.target) === 'sms' ? '300004' : '300003')
  let query = trx
    .selectFrom('verification_code')
    .select(['id', 'code_hash', 'attempts', sql<boolean>`expires_at > now()`.as('live')])
    .where('tenant_id', '=', tenantId)
    .where('target', '=', check.target)
    .where('purpose', '=', check.purpose)
    .where('used_at', 'is', null)
  if (check.userId !== undefined) query = query.where('user_id', '=', check.userId)
  const row = await query.orderBy('id', 'desc').limit(1).forUpdate().executeTakeFirst()
  if (!row?.live || row.attempts >= MAX_ATTEMPTS) return wrong
  if (!sameHash(row.code_hash, hashCode(check.purpose, check.target, check.code))) {
    await trx
      .updateTable('verification_code')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', row.id)
      .execute()
    return wrong
  }
  await trx.updateTable('verification_code').set({ used_at: sql<Date>`now()` }).where('id', '=', row.id).execute()
  return null
}
