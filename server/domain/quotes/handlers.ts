import { sql, type Transaction } from 'kysely'
import type {
  AuditEntry,
  InquiryServices,
  InquirySummary,
  QuoteComparisonRow,
  QuoteConfigView,
  QuoteItem,
} from '../../../generated/content.ts'
import { compareRates, convert, type RateSort } from '../../../rules/pricing.ts'
import type { DB } from '../../db/schema.ts'
import { readHistory } from '../../engine/index.ts'
import type { HandlerContext, Session } from '../../http/context.ts'
import type { Handlers } from '../../http/endpoints.ts'
import { ApiError } from '../../http/errors.ts'
import { tenantToday } from '../../tenancy/clock.ts'
import { ratesOn } from '../rates/pricing.ts'
import { chargeTypeOrder, forCustomer } from './display.ts'
import { readInquiry } from './lanes.ts'
import { quoteSettings } from './review.ts'
import { amountDue } from './totals.ts'

/**
 * The quote calls beside the engine's list / save / transition / delete (screens/quotes.yaml): one quote
 * with its inquiry (SPEC §7 GET /b2b/quote/getItem, what booking prefills an order from), the quotes of
 * one inquiry as its customer compares them, and the tenant's public quote configuration (SPEC §7).
 */

const PROVIDER = 1
/** What a customer may see of a quote: only once it is sent to them. */
const SENT_STATES = ['quoted', 'booked', 'rejected']

const isProvider = (session: Session | null) => session?.companyUserType === PROVIDER

function idOf(input: unknown): number {
  const value = Number((input as Record<string, unknown> | null)?.id)
  if (!Number.isInteger(value) || value < 1 || value > 2_147_483_647)
    throw new ApiError('validation', {}, [{ field: 'id', message: 'validation.required', params: {} }])
  return value
}

/** The caller may read quotes of this customer company: the provider all, a customer their own company's. */
const customerCondition = (session: Session | null, alias: string) =>
  isProvider(session)
    ? sql`true`
    : sql`${sql.ref(`${alias}.customer_company`)} = ${session?.companyId ?? -1} and ${sentCondition(alias)}`

/**
 * Sent to the customer: quoted, booked, or rejected by the customer. A quote its reviewer turned back is rejected
 * too, but with review rejected: it never reached the customer (issue #25).
 */
const sentCondition = (alias: string) =>
  sql`${sql.ref(`${alias}.state`)} in (${sql.join(SENT_STATES)}) and not (${sql.ref(`${alias}.state`)} = 'rejected' and ${sql.ref(`${alias}.review`)} is not distinct from 'rejected')`

/** A quote as QUOTE_COLUMNS reads it (schemas/quoteComparisonRow.yaml without what is worked out after). */
type QuoteColumns = Omit<QuoteComparisonRow, 'compareTotal' | 'expired' | 'bookable'>

const QUOTE_COLUMNS = sql`q.id, q.version, q.quote_no as "quoteNo", q.inquiry, q.type, q.transport_mode as "transportMode",
  q.client_type as "clientType", q.contact_name as "contactName", q.contact_email as "contactEmail",
  q.contact_phone as "contactPhone", to_char(q.valid_until, 'YYYY-MM-DD') as "validUntil", q.currency,
  q.charges, q.subtotals, q.total::text as total, q.carrier, c.name_en as "carrierName", q.transit_days as "transitDays",
  to_char(q.cut_off, 'YYYY-MM-DD') as "cutOff", to_char(q.departure, 'YYYY-MM-DD') as departure,
  to_char(q.arrival, 'YYYY-MM-DD') as arrival, q.remarks, q.customer_company as "customerCompany", q.state,
  q.low_fee_confirmed as "lowFeeConfirmed", q.freight_total::text as "freightTotal", q.review`

/** The columns read besides a row's: what shapes the customer's view, and the review the editor shows. */
type ReadQuote = QuoteColumns & { freightTotal: string | null; review: QuoteItem['review'] }

/** An inquiry's row as read: its summary's own fields and its services side by side. */
type InquiryRow = Omit<InquirySummary, 'goodsDescription' | 'services'> & InquiryServices

async function inquirySummary(trx: Transaction<DB>, tenantId: number, id: number): Promise<InquirySummary | null> {
  const { rows } = await sql<InquiryRow>`
    select i.id, i.inquiry_no as "inquiryNo", i.state, i.transport_modes as "transportModes", i.origin,
      op.name_en as "originName", i.destination, dp.name_en as "destinationName", i.trade_term as "tradeTerm",
      i.trade_role as "tradeRole", i.goods_ready as "goodsReady", i.containers, i.packages,
      i.customer_company as "customerCompany", i.need_pick_up as "needPickUp", i.pick_up_address as "pickUpAddress",
      i.delivery_to_consignee as "deliveryToConsignee", i.delivery_address as "deliveryAddress",
      i.collect_warehouse as "collectWarehouse", i.warehouse_services as "warehouseServices",
      i.customs_declaration as "customsDeclaration", i.insurance, i.goods_value::text as "goodsValue",
      i.goods_value_currency as "goodsValueCurrency", i.unloading_warehouse as "unloadingWarehouse",
      i.other_services as "otherServices"
    from inquiry i
    left join ref_port op on op.code = i.origin
    left join ref_port dp on dp.code = i.destination
    where i.tenant_id = ${tenantId} and i.id = ${id}`.execute(trx)
  const row = rows[0]
  if (!row) return null
  const {
    needPickUp,
    pickUpAddress,
    deliveryToConsignee,
    deliveryAddress,
    collectWarehouse,
    warehouseServices,
    customsDeclaration,
    insurance,
    goodsValue,
    goodsValueCurrency,
    unloadingWarehouse,
    otherServices,
    ...inquiry
  } = row
  const packages = inquiry.packages ?? []
  return {
    ...inquiry,
    containers: inquiry.containers ?? [],
    packages,
    goodsDescription: packages
      .map((p) => p.description)
      .filter(Boolean)
      .join('; '),
    // Every service answered, null where the inquiry did not say.
    services: {
      needPickUp: needPickUp ?? null,
      pickUpAddress: pickUpAddress ?? null,
      deliveryToConsignee: deliveryToConsignee ?? null,
      deliveryAddress: deliveryAddress ?? null,
      collectWarehouse: collectWarehouse ?? null,
      warehouseServices: warehouseServices ?? null,
      customsDeclaration: customsDeclaration ?? null,
      insurance: insurance ?? null,
      goodsValue: goodsValue ?? null,
      goodsValueCurrency: goodsValueCurrency ?? null,
      unloadingWarehouse: unloadingWarehouse ?? null,
      otherServices: otherServices ?? null,
    },
  }
}

/**
 * An audit line as the answer types it: its before and after come from a jsonb column, so they are JSON by
 * construction (the engine types them as records of unknown values).
 */
const asAuditEntry = (entry: Awaited<ReturnType<typeof readHistory>>[number]): AuditEntry => ({
  ...entry,
  before: entry.before as AuditEntry['before'],
  after: entry.after as AuditEntry['after'],
})

/** The caller's own currency (individuationCurrency), else CNY: the one currency quotes are compared in. */
async function compareCurrency(trx: Transaction<DB>, ctx: HandlerContext): Promise<string> {
  const { rows } = await sql<{ own: string | null }>`
    select individuation_currency as own from app_user
    where id = ${ctx.request.session?.userId ?? null} and tenant_id = ${ctx.request.tenant.id}`.execute(trx)
  return rows[0]?.own ?? 'CNY'
}

export const quoteHandlers = {
  async quoteItem(ctx) {
    const id = idOf(ctx.input)
    const tenantId = ctx.request.tenant.id
    return ctx.inTenant(async (trx) => {
      const { rows } = await sql<ReadQuote>`
        select ${QUOTE_COLUMNS} from quote q left join ref_carrier c on c.code = q.carrier
        where q.tenant_id = ${tenantId} and q.id = ${id} and ${customerCondition(ctx.request.session, 'q')}`.execute(
        trx,
      )
      const quote = rows[0]
      if (!quote) throw new ApiError('404')
      const inquiry = await inquirySummary(trx, tenantId, quote.inquiry)
      const provider = isProvider(ctx.request.session)
      const settings = await quoteSettings(trx, tenantId)
      const rates = await ratesOn(trx, tenantId, tenantToday(ctx.request.tenant))
      const expired = quote.validUntil < tenantToday(ctx.request.tenant)
      if (!provider)
        return { ...forCustomer(quote, settings.display, chargeTypeOrder(), rates), expired, inquiry, history: [] }
      const { freightTotal: _freight, ...row } = quote
      return {
        ...row,
        reviewRequired: settings.review,
        expired,
        inquiry,
        history: (await readHistory(trx, tenantId, 'quote', id)).map(asAuditEntry),
        exchangeRates: Object.fromEntries(rates),
      }
    })
  },

  /** The amount a quote must at least reach (the same figure the save checks): the editor warns before saving. */
  async quoteAmountDue(ctx) {
    const query = (ctx.input ?? {}) as { inquiry: string; transportMode: string; currency: string }
    const tenantId = ctx.request.tenant.id
    return ctx.inTenant(async (trx) => {
      const inquiry = await readInquiry(trx, tenantId, Number(query.inquiry))
      if (!inquiry) throw new ApiError('404')
      const date = tenantToday(ctx.request.tenant)
      const rates = await ratesOn(trx, tenantId, date)
      const amount = await amountDue(trx, tenantId, inquiry, Number(query.transportMode), query.currency, rates, date)
      return amount === null ? { currency: query.currency } : { amount, currency: query.currency }
    })
  },

  async inquiryQuotes(ctx) {
    // Checked against schemas/inquiryQuotesQuery.yaml before it gets here.
    const query = ctx.input
    const id = idOf(query)
    const sort: RateSort = query.sort ?? 'cheapest'
    const tenantId = ctx.request.tenant.id
    const session = ctx.request.session
    return ctx.inTenant(async (trx) => {
      const inquiry = await inquirySummary(trx, tenantId, id)
      if (!inquiry || (!isProvider(session) && inquiry.customerCompany !== (session?.companyId ?? -1)))
        throw new ApiError('404')
      const { rows } = await sql<ReadQuote>`
        select ${QUOTE_COLUMNS} from quote q left join ref_carrier c on c.code = q.carrier
        where q.tenant_id = ${tenantId} and q.inquiry = ${id} and ${sentCondition('q')}
          and ${customerCondition(session, 'q')}`.execute(trx)
      const currency = await compareCurrency(trx, ctx)
      const rates = await ratesOn(trx, tenantId, tenantToday(ctx.request.tenant))
      const to = rates.get(currency) ?? { rateToCny: '1', minorUnits: 2 }
      const day = tenantToday(ctx.request.tenant)
      // The customer sees each quote as the site's display modes show it, and compares the total they see.
      const { display } = await quoteSettings(trx, tenantId)
      const categoryOrder = chargeTypeOrder()
      const shown = rows.map((q) => {
        if (!isProvider(session)) return forCustomer(q, display, categoryOrder, rates)
        const { freightTotal: _freight, review: _review, ...row } = q
        return row
      })
      const list = shown.map((q) => {
        const from = rates.get(q.currency)
        return {
          ...q,
          // The total in the one currency the quotes are compared in (null without an exchange rate: sorted last).
          compareTotal: from ? convert(q.total, from.rateToCny, to.rateToCny, to.minorUnits) : null,
          expired: q.validUntil < day,
          bookable: q.state === 'quoted' && q.validUntil >= day,
        }
      })
      const sortable = (q: (typeof list)[number]) => ({
        id: q.id,
        total: q.compareTotal ?? '9999999999',
        transitDays: q.transitDays,
        nextDeparture: q.departure,
      })
      const order = compareRates(sort)
      list.sort((a, b) => order(sortable(a), sortable(b)))
      // The operator's quote editor works its live totals out with these (rules/quotes.ts).
      const exchangeRates = isProvider(session) ? Object.fromEntries(rates) : undefined
      return { inquiry, list, sort, currency, exchangeRates }
    })
  },

  async quoteConfigurationView(ctx) {
    return ctx.inTenant(async (trx) => {
      const { rows } = await sql<QuoteConfigView>`
        select transport_mode as "transportMode", coalesce(auto_quote, false) as "autoQuote", valid_days as "validDays",
          currency, contact_name as "contactName", contact_email as "contactEmail", contact_phone as "contactPhone"
        from quote_config where tenant_id = ${ctx.request.tenant.id} and enabled is not false
        order by transport_mode`.execute(trx)
      return rows
    })
  },
} satisfies Handlers
