import { sql } from 'kysely'
import { parseTrackingNumbers } from '../../../rules/trackingNumbers.ts'
import type { HandlerContext } from '../../http/context.ts'
import type { Handlers, TypedHandler } from '../../http/endpoints.ts'
import { ApiError } from '../../http/errors.ts'
import { now } from '../../tenancy/clock.ts'
import { spendLookup, visitorLimit } from './limits.ts'
import { audienceOf, trackNumbers } from './lookup.ts'
import { type NewTrackingEvent, recordTrackingEvents, type StoredTrackingEvent } from './record.ts'

/**
 * Cargo tracking (issue #6): the public search, the signed-in user's search history, and the operators'
 * DCSA event feed. The numbers are parsed by rules/trackingNumbers.ts, the same function the portal
 * refuses with before sending.
 */

/** A signed-in user's searches live in user_setting (migration 0008) under this name, newest first. */
const HISTORY_SETTING = 'trackingHistory'
export const HISTORY_LENGTH = 20

interface HistoryEntry {
  numbers: string[]
  at: string
}

function userOf(ctx: HandlerContext) {
  const session = ctx.request.session
  if (!session) throw new ApiError('401')
  return session
}

/** An event as stored, as the API answers it: each type's own codes as they were written, the others none. */
function recordOf(row: StoredTrackingEvent, input: NewTrackingEvent) {
  const kind = row.event_type
  return {
    id: row.id,
    shipment: row.shipment,
    eventType: input.eventType,
    eventClassifierCode: input.eventClassifierCode,
    eventDateTime: new Date(row.event_date_time).toISOString(),
    eventCreatedDateTime: new Date(row.event_created_date_time).toISOString(),
    shipmentEventTypeCode: kind === 'SHIPMENT' ? (input.shipmentEventTypeCode ?? null) : null,
    documentTypeCode: kind === 'SHIPMENT' ? (input.documentTypeCode ?? null) : null,
    transportEventTypeCode: kind === 'TRANSPORT' ? (input.transportEventTypeCode ?? null) : null,
    equipmentEventTypeCode: kind === 'EQUIPMENT' ? (input.equipmentEventTypeCode ?? null) : null,
    equipmentReference: row.equipment_reference,
    emptyIndicatorCode: kind === 'EQUIPMENT' ? (input.emptyIndicatorCode ?? null) : null,
    unLocationCode: row.un_location_code,
    vesselName: row.vessel_name,
    carrierVoyageNumber: row.carrier_voyage_number,
    correctsEvent: row.corrects_event,
    remark: row.remark,
  }
}

const query: TypedHandler<'trackingQuery'> = async (ctx) => {
  const { numbers: typed } = ctx.input
  const parsed = parseTrackingNumbers(typed)
  if (!parsed.ok) {
    throw new ApiError('validation', {}, [{ field: 'numbers', message: parsed.error.key, params: parsed.error.params }])
  }
  const session = ctx.request.session
  const tenant = ctx.request.tenant
  const audience = audienceOf(session)
  return ctx.inTenant(async (trx) => {
    // One instant for the whole search: the allowance, the marks (new / changed within 24 h) and the history.
    const at = now()
    const allowance = await spendLookup(
      trx,
      tenant.id,
      ctx.request.ip,
      session?.userId ?? null,
      parsed.numbers.length,
      visitorLimit(tenant.settings),
      at,
    )
    const results = await trackNumbers(trx, tenant.id, parsed.numbers, audience, ctx.request.language, at)
    if (session) {
      // The search first, the user's earlier ones after it without its numbers, at most HISTORY_LENGTH: worked out
      // in the upsert itself, one statement (issue #29).
      const numbers = JSON.stringify(parsed.numbers.map((n) => n.number))
      const entry = JSON.stringify([{ numbers: JSON.parse(numbers), at: at.toISOString() }])
      await sql`
        insert into user_setting (tenant_id, user_id, name, value)
        values (${tenant.id}, ${session.userId}, ${HISTORY_SETTING}, ${entry}::jsonb)
        on conflict (tenant_id, user_id, name) do update set updated_at = ${at}, value = excluded.value || coalesce((
          select jsonb_agg(e order by i) from (
            select e, i from jsonb_array_elements(user_setting.value) with ordinality as earlier(e, i)
            where e -> 'numbers' <> ${numbers}::jsonb
            order by i limit ${HISTORY_LENGTH - 1}
          ) kept), '[]'::jsonb)`.execute(trx)
    }
    return { results, allowance }
  })
}

export const trackingHandlers = {
  trackingQuery: query,
  getOrderTrack: (ctx) => query(ctx),

  async trackingHistory(ctx) {
    const session = userOf(ctx)
    const row = await ctx.inTenant((trx) =>
      trx
        .selectFrom('user_setting')
        .select('value')
        .where('tenant_id', '=', session.tenantId)
        .where('user_id', '=', session.userId)
        .where('name', '=', HISTORY_SETTING)
        .executeTakeFirst(),
    )
    return { entries: (row?.value as HistoryEntry[] | undefined) ?? [] }
  },

  async trackingHistoryClear(ctx) {
    const session = userOf(ctx)
    await ctx.inTenant((trx) =>
      trx
        .deleteFrom('user_setting')
        .where('tenant_id', '=', session.tenantId)
        .where('user_id', '=', session.userId)
        .where('name', '=', HISTORY_SETTING)
        .execute(),
    )
    return { entries: [] }
  },

  async trackingEventAdd(ctx) {
    const session = userOf(ctx)
    const input = ctx.input
    const tenantId = ctx.request.tenant.id
    return ctx.inTenant(async (trx) => {
      const [row] = await recordTrackingEvents(trx, tenantId, [input], { userId: session.userId })
      if (!row) throw new ApiError('404')
      return recordOf(row, input)
    })
  },

  /** Trajectory management (screens/operatorOrders.yaml): an event added to the shipment { id }. */
  async trajectoryEventAdd(ctx) {
    const session = userOf(ctx)
    const { id, version: _version, ...event } = ctx.input
    const tenantId = ctx.request.tenant.id
    return ctx.inTenant(async (trx) => {
      const input = { ...event, shipment: id }
      const [row] = await recordTrackingEvents(trx, tenantId, [input], { userId: session.userId })
      if (!row) throw new ApiError('404')
      return recordOf(row, input)
    })
  },

  /**
   * The correction of the event { id }: a new event of its shipment naming it (never an edit). An event of
   * another tenant is not found (404), as a missing one is.
   */
  async trajectoryEventCorrect(ctx) {
    const session = userOf(ctx)
    const { id, version: _version, ...event } = ctx.input
    const tenantId = ctx.request.tenant.id
    return ctx.inTenant(async (trx) => {
      const corrected = await trx
        .selectFrom('tracking_event')
        .select(['id', 'shipment'])
        .where('tenant_id', '=', tenantId)
        .where('id', '=', id)
        .executeTakeFirst()
      if (!corrected) throw new ApiError('404')
      const input = { ...event, shipment: corrected.shipment, correctsEvent: corrected.id }
      const [row] = await recordTrackingEvents(trx, tenantId, [input], { userId: session.userId })
      if (!row) throw new ApiError('404')
      return recordOf(row, input)
    })
  },
} satisfies Handlers
