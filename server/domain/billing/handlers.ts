import { sql, type Transaction } from 'kysely'
import type { DB } from '../../db/schema.ts'
import type { EngineApi } from '../../engine/index.ts'
import type { HandlerContext } from '../../http/context.ts'
import type { HandlerRegistry, Handlers } from '../../http/endpoints.ts'
import { ApiError } from '../../http/errors.ts'
import { parseId } from '../../http/ids.ts'
import { tenantDay } from '../../tenancy/clock.ts'
import { tenantBranding } from '../blDraft/branding.ts'
import { ratesOn } from '../rates/pricing.ts'
import type { BillLine, BillTotal } from './figures.ts'
import { billPdf, statementPdf } from './pdf.ts'
import { balances, converted, type StatementBill } from './statement.ts'

/**
 * The bill calls of SPEC §7 that are more than the engine's list, detail and create (screens/billing.yaml):
 * updateBillStatus fires the bill's state machine, downloadBilling sends its PDF. Both go through the engine, so
 * the caller's tenant, data scope (a customer's own company), version check, audit and effects are the engine's.
 */

function callOf(ctx: HandlerContext) {
  const session = ctx.request.session
  if (!session) throw new ApiError('401')
  return { tenantId: ctx.request.tenant.id, session, language: ctx.request.language }
}

/** Only a printed bill is downloaded (SPEC §4, §8 "bill must be printed to download"). */
const DOWNLOADABLE = ['printed', 'confirmed']

const text = (value: unknown) => (typeof value === 'string' ? value : '')

const PROVIDER = 1

async function sendPdf(ctx: HandlerContext, name: string, bytes: Buffer): Promise<null> {
  await ctx.reply
    .header('content-type', 'application/pdf')
    .header('content-length', String(bytes.length))
    .header('content-disposition', `attachment; filename="${name}"`)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'no-store')
    .send(bytes)
  return null
}

export function billingHandlers(engine: EngineApi) {
  return {
    async downloadBilling(ctx) {
      const call = callOf(ctx)
      const id = parseId(ctx.input.id)
      const bill = await ctx.inTenant((trx: Transaction<DB>) => engine.detail(trx, { entity: 'bill' }, call, { id }))
      if (!DOWNLOADABLE.includes(String(bill.state))) throw new ApiError('360004')
      const labels = (bill.labels ?? {}) as Record<string, unknown>
      const branding = await tenantBranding(ctx)
      const bytes = await billPdf(
        {
          billingNo: text(bill.billingNo),
          billingType: text(bill.billingType),
          state: text(bill.state),
          customer: text(labels.customerCompany),
          orderNo: text(labels.order),
          mbl: text(bill.mbl),
          hbl: text(bill.hbl),
          jobNo: text(bill.jobNo),
          port: [text(labels.port), text(bill.port)].filter(Boolean).join(' / '),
          inputDate: text(bill.inputDate),
          remarks: text(bill.remarks),
          lines: (bill.lines ?? []) as BillLine[],
          totals: (bill.totals ?? []) as BillTotal[],
        },
        branding,
        ctx.request.language,
      )
      return sendPdf(ctx, `${text(bill.billingNo).replace(/[^A-Za-z0-9-]/g, '') || `bill-${id}`}.pdf`, bytes)
    },

    /**
     * A customer's statement: their own company's for a customer, the named one for the finance desk (required
     * there). The confirmed bills and their open amounts as they stand, aged on the tenant's calendar; converted
     * only at the rates of the day named, and refused when a currency has no rate that day.
     */
    async statementPdf(ctx) {
      const { session } = callOf(ctx)
      const tenantId = ctx.request.tenant.id
      const named = ctx.input.customerCompany ? Number(ctx.input.customerCompany) : null
      const company = session.companyUserType === PROVIDER ? named : session.companyId
      if (!company)
        throw new ApiError('validation', {}, [{ field: 'customerCompany', message: 'validation.required', params: {} }])
      const found = await ctx.inTenant(async (trx: Transaction<DB>) => {
        const today = await tenantDay(trx, tenantId)
        const customer = await sql<{ name: string; name_en: string | null }>`
          select name, name_en from company where tenant_id = ${tenantId} and id = ${company}`.execute(trx)
        const bills = await sql<StatementBill>`
          select b.billing_no as "billingNo", b.billing_type as "billingType",
            to_char(b.input_date, 'YYYY-MM-DD') as "inputDate", (${today}::date - b.input_date) as age,
            t.value ->> 'currency' as currency, t.value ->> 'amount' as amount, t.value ->> 'paid' as paid,
            t.value ->> 'open' as open
          from bill b cross join lateral jsonb_array_elements(b.totals) with ordinality t(value, ordinality)
          where b.tenant_id = ${tenantId} and b.customer_company = ${company} and b.state = 'confirmed'
          order by b.input_date, b.id, t.ordinality`.execute(trx)
        const rateDate = ctx.input.rateDate
        const rates = rateDate ? await ratesOn(trx, tenantId, rateDate) : null
        return { today, customer: customer.rows[0], bills: bills.rows, rates }
      })
      if (!found.customer) throw new ApiError('404')
      const list = balances(found.bills)
      let conversion = null
      if (ctx.input.rateDate && ctx.input.targetCurrency && found.rates) {
        conversion = converted(list, ctx.input.targetCurrency, ctx.input.rateDate, found.rates)
        if (!conversion) {
          const missing = [...list.map((b) => b.currency), ctx.input.targetCurrency].find((c) => !found.rates?.has(c))
          throw new ApiError('validation', {}, [
            { field: 'rateDate', message: 'finance.noRate', params: { currency: missing, date: ctx.input.rateDate } },
          ])
        }
      }
      const language = ctx.request.language
      const customer = language === 'zh' ? found.customer.name : found.customer.name_en || found.customer.name
      const bytes = await statementPdf(
        { customer, date: found.today, bills: found.bills, balances: list, conversion },
        await tenantBranding(ctx),
        language,
      )
      return sendPdf(ctx, `statement-${company}-${found.today}.pdf`, bytes)
    },
  } satisfies Handlers
}

/**
 * updateBillStatus answers the bill as the engine's transition does (its row, untyped like every engine row), so it
 * sits with the engine-backed handlers, as the transition endpoints of server/engine/fired.ts do.
 */
export function billStatusHandlers(engine: EngineApi): HandlerRegistry {
  return {
    async updateBillStatus(ctx) {
      const { id, version, status, remark } = ctx.input as {
        id: number
        version: number
        status: string
        remark?: string
      }
      return ctx.inTenant((trx: Transaction<DB>) =>
        engine.transition(trx, { entity: 'bill' }, callOf(ctx), {
          id,
          version,
          transition: status,
          ...(remark ? { remark } : {}),
        }),
      )
    },
  }
}
