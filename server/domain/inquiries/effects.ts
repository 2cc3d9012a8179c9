import { sql } from 'kysely'
import { type EffectContext, writeAudit } from '../../engine/index.ts'

/**
 * What quotes and orders do to the inquiry they answer (schemas/inquiry.yaml, quote.yaml, order.yaml
 * `effects:`). Each change of another record's state is audited on that record, so its history says why.
 */

interface Moved {
  id: number
  before: string
  after: string
}

/** Moves rows of a table from some states to another, audited as a transition caused by `cause`. */
async function move(
  context: EffectContext,
  table: 'inquiry' | 'quote',
  where: { id?: number; inquiry?: number },
  from: readonly string[],
  to: string,
  cause: string,
): Promise<Moved[]> {
  const { trx, call } = context
  const key = where.id !== undefined ? sql`id = ${where.id}` : sql`inquiry = ${where.inquiry ?? 0}`
  const { rows } = await sql<Moved>`
    update ${sql.table(table)} t set state = ${to}, version = version + 1, updated_at = now()
    from (select id, state from ${sql.table(table)} where tenant_id = ${call.tenantId} and ${key}
          and state in (${sql.join(from)}) for update) old
    where t.id = old.id
    returning t.id, old.state as before, t.state as after`.execute(trx)
  for (const row of rows)
    await writeAudit(trx, {
      tenantId: call.tenantId,
      userId: call.session.userId,
      entity: table,
      recordId: row.id,
      action: 'transition',
      transition: cause,
      before: { state: row.before },
      after: { state: row.after },
    })
  return rows
}

export async function inquiryQuoted(context: EffectContext): Promise<void> {
  const inquiry = Number(context.after.inquiry)
  if (inquiry) await move(context, 'inquiry', { id: inquiry }, ['submitted'], 'quoted', 'quoteSent')
}

export async function inquiryWithdrawn(context: EffectContext): Promise<void> {
  const inquiry = Number(context.after.id)
  await move(
    context,
    'quote',
    { inquiry },
    ['draft', 'automatic', 'submitted', 'approved', 'quoted'],
    'withdrawn',
    'inquiryWithdrawn',
  )
}

export async function quoteBooked(context: EffectContext): Promise<void> {
  const quote = Number(context.after.quote)
  if (!quote) return
  const booked = await move(context, 'quote', { id: quote }, ['quoted'], 'booked', 'orderPlaced')
  const { rows } = await sql<{ inquiry: number }>`
    select inquiry from quote where tenant_id = ${context.call.tenantId} and id = ${quote}`.execute(context.trx)
  const inquiry = rows[0]?.inquiry
  if (booked.length && inquiry)
    await move(context, 'inquiry', { id: inquiry }, ['submitted', 'quoted'], 'booked', 'orderPlaced')
}
