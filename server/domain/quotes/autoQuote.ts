import { sql } from 'kysely'
import { addDays } from '../../../rules/calendar.ts'
import { nextDeparture } from '../../../rules/pricing.ts'
import { quoteFigures } from '../../../rules/quotes.ts'
import { type EffectContext, writeAudit } from '../../engine/index.ts'
import { tenantDay } from '../../tenancy/clock.ts'
import { nextDailyNo } from '../orders/numbering.ts'
import { ratesOn } from '../rates/pricing.ts'
import { cheapestRate, readInquiry } from './lanes.ts'
import { truckingCharges } from './trucking.ts'

/**
 * Automatic quotes (issue #8; schemas/inquiry.yaml `afterCreate`): for each transport mode of a new inquiry
 * whose quote configuration has autoQuote on, the cheapest rate valid today on the lane becomes a quote of
 * type auto in state automatic: its freight per container type (the configured markup added) and its
 * surcharges as they are, valid for the configured days (never past the rate's end), the configured
 * contact. An inquiry that needs pick-up or delivery gets the matching trucking fees' lines too (trucking.ts). Operators
 * review and send it as any other. No matching rate: no quote.
 */

/** When the configuration names no validity. */
const DEFAULT_VALID_DAYS = 7

interface ConfigRow {
  transport_mode: number
  markup: string | null
  valid_days: number | null
  currency: string | null
  contact_name: string | null
  contact_email: string | null
  contact_phone: string | null
}

export async function autoQuote(context: EffectContext): Promise<void> {
  const { trx, call, after, at } = context
  const modes = (after.transportModes ?? []) as number[]
  const { rows: configs } = await sql<ConfigRow>`
    select transport_mode, markup_percent::text as markup, valid_days, currency, contact_name, contact_email, contact_phone
    from quote_config
    where tenant_id = ${call.tenantId} and auto_quote and enabled is not false
      and transport_mode in (${sql.join(modes.length ? modes : [0])})
    order by transport_mode`.execute(trx)
  if (!configs.length) return
  const inquiry = await readInquiry(trx, call.tenantId, Number(after.id))
  if (!inquiry) return
  const today = await tenantDay(trx, call.tenantId, at)
  const rates = await ratesOn(trx, call.tenantId, today)
  const { rows: tenants } = await sql<{ name: string }>`
    select name_en as name from tenant where id = ${call.tenantId}`.execute(trx)
  for (const config of configs) {
    const match = await cheapestRate(trx, call.tenantId, inquiry, config.transport_mode, today, config.markup, rates)
    if (!match) continue
    const { rate } = match
    const trucking = await truckingCharges(trx, call.tenantId, inquiry, config.transport_mode, today, rates)
    const lines = [...match.lines, ...trucking]
    const currency = config.currency && rates.has(config.currency) ? config.currency : rate.currency
    const figures = quoteFigures(lines, currency, rates)
    if (figures.total === null) continue
    const validDays = config.valid_days ?? DEFAULT_VALID_DAYS
    const validUntil = [addDays(today, validDays), rate.valid_to].sort()[0] as string
    const days = (rate.departure_days ?? '').split(',').map(Number).filter(Boolean)
    const departure = nextDeparture(today, days, rate.valid_to)
    const charges = lines.map((line, i) => ({ ...line, amount: figures.amounts[i] }))
    const quoteNo = await nextDailyNo(trx, call.tenantId, 'QT', at)
    const { rows } = await sql<{ id: number }>`
      insert into quote (tenant_id, version, created_by, quote_no, inquiry, type, transport_mode, client_type,
        contact_name, contact_email, contact_phone, valid_until, currency, charges, subtotals, total, carrier,
        transit_days, departure, arrival, customer_company, low_fee_confirmed, state)
      values (${call.tenantId}, 1, null, ${quoteNo}, ${inquiry.id}, 'auto', ${config.transport_mode},
        ${inquiry.customer_company ? 'formal' : 'temporary'},
        ${config.contact_name ?? tenants[0]?.name ?? 'Operations'}, ${config.contact_email}, ${config.contact_phone},
        ${validUntil}, ${currency}, ${JSON.stringify(charges)}::jsonb, ${JSON.stringify(figures.subtotals)}::jsonb,
        ${figures.total}, ${rate.carrier}, ${rate.transit_days}, ${departure},
        ${departure ? addDays(departure, rate.transit_days) : null}, ${inquiry.customer_company}, false, 'automatic')
      returning id`.execute(trx)
    const id = rows[0]?.id as number
    await writeAudit(trx, {
      tenantId: call.tenantId,
      userId: call.session.userId,
      entity: 'quote',
      recordId: id,
      action: 'create',
      remark: `autoQuote ${rate.rate_no}`,
      before: null,
      after: { quoteNo, type: 'auto', state: 'automatic', rateNo: rate.rate_no, total: figures.total, currency },
    })
  }
}
