import { sql } from 'kysely'
import { compareDecimal } from '../../../rules/decimal.ts'
import { type DerivationContext, type EffectContext, writeAudit } from '../../engine/index.ts'
import { ApiError } from '../../http/errors.ts'
import { type BillLine, type BillTotal, billTotals } from './figures.ts'

/**
 * Payments and write-offs against a bill (schemas/billPayment.yaml): only a confirmed bill is settled, in one of
 * its currencies, for at most what is open in it. The bill's row is locked while this is checked, so two payments
 * at once cannot both take the last open amount; after the payment is written the bill's totals are worked out
 * again from its lines and all its payments (never by adding to a stored figure).
 */

const refuse = (field: string, message: string, params: Record<string, unknown> = {}): never => {
  throw new ApiError('validation', {}, [{ field, message, params }])
}

interface BillRow {
  id: number
  state: string
  customer_company: number | null
  totals: BillTotal[] | null
}

export async function paymentAgainstBill({ trx, call, data }: DerivationContext): Promise<Record<string, unknown>> {
  const { rows } = await sql<BillRow>`
    select id, state, customer_company, totals from bill
    where tenant_id = ${call.tenantId} and id = ${Number(data.bill)} for update`.execute(trx)
  const bill = rows[0]
  if (bill?.state !== 'confirmed') return refuse('bill', 'finance.billNotConfirmed')
  const total = (bill.totals ?? []).find((t) => t.currency === data.currency)
  if (!total) return refuse('currency', 'finance.currencyNotOnBill')
  if ((compareDecimal(data.amount, total.open) ?? 1) > 0)
    return refuse('amount', 'finance.aboveOpen', { open: `${total.currency} ${total.open}` })
  return { customerCompany: bill.customer_company }
}

/** The bill's totals again, from its lines and every payment against it, audited on the bill. */
export async function billPaid({ trx, call, after, at }: EffectContext): Promise<void> {
  const billId = Number(after.bill)
  const { rows } = await sql<{ lines: BillLine[]; totals: BillTotal[]; version: number }>`
    select lines, totals, version from bill where tenant_id = ${call.tenantId} and id = ${billId}`.execute(trx)
  const bill = rows[0]
  if (!bill) return
  const paid = await sql<{ currency: string; paid: string }>`
    select currency, sum(amount)::text as paid from bill_payment
    where tenant_id = ${call.tenantId} and bill = ${billId} group by currency`.execute(trx)
  const totals = billTotals(
    (bill.lines ?? []) as { currency: string; amount: string }[],
    new Map(paid.rows.map((row) => [row.currency, row.paid])),
  )
  await sql`update bill set totals = ${JSON.stringify(totals)}::jsonb, version = version + 1, updated_at = ${at}
    where tenant_id = ${call.tenantId} and id = ${billId}`.execute(trx)
  await writeAudit(trx, {
    tenantId: call.tenantId,
    entity: 'bill',
    recordId: billId,
    action: 'update',
    userId: call.session.userId,
    before: { totals: bill.totals },
    after: { totals },
    remark: `${after.kind === 'writeOff' ? 'Write-off' : 'Payment'} ${after.currency} ${after.amount}`,
    at,
  })
}
