import { sql, type Transaction } from 'kysely'
import { type QuoteDisplay, quoteDisplayOf } from '../../../rules/quoteDisplay.ts'
import type { DB } from '../../db/schema.ts'
import type { EffectContext } from '../../engine/index.ts'
import { ApiError } from '../../http/errors.ts'

/**
 * The review of a quote by a second operator (issue #25, SPEC §4 submitted / approved; schemas/quote.yaml): with
 * the site setting quoteReview on, a quote is submitted (→ submitted), approved (→ approved, then sent) or turned
 * back with a reason (→ rejected, editable and submitted again) by an operator holding quoteReview who is neither
 * its author nor the one who submitted it. Off, quotes are sent directly and submitting is refused. The engine's
 * history keeps who submitted, approved or turned back each quote, and the reason.
 */

export interface QuoteSettings {
  review: boolean
  display: QuoteDisplay
}

/** The quote settings of a tenant's site settings (/operationSet), read in the caller's transaction. */
export async function quoteSettings(trx: Transaction<DB>, tenantId: number): Promise<QuoteSettings> {
  const { rows } = await sql<{ settings: Record<string, unknown> | null }>`
    select settings from tenant where id = ${tenantId}`.execute(trx)
  const settings = rows[0]?.settings ?? {}
  return { review: settings.quoteReview === true, display: quoteDisplayOf(settings) }
}

/** send: with review on, only an approved quote goes to the customer (320004). */
export async function quoteReviewGate({ trx, call, before }: EffectContext): Promise<void> {
  if (before?.state === 'approved') return
  if ((await quoteSettings(trx, call.tenantId)).review) throw new ApiError('320004')
}

/** submit: only where the site asks for reviews (320005: send it directly). */
export async function quoteReviewSubmit({ trx, call }: EffectContext): Promise<void> {
  if (!(await quoteSettings(trx, call.tenantId)).review) throw new ApiError('320005')
}

/** The operator who last submitted the quote, from its history (the submit's audit row). */
async function submitterOf(trx: Transaction<DB>, tenantId: number, quoteId: number): Promise<number | null> {
  const { rows } = await sql<{ userId: number | null }>`
    select user_id as "userId" from audit_log
    where tenant_id = ${tenantId} and entity = 'quote' and record_id = ${quoteId} and transition = 'submit'
    order by id desc limit 1`.execute(trx)
  return rows[0]?.userId ?? null
}

/** approve, decline: the reviewer is a second operator, never the quote's author or its submitter (320006). */
export async function quoteReviewer({ trx, call, before, after }: EffectContext): Promise<void> {
  const reviewer = call.session.userId
  const submitter = await submitterOf(trx, call.tenantId, Number(after.id))
  if (before?.createdBy === reviewer || submitter === reviewer) throw new ApiError('320006')
}
