import type { Transaction } from 'kysely'
import type { DB } from '../../db/schema.ts'
import type { EngineApi } from '../../engine/index.ts'
import type { HandlerContext } from '../../http/context.ts'
import type { Handlers } from '../../http/endpoints.ts'
import { ApiError, type Language } from '../../http/errors.ts'
import { parseId } from '../../http/ids.ts'
import { tenantBranding } from '../blDraft/branding.ts'
import { blDraftPdf } from '../blDraft/pdf.ts'
import { dcsaBooking, missingForBooking } from './booking.ts'
import { instructionFromOrder } from './instruction.ts'
import type { OrderRecord } from './record.ts'
import { missingForShippingInstructions, shippingInstructions } from './shippingInstructions.ts'

/**
 * The order's documents (screens/blDocuments.yaml): the DCSA exports and the draft B/L PDF. Each reads the
 * order through the engine's detail, so the caller's tenant and data scope are the engine's (an order the
 * caller may not see answers 404), then hands it to a pure mapping and sends the file.
 */

/** Reads the order as the engine answers it; names (ports, carrier) in `language`. */
async function orderOf(ctx: HandlerContext, engine: EngineApi, id: unknown, language: Language): Promise<OrderRecord> {
  const session = ctx.request.session
  if (!session) throw new ApiError('401')
  const orderId = parseId(id)
  return ctx.inTenant((trx: Transaction<DB>) =>
    engine.detail(trx, { entity: 'order' }, { tenantId: ctx.request.tenant.id, session, language }, { id: orderId }),
  )
}

/** File names from the order number: letters, digits and dashes, so no header needs escaping. */
function fileName(order: OrderRecord, what: string, extension: string): string {
  const number = typeof order.orderNo === 'string' ? order.orderNo.replace(/[^A-Za-z0-9-]/g, '') : ''
  return `${number || `order-${String(order.id)}`}-${what}.${extension}`
}

async function sendFile(ctx: HandlerContext, type: string, name: string, bytes: Buffer): Promise<null> {
  await ctx.reply
    .header('content-type', type)
    .header('content-length', String(bytes.length))
    .header('content-disposition', `attachment; filename="${name}"`)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'no-store')
    .send(bytes)
  return null
}

const json = (document: unknown) => Buffer.from(`${JSON.stringify(document, null, 2)}\n`, 'utf8')

export function dcsaHandlers(engine: EngineApi) {
  return {
    async dcsaBookingExport(ctx) {
      // DCSA documents are English: the names of places and carriers are read in English.
      const order = await orderOf(ctx, engine, ctx.input.id, 'en')
      const missing = missingForBooking(order)
      if (missing.length) throw new ApiError('validation', {}, missing)
      const agent = ctx.request.tenant.nameEn || ctx.request.tenant.nameZh
      return sendFile(
        ctx,
        'application/json; charset=utf-8',
        fileName(order, 'dcsa-booking', 'json'),
        json(dcsaBooking(order, { name: agent })),
      )
    },

    async dcsaShippingInstructionsExport(ctx) {
      const order = await orderOf(ctx, engine, ctx.input.id, 'en')
      const instruction = instructionFromOrder(order)
      const missing = missingForShippingInstructions(instruction)
      if (missing.length) throw new ApiError('validation', {}, missing)
      return sendFile(
        ctx,
        'application/json; charset=utf-8',
        fileName(order, 'dcsa-shipping-instructions', 'json'),
        json(shippingInstructions(instruction)),
      )
    },

    async blDraftPdf(ctx) {
      const order = await orderOf(ctx, engine, ctx.input.id, 'en')
      const instruction = instructionFromOrder(order)
      const branding = await tenantBranding(ctx)
      const bytes = await blDraftPdf(instruction, branding, ctx.request.language)
      return sendFile(ctx, 'application/pdf', fileName(order, 'draft-bl', 'pdf'), bytes)
    },
  } satisfies Handlers
}
