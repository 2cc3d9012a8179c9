import { sql, type Transaction } from 'kysely'
import { compareRates, type RateSort } from '../../../rules/pricing.ts'
import type { DB } from '../../db/schema.ts'
import type { HandlerContext, Session } from '../../http/context.ts'
import type { Handlers } from '../../http/endpoints.ts'
import { ApiError } from '../../http/errors.ts'
import { tenantToday } from '../../tenancy/clock.ts'
import type { Tenant } from '../../tenancy/resolve.ts'
import { tallyRateSearch } from '../analytics/events.ts'
import {
  type Cargo,
  callerPricing,
  type PricedRate,
  type PricingContext,
  priceRate,
  type RateRow,
  rateSelect,
} from './pricing.ts'

/**
 * The public rate calls (SPEC §1 "freight-rate inquiry and comparison", §6 query allowance): search, one
 * rate priced for the caller, the caller's allowance today and the home page's special lines.
 */

export interface RateSearchInput {
  mode: 'FCL' | 'LCL' | 'AIR'
  origin: string
  destination: string
  date?: string
  containerType?: string
  containers?: number
  cbm?: number
  weightKg?: number
  carrier?: string[]
  sort?: RateSort
  chargeDisplay?: 'all' | 'major' | 'none'
  allIn?: boolean
  currency?: string
  pageNum?: number
  pageSize?: number
}

/** The default cargo when the search names none: one 40'HQ, 1 CBM / 100 kg. */
export const DEFAULT_CONTAINER_TYPE = '45G1'
/** At most this many rates of one lane and day are priced for one search. */
const LANE_LIMIT = 1000

/**
 * SPEC §6: visitors have a configurable query allowance, personal users may be limited. Tenant settings
 * `configuration.visitorQueryLimit` / `personalQueryLimit`: a whole number ≥ 0 is that many searches a day
 * (per IP address for visitors, per user for personal users); absent or null is unlimited.
 */
export function allowanceOf(tenant: Tenant, session: Session | null): { subject: string; limit: number } | null {
  const configuration = (tenant.settings.configuration ?? {}) as Record<string, unknown>
  const limitOf = (value: unknown) =>
    typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null
  if (!session) {
    const limit = limitOf(configuration.visitorQueryLimit)
    return limit === null ? null : { subject: 'visitor', limit }
  }
  const personal = session.companyUserType !== 1 && session.companyId === null
  if (!personal) return null
  const limit = limitOf(configuration.personalQueryLimit)
  return limit === null ? null : { subject: `user:${session.userId}`, limit }
}

async function countQuery(
  ctx: HandlerContext,
  trx: Transaction<DB>,
  peek = false,
): Promise<{ limited: boolean; limit: number | null; used: number; remaining: number | null }> {
  const allowance = allowanceOf(ctx.request.tenant, ctx.request.session)
  if (!allowance) return { limited: false, limit: null, used: 0, remaining: null }
  const subject = allowance.subject === 'visitor' ? `ip:${ctx.request.ip}` : allowance.subject
  const tenantId = ctx.request.tenant.id
  const day = tenantToday(ctx.request.tenant)
  let used: number
  if (peek) {
    const { rows } = await sql<{ queries: number }>`
      select queries from rate_query_count where tenant_id = ${tenantId} and subject = ${subject} and day = ${day}
    `.execute(trx)
    used = rows[0]?.queries ?? 0
  } else {
    const { rows } = await sql<{ queries: number }>`
      insert into rate_query_count (tenant_id, subject, day, queries) values (${tenantId}, ${subject}, ${day}, 1)
      on conflict (tenant_id, subject, day) do update set queries = rate_query_count.queries + 1, updated_at = now()
      returning queries
    `.execute(trx)
    used = rows[0]?.queries ?? 1
    // Refused searches do not count: the error rolls the increment back with the transaction.
    if (used > allowance.limit) throw new ApiError('340002', { limit: allowance.limit })
  }
  return { limited: true, limit: allowance.limit, used, remaining: Math.max(0, allowance.limit - used) }
}

function cargoOf(input: Partial<RateSearchInput>): Cargo {
  return {
    containerType: input.containerType ?? DEFAULT_CONTAINER_TYPE,
    containers: input.containers ?? 1,
    cbm: input.cbm !== undefined ? String(input.cbm) : input.mode === 'AIR' ? '0' : '1',
    weightKg: input.weightKg !== undefined ? String(input.weightKg) : input.mode === 'AIR' ? '100' : '0',
  }
}

async function pricingContext(
  trx: Transaction<DB>,
  ctx: HandlerContext,
  input: Partial<RateSearchInput>,
  date: string,
): Promise<PricingContext & { level: string | null }> {
  const tenantId = ctx.request.tenant.id
  const session = ctx.request.session
  // One round trip: the caller's level, the exchange rates on the day and the caller's own currency.
  const { level, rates, own } = await callerPricing(trx, tenantId, session, date)
  const currency = input.currency ?? own
  if (currency && !rates.has(currency)) {
    throw new ApiError('validation', {}, [{ field: 'currency', message: 'validation.enum', params: {} }])
  }
  return {
    date,
    markupPercent: level?.markupPercent ?? null,
    rates,
    currency,
    allIn: input.allIn ?? true,
    chargeDisplay: input.chargeDisplay ?? 'all',
    level: level?.code ?? null,
  }
}

/** The rates of one lane valid on a day, cheapest first by the search's sort; the bare SQL the bench compares. */
export function laneQuery(
  tenantId: number,
  input: RateSearchInput,
  date: string,
  language: HandlerContext['request']['language'],
) {
  const air = input.mode === 'AIR'
  const lane = air
    ? sql`r.origin_airport = ${input.origin} and r.destination_airport = ${input.destination}`
    : sql`r.pol = ${input.origin} and r.pod = ${input.destination}`
  const carriers = input.carrier?.length ? sql`and r.carrier = any(${input.carrier})` : sql``
  return sql<RateRow>`
    ${rateSelect(language)}
    where r.tenant_id = ${tenantId} and r.mode = ${input.mode} and ${lane}
      and r.valid_to >= ${date} and r.valid_from <= ${date} ${carriers}
    order by r.id
    limit ${LANE_LIMIT}
  `
}

export const rateHandlers = {
  async rateSearch(ctx) {
    const input = ctx.input as RateSearchInput
    const date = input.date ?? tenantToday(ctx.request.tenant)
    const pageNum = input.pageNum ?? 1
    const pageSize = input.pageSize ?? 10
    const { session } = ctx.request
    const tenantId = ctx.request.tenant.id
    return ctx.inTenant(async (trx) => {
      const allowance = await countQuery(ctx, trx)
      // A signed-in user's search counts for the analytics (DailyQueryUsers, UserPortrait's asks), in this transaction.
      if (session) await tallyRateSearch(trx, tenantId, tenantToday(ctx.request.tenant), session.userId, input.mode)
      const pricing = await pricingContext(trx, ctx, input, date)
      const { rows } = await laneQuery(ctx.request.tenant.id, input, date, ctx.request.language).execute(trx)
      const cargo = cargoOf(input)
      const priced = rows.map((row) => priceRate(row, cargo, pricing)).filter((r): r is PricedRate => r !== null)
      priced.sort(compareRates(input.sort ?? 'cheapest'))
      return {
        list: priced.slice((pageNum - 1) * pageSize, pageNum * pageSize),
        total: priced.length,
        pageNum,
        pageSize,
        currency: pricing.currency,
        priceLevel: pricing.level,
        allowance,
      }
    })
  },

  async rateQuote(ctx) {
    // Checked against schemas/rateQuoteQuery.yaml before it gets here (text: a query string carries text).
    const query = ctx.input
    const id = Number(query.id)
    if (!Number.isInteger(id) || id < 1 || id > 2_147_483_647) {
      throw new ApiError('validation', {}, [{ field: 'id', message: 'validation.required', params: {} }])
    }
    const decimal = (name: 'containers' | 'cbm' | 'weightKg') => {
      const value = query[name]
      if (value === undefined || value === '') return undefined
      if (!/^\d{1,10}(\.\d{1,3})?$/.test(value))
        throw new ApiError('validation', {}, [{ field: name, message: 'validation.pattern', params: {} }])
      return Number(value)
    }
    const date = query.date && /^\d{4}-\d{2}-\d{2}$/.test(query.date) ? query.date : tenantToday(ctx.request.tenant)
    return ctx.inTenant(async (trx) => {
      const { rows } =
        await sql<RateRow>`${rateSelect(ctx.request.language)} where r.tenant_id = ${ctx.request.tenant.id} and r.id = ${id}`.execute(
          trx,
        )
      const row = rows[0]
      if (!row) throw new ApiError('404')
      const input: Partial<RateSearchInput> = {
        mode: row.mode,
        containerType: query.containerType || undefined,
        containers: decimal('containers'),
        cbm: decimal('cbm'),
        weightKg: decimal('weightKg'),
        currency: query.currency || undefined,
        chargeDisplay: 'all',
        allIn: query.allIn !== 'false',
      }
      const pricing = await pricingContext(trx, ctx, input, date)
      const priced = priceRate(row, cargoOf(input), pricing)
      if (!priced) throw new ApiError('404')
      return { ...priced, expired: row.valid_to < tenantToday(ctx.request.tenant), priceLevel: pricing.level }
    })
  },

  async rateAllowance(ctx) {
    return ctx.inTenant((trx) => countQuery(ctx, trx, true))
  },

  async specialLineRates(ctx) {
    const tenantId = ctx.request.tenant.id
    const date = tenantToday(ctx.request.tenant)
    return ctx.inTenant(async (trx) => {
      const { rows: lines } = await sql<{
        id: number
        title: string
        mode: RateSearchInput['mode']
        origin: string
        destination: string
        carrier: string | null
        container_type: string | null
      }>`
        select id, title, mode, origin, destination, carrier, container_type from special_line
        where tenant_id = ${tenantId} and enabled is not false order by sort, id limit 50
      `.execute(trx)
      const pricing = await pricingContext(trx, ctx, { chargeDisplay: 'none', allIn: false }, date)
      const answer = []
      for (const line of lines) {
        const input: RateSearchInput = {
          mode: line.mode,
          origin: line.origin,
          destination: line.destination,
          ...(line.carrier ? { carrier: [line.carrier] } : {}),
          ...(line.container_type ? { containerType: line.container_type } : {}),
        }
        const { rows } = await laneQuery(tenantId, input, date, ctx.request.language).execute(trx)
        const priced = rows
          .map((row) => priceRate(row, cargoOf(input), pricing))
          .filter((r): r is PricedRate => r !== null)
          .sort(compareRates('cheapest'))
        answer.push({ id: line.id, title: line.title, mode: line.mode, cheapest: priced[0] ?? null })
      }
      return answer
    })
  },
} satisfies Handlers
