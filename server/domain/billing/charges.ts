import { sql, type Transaction } from 'kysely'
import { minorUnits } from '../../../rules/currencies.ts'
import { format, multiply, roundScaled, scaled } from '../../../rules/pricing.ts'
import type { DB } from '../../db/schema.ts'
import { type EngineApi, writeAudit } from '../../engine/index.ts'
import type { HandlerRegistry } from '../../http/endpoints.ts'
import { ApiError } from '../../http/errors.ts'
import { now } from '../../tenancy/clock.ts'

/**
 * SPEC §7's orderCharge/adjustOrderCharge (issue #24): an operator sets an order's charge lines before billing.
 * The old lines are deleted and the new ones created through the engine (each audited on its own), each amount
 * worked out exactly in its currency; the order's history says what the lines were, what they are and why.
 */

interface ChargeInput {
  chargeCode: string
  chargeName: string
  category: string
  unit: string
  quantity: number
  unitPrice: string
  currency: string
}

const lineOf = (charge: ChargeInput) => {
  const places = minorUnits(charge.currency)
  const amount = roundScaled(multiply(scaled(charge.quantity), scaled(charge.unitPrice)), places)
  return { ...charge, amount: format(amount, places) }
}

const summary = (rows: Record<string, unknown>[]) =>
  rows.map((row) => ({
    chargeCode: row.chargeCode,
    chargeName: row.chargeName,
    quantity: row.quantity,
    unitPrice: row.unitPrice,
    currency: row.currency,
    amount: row.amount,
  }))

export function orderChargeHandlers(engine: EngineApi): HandlerRegistry {
  return {
    async adjustOrderCharge(ctx) {
      const session = ctx.request.session
      if (!session) throw new ApiError('401')
      const call = { tenantId: ctx.request.tenant.id, session, language: ctx.request.language }
      const { orderId, remark, charges } = ctx.input as { orderId: number; remark: string; charges: ChargeInput[] }
      return ctx.inTenant(async (trx: Transaction<DB>) => {
        // The order must be one the operator sees (another tenant's answers 404).
        await engine.detail(trx, { entity: 'order' }, call, { id: orderId })
        const { rows } = await sql<{ id: number }>`
          select id from order_charge where tenant_id = ${call.tenantId} and "order" = ${orderId} order by id`.execute(
          trx,
        )
        const old = []
        for (const { id } of rows) old.push(await engine.detail(trx, { entity: 'orderCharge' }, call, { id }))
        for (const row of old)
          await engine.delete(trx, { entity: 'orderCharge' }, call, { id: row.id, version: row.version })
        const created = []
        for (const charge of charges)
          created.push(await engine.create(trx, { entity: 'orderCharge' }, call, { ...lineOf(charge), order: orderId }))
        await writeAudit(trx, {
          tenantId: call.tenantId,
          entity: 'order',
          recordId: orderId,
          action: 'update',
          userId: session.userId,
          before: { charges: summary(old) },
          after: { charges: summary(created) },
          remark,
          at: now(),
        })
        return created
      })
    },
  }
}
