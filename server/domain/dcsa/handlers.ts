import { sql, type Transaction } from 'kysely'
import type { DB } from '../../db/schema.ts'
import type { EngineApi } from '../../engine/index.ts'
import type { HandlerContext } from '../../http/context.ts'
import type { Handlers } from '../../http/endpoints.ts'
import { ApiError, type Language } from '../../http/errors.ts'
import { parseId } from '../../http/ids.ts'
import { tenantBranding } from '../blDraft/branding.ts'
import { blDraftPdf } from '../blDraft/pdf.ts'
import { type BookingAgent, dcsaBooking, missingForBooking } from './booking.ts'
import { type BlInstruction, instructionOf } from './instruction.ts'
import type { OrderRecord } from './record.ts'
import { missingForShippingInstructions, shippingInstructions } from './shippingInstructions.ts'

/**
 * The order's documents (screens/blDocuments.yaml): the DCSA exports and the draft B/L PDF, by the order's id
 * (the order screens) or by its B/L instruction's (the B/L editor). Each reads the order and its instruction
 * through the engine's detail, so the caller's tenant and data scope are the engine's (a record the caller may
 * not see answers 404), then hands them to a pure mapping and sends the file.
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

/** Reads a B/L instruction as the engine answers it (the caller's tenant and data scope). */
function blInstructionOf(ctx: HandlerContext, engine: EngineApi, id: number, language: Language): Promise<OrderRecord> {
  const session = ctx.request.session
  if (!session) throw new ApiError('401')
  return ctx.inTenant((trx: Transaction<DB>) =>
    engine.detail(trx, { entity: 'blInstruction' }, { tenantId: ctx.request.tenant.id, session, language }, { id }),
  )
}

/**
 * The order's B/L instruction, if it has one the caller may see (an order has at most one: the unique index of
 * schemas/blInstruction.yaml); null makes the documents read the order alone.
 */
async function orderInstruction(
  ctx: HandlerContext,
  engine: EngineApi,
  orderId: unknown,
  language: Language,
): Promise<OrderRecord | null> {
  const tenantId = ctx.request.tenant.id
  const found = await ctx.inTenant(async (trx: Transaction<DB>) => {
    const { rows } = await sql<{ id: number }>`
      select id from bl_instruction where tenant_id = ${tenantId} and "order" = ${orderId}`.execute(trx)
    return rows[0]?.id ?? null
  })
  if (found === null) return null
  try {
    return await blInstructionOf(ctx, engine, found, language)
  } catch (error) {
    // An instruction outside the caller's data scope (another user's, with scope self) is as if missing.
    if (error instanceof ApiError && error.code === '404') return null
    throw error
  }
}

/** Who submitted the instruction (its createdBy, a user of the tenant), as the documents' contact. */
async function submitterOf(ctx: HandlerContext, bl: OrderRecord): Promise<BlInstruction['contact'] | null> {
  if (typeof bl.createdBy !== 'number') return null
  const tenantId = ctx.request.tenant.id
  const user = await ctx.inTenant((trx: Transaction<DB>) =>
    trx
      .selectFrom('app_user')
      .select(['real_name', 'email', 'mobile'])
      .where('tenant_id', '=', tenantId)
      .where('id', '=', bl.createdBy as number)
      .executeTakeFirst(),
  )
  return user
    ? { name: user.real_name.trim(), phone: user.mobile?.trim() ?? '', email: user.email?.trim() ?? '' }
    : null
}

/** The order and what its documents are made from: by the order's id, or by its B/L instruction's. */
async function documentOf(
  ctx: HandlerContext,
  engine: EngineApi,
  by: 'order' | 'blInstruction',
  id: unknown,
): Promise<{ order: OrderRecord; instruction: BlInstruction }> {
  // DCSA documents are English, and so are the names on the B/L: places and carriers are read in English.
  if (by === 'order') {
    const order = await orderOf(ctx, engine, id, 'en')
    const bl = await orderInstruction(ctx, engine, order.id, 'en')
    return { order, instruction: instructionOf(order, bl, bl ? await submitterOf(ctx, bl) : null) }
  }
  const bl = await blInstructionOf(ctx, engine, parseId(id), 'en')
  const order = await orderOf(ctx, engine, bl.order, 'en')
  return { order, instruction: instructionOf(order, bl, await submitterOf(ctx, bl)) }
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

/** The instruction as DCSA eBL 3.0 Shipping Instructions, or the fields it lacks (validation). */
function shippingInstructionsFile(
  ctx: HandlerContext,
  { order, instruction }: { order: OrderRecord; instruction: BlInstruction },
): Promise<null> {
  const missing = missingForShippingInstructions(instruction)
  if (missing.length) throw new ApiError('validation', {}, missing)
  return sendFile(
    ctx,
    'application/json; charset=utf-8',
    fileName(order, 'dcsa-shipping-instructions', 'json'),
    json(shippingInstructions(instruction)),
  )
}

/** The draft B/L in the tenant's branding, labelled in the reader's language. */
async function draftFile(
  ctx: HandlerContext,
  { order, instruction }: { order: OrderRecord; instruction: BlInstruction },
): Promise<null> {
  const branding = await tenantBranding(ctx)
  const bytes = await blDraftPdf(instruction, branding, ctx.request.language)
  return sendFile(ctx, 'application/pdf', fileName(order, 'draft-bl', 'pdf'), bytes)
}

/**
 * Who places the order's booking with the carrier: the booking agent the order names while the tenant has
 * booking agents (hasBookingAgent), read in the caller's tenant; else the forwarder, by its company name.
 */
async function bookingAgentOf(ctx: HandlerContext, order: OrderRecord): Promise<BookingAgent> {
  const tenant = ctx.request.tenant
  const forwarder = { name: tenant.nameEn || tenant.nameZh }
  if (tenant.settings.hasBookingAgent !== true || typeof order.bookingAgent !== 'number') return forwarder
  const id = order.bookingAgent
  const row = await ctx.inTenant((trx: Transaction<DB>) =>
    sql<{
      name: string
      name_en: string | null
      party_code: string | null
      contact_name: string | null
      phone: string | null
      mail: string | null
    }>`
      select name, name_en, party_code, contact_name, phone, mail from booking_agent
      where tenant_id = ${tenant.id} and id = ${id}`
      .execute(trx)
      .then((result) => result.rows[0]),
  )
  if (!row) return forwarder
  return {
    // DCSA documents are English: the agent's English name where it has one.
    name: row.name_en?.trim() || row.name,
    ...(row.party_code ? { partyCode: row.party_code } : {}),
    contact: { name: row.contact_name ?? '', phone: row.phone ?? '', email: row.mail ?? '' },
  }
}

export function dcsaHandlers(engine: EngineApi) {
  return {
    async dcsaBookingExport(ctx) {
      // DCSA documents are English: the names of places and carriers are read in English.
      const order = await orderOf(ctx, engine, ctx.input.id, 'en')
      const missing = missingForBooking(order)
      if (missing.length) throw new ApiError('validation', {}, missing)
      return sendFile(
        ctx,
        'application/json; charset=utf-8',
        fileName(order, 'dcsa-booking', 'json'),
        json(dcsaBooking(order, await bookingAgentOf(ctx, order))),
      )
    },

    async dcsaShippingInstructionsExport(ctx) {
      return shippingInstructionsFile(ctx, await documentOf(ctx, engine, 'order', ctx.input.id))
    },

    async blDraftPdf(ctx) {
      return draftFile(ctx, await documentOf(ctx, engine, 'order', ctx.input.id))
    },

    async blInstructionDcsaExport(ctx) {
      return shippingInstructionsFile(ctx, await documentOf(ctx, engine, 'blInstruction', ctx.input.id))
    },

    async blInstructionDraftPdf(ctx) {
      return draftFile(ctx, await documentOf(ctx, engine, 'blInstruction', ctx.input.id))
    },
  } satisfies Handlers
}
