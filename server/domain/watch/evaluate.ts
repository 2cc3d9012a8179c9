import { sql, type Transaction } from 'kysely'
import type { DB } from '../../db/schema.ts'
import { messageFor } from '../../http/errors.ts'
import { enqueue } from '../../jobs/outbox.ts'
import { tenantDay } from '../../tenancy/clock.ts'
import { writeLetters } from '../letters/letters.ts'
import { watchState } from './state.ts'

/**
 * Evaluating price watches (issue #22): a watch in progress on the tenant's day looks for the best (lowest)
 * FCL price of its carrier and container type on its lane among the tenant's rates valid that day (within
 * its min / max price when it names them). A `priceChange` watch is told when that price differs from the
 * last one it was told; a `targetReached` watch when it is at or below the target and differs from the last
 * alert. The last alerted rate and price are stored with a conditional update in the same transaction as
 * the letter and the mail, so each change is told once, however many processes or imports see it.
 */

interface WatchRow {
  id: number
  version: number
  container_type: string
  carrier: string
  pol: string | null
  pod: string | null
  target_price: string
  min_price: string | null
  max_price: string | null
  subscription_type: 'priceChange' | 'targetReached'
  channel: 'inApp' | 'mail'
  last_alert_rate: number | null
  last_alert_price: string | null
  created_by: number | null
  state: string
}

interface BestPrice {
  id: number
  rate_no: string
  currency: string
  price: string
}

async function readWatches(trx: Transaction<DB>, tenantId: number, today: string, where: ReturnType<typeof sql>) {
  const { rows } = await sql<WatchRow>`
    select w.id, w.version, w.container_type, w.carrier, w.pol, w.pod, w.target_price::text as target_price,
      w.min_price::text as min_price, w.max_price::text as max_price, w.subscription_type, w.channel,
      w.last_alert_rate, w.last_alert_price::text as last_alert_price, w.created_by,
      ${watchState('w', today)} as state
    from price_watch w
    where w.tenant_id = ${tenantId} and w.status = 'inProgress' and ${where}
    order by w.id`.execute(trx)
  return rows.filter((row) => row.state === 'inProgress')
}

async function bestPrice(trx: Transaction<DB>, tenantId: number, watch: WatchRow, today: string) {
  const { rows } = await sql<BestPrice>`
    select r.id, r.rate_no, r.currency, (p ->> 'price')::numeric::text as price
    from freight_rate r, jsonb_array_elements(coalesce(r.container_prices, '[]'::jsonb)) p
    where r.tenant_id = ${tenantId} and r.mode = 'FCL' and r.carrier = ${watch.carrier}
      and (${watch.pol}::text is null or r.pol = ${watch.pol})
      and (${watch.pod}::text is null or r.pod = ${watch.pod})
      and r.valid_from <= ${today}::date and r.valid_to >= ${today}::date
      and p ->> 'containerType' = ${watch.container_type}
      and (${watch.min_price}::numeric is null or (p ->> 'price')::numeric >= ${watch.min_price}::numeric)
      and (${watch.max_price}::numeric is null or (p ->> 'price')::numeric <= ${watch.max_price}::numeric)
    order by (p ->> 'price')::numeric, r.id
    limit 1`.execute(trx)
  return rows[0]
}

const sameAmount = (a: string | null, b: string) => a !== null && Number(a) === Number(b)

async function evaluate(
  trx: Transaction<DB>,
  tenantId: number,
  watch: WatchRow,
  today: string,
  firstLook: boolean,
): Promise<boolean> {
  const best = await bestPrice(trx, tenantId, watch, today)
  if (!best) return false
  const reached = Number(best.price) <= Number(watch.target_price)
  const told = watch.last_alert_rate === best.id && sameAmount(watch.last_alert_price, best.price)
  const changed = !sameAmount(watch.last_alert_price, best.price)
  const alert = watch.subscription_type === 'targetReached' ? reached && !told : changed && !firstLook
  if (!alert && !(firstLook && watch.last_alert_price === null)) return false
  // Claim the change: only one evaluation (of several processes or imports) moves the last alert.
  const claimed = await sql`
    update price_watch set last_alert_rate = ${best.id}, last_alert_price = ${best.price}::numeric
    where tenant_id = ${tenantId} and id = ${watch.id}
      and last_alert_rate is not distinct from ${watch.last_alert_rate}::bigint
      and last_alert_price is not distinct from ${watch.last_alert_price}::numeric`.execute(trx)
  if (!alert || Number(claimed.numAffectedRows ?? 0) !== 1 || watch.created_by === null) return false
  await tell(trx, tenantId, watch, best)
  return true
}

async function tell(trx: Transaction<DB>, tenantId: number, watch: WatchRow, best: BestPrice): Promise<void> {
  // The address the user chose for price alerts (POST /b2b/user/change/pricePushEmail), else their account's.
  const { rows } = await sql<{ email: string | null; language: string | null }>`
    select coalesce(nullif(u.price_push_email, ''), u.email) as email, u.language from app_user u
    where u.tenant_id = ${tenantId} and u.id = ${watch.created_by}`.execute(trx)
  const user = rows[0]
  const language = (['zh', 'en', 'ja', 'es'].includes(user?.language ?? '') ? user?.language : 'zh') as
    | 'zh'
    | 'en'
    | 'ja'
    | 'es'
  const params = {
    carrier: watch.carrier,
    containerType: watch.container_type,
    pol: watch.pol ?? '*',
    pod: watch.pod ?? '*',
    price: best.price,
    currency: best.currency,
    rateNo: best.rate_no,
  }
  const title = messageFor('watch.alertTitle', language)
  const key = watch.subscription_type === 'targetReached' ? 'watch.alertTarget' : 'watch.alertChange'
  const text = messageFor(key, language, params)
  await writeLetters(trx, [{ tenantId, recipient: watch.created_by as number, title, content: text }])
  if (watch.channel === 'mail' && user?.email)
    await enqueue(trx, tenantId, 'mail', { to: user.email, subject: title, text, language })
}

/** A watch just created (schemas/priceWatch.yaml afterCreate): its first look at today's prices. */
export async function evaluateOneWatch(trx: Transaction<DB>, tenantId: number, id: number, at?: Date) {
  const today = await tenantDay(trx, tenantId, at)
  for (const watch of await readWatches(trx, tenantId, today, sql`w.id = ${id}`))
    await evaluate(trx, tenantId, watch, today, true)
}

/** A rate created, updated or imported: every watch in progress on its carrier and lane looks again. */
export async function evaluateAfterRateWrite(trx: Transaction<DB>, tenantId: number, rateId: number, at?: Date) {
  const { rows } = await sql<{ carrier: string; pol: string | null; pod: string | null }>`
    select carrier, pol, pod from freight_rate where tenant_id = ${tenantId} and id = ${rateId} and mode = 'FCL'`.execute(
    trx,
  )
  const rate = rows[0]
  if (!rate) return 0
  const today = await tenantDay(trx, tenantId, at)
  const watches = await readWatches(
    trx,
    tenantId,
    today,
    sql`w.carrier = ${rate.carrier} and (w.pol is null or w.pol = ${rate.pol}) and (w.pod is null or w.pod = ${rate.pod})`,
  )
  let alerts = 0
  for (const watch of watches) if (await evaluate(trx, tenantId, watch, today, false)) alerts++
  return alerts
}

/** The daily look (server/domain/watch/daily.ts): every watch in progress of one tenant. */
export async function evaluateAllWatches(trx: Transaction<DB>, tenantId: number, at?: Date) {
  const today = await tenantDay(trx, tenantId, at)
  let alerts = 0
  for (const watch of await readWatches(trx, tenantId, today, sql`true`))
    if (await evaluate(trx, tenantId, watch, today, false)) alerts++
  return alerts
}
