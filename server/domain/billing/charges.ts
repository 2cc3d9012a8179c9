import type { Kysely, Transaction } from 'kysely'
import type { ManifestEntity } from '../../../model/resolve.ts'
import { minorUnits } from '../../../rules/currencies.ts'
import { format, multiply, roundScaled, scaled } from '../../../rules/pricing.ts'
import type { DB } from '../../db/schema.ts'
import {
  attachLabels,
  columnsOf,
  type EngineApi,
  labelFields,
  selection,
  toApiRow,
  toDbValue,
  writeAudit,
} from '../../engine/index.ts'
import type { HandlerRegistry } from '../../http/endpoints.ts'
import { ApiError } from '../../http/errors.ts'
import type { Manifest } from '../../manifest.ts'
import { now } from '../../tenancy/clock.ts'
import { tallyOrderAmount } from '../analytics/events.ts'

/**
 * SPEC §7's orderCharge/adjustOrderCharge (issue #24): an operator sets an order's charge lines before billing.
 * The lines are checked by the adjustment's own validator (schemas/orderChargeAdjustment.yaml: codes, quantities,
 * each unit price no finer than its currency); charge lines are only ever answered, so the engine has no
 * validator of its own for them and the handler writes them, replacing the order's lines in one transaction with
 * each amount worked out exactly in its currency. The order's history says what the lines were, what they are and
 * why (the order must be one the operator sees: another tenant's answers 404).
 */

type AnyDB = Kysely<Record<string, Record<string, unknown>>>

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
  rows.map(({ chargeCode, chargeName, quantity, unitPrice, currency, amount }) => ({
    chargeCode,
    chargeName,
    quantity,
    unitPrice,
    currency,
    amount,
  }))

export function orderChargeHandlers(manifest: Manifest, engine: EngineApi): HandlerRegistry {
  const charge = manifest.entities.orderCharge as ManifestEntity
  const columns = columnsOf(charge, manifest.entities)
  const written = columns.filter((column) => !column.system)
  return {
    async adjustOrderCharge(ctx) {
      const session = ctx.request.session
      if (!session) throw new ApiError('401')
      const call = { tenantId: ctx.request.tenant.id, session, language: ctx.request.language }
      const { orderId, remark, charges } = ctx.input as { orderId: number; remark: string; charges: ChargeInput[] }
      return ctx.inTenant(async (trx: Transaction<DB>) => {
        const order = await engine.detail(trx, { entity: 'order' }, call, { id: orderId })
        const db = trx as unknown as AnyDB
        const old = (
          await db
            .deleteFrom(charge.table)
            .where('tenant_id', '=', call.tenantId)
            .where('order', '=', orderId)
            .returning(selection(columns))
            .execute()
        ).map((row) => toApiRow(columns, row))
        const at = now()
        const values = charges.map((line) => {
          const record: Record<string, unknown> = { ...lineOf(line), order: orderId }
          const row: Record<string, unknown> = {
            tenant_id: call.tenantId,
            created_by: session.userId,
            created_at: at,
            updated_at: at,
            version: 1,
          }
          for (const column of written)
            if (record[column.name] !== undefined) row[column.column] = toDbValue(column, record[column.name])
          return row
        })
        const inserted = await db.insertInto(charge.table).values(values).returning(selection(columns)).execute()
        const rows = inserted.map((row) => toApiRow(columns, row)).sort((a, b) => Number(a.id) - Number(b.id))
        await tallyOrderAmount(trx, call.tenantId, order, old, rows)
        await writeAudit(trx, {
          tenantId: call.tenantId,
          entity: 'order',
          recordId: orderId,
          action: 'update',
          userId: session.userId,
          before: { charges: summary(old.sort((a, b) => Number(a.id) - Number(b.id))) },
          after: { charges: summary(rows) },
          remark,
          at,
        })
        return attachLabels(trx, labelFields(charge, manifest.entities), rows, {
          tenantId: call.tenantId,
          language: call.language,
        })
      })
    },
  }
}
