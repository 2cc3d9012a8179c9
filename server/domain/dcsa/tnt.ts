import { randomUUID } from 'node:crypto'
import { type RawBuilder, type SqlBool, sql, type Transaction } from 'kysely'
import type { DB } from '../../db/schema.ts'
import type { HandlerContext, Session } from '../../http/context.ts'
import type { Handlers } from '../../http/endpoints.ts'
import { ApiError } from '../../http/errors.ts'
import { now } from '../../tenancy/clock.ts'
import { audienceOf } from '../tracking/lookup.ts'
import { loopbackAllowed, urlRefusal } from '../webhooks/address.ts'
import { sealSubscriptionSecret } from './secrets.ts'
import { type TntEventRow, tntEvent } from './tntEvents.ts'

/**
 * DCSA Track & Trace 2.2 (screens/dcsaTnt.yaml): the caller's shipments' tracking events as the standard's
 * events, and the standard's event subscriptions. Who sees what is the session's, never the query's: a
 * customer their company's shipments (shipment.customer_company), the forwarder's order desk the tenant's;
 * the tenant is the host's, under row-level security. Only sea shipments are answered: the standard is the
 * ocean carriers' and has no flight. A vessel's IMO number is the sailing schedules' (schedule_voyage) for a
 * vessel of that name; a vessel not in them is answered without one (the standard requires the number of a
 * vessel it names). Answers are the standard's bare JSON with its API-Version header.
 */

export const TNT_VERSION = '2.2.0'
/** Subscriptions one company (or the forwarder's desk) may hold. */
export const SUBSCRIPTIONS_PER_COMPANY = 20

export interface EventQuery {
  eventType?: string
  shipmentEventTypeCode?: string
  documentTypeCode?: string
  carrierBookingReference?: string
  transportDocumentReference?: string
  transportEventTypeCode?: string
  transportCallID?: string
  vesselIMONumber?: string
  carrierVoyageNumber?: string
  UNLocationCode?: string
  equipmentEventTypeCode?: string
  equipmentReference?: string
  eventCreatedDateTime?: string
  eventCreatedDateTimeEq?: string
  eventCreatedDateTimeGte?: string
  eventCreatedDateTimeGt?: string
  eventCreatedDateTimeLte?: string
  eventCreatedDateTimeLt?: string
  limit?: number
  cursor?: string
}

/** Whose shipments and subscriptions: a company's, the whole tenant's (null), or nobody's. */
export type Scope = { company: number | null } | 'none'

/**
 * Whose shipments and subscriptions a session may see: the shipments tracking shows it in full
 * (../tracking/lookup.ts), the same rule in one place. The portal's subscription list and notification log
 * (./register.ts) read it too.
 */
export function subscriptionScope(session: Session): Scope {
  const audience = audienceOf(session)
  return audience.view === 'full' ? { company: audience.company } : 'none'
}

function scopeOf(ctx: HandlerContext): Scope {
  const session = ctx.request.session
  if (!session) throw new ApiError('401')
  return subscriptionScope(session)
}

/** The subscriptions a scope owns, by their `company` column: a company's, or the forwarder's desk's (null). */
export function ownedBy(scope: Scope, company: RawBuilder<unknown>): RawBuilder<SqlBool> {
  if (scope === 'none') return sql<SqlBool>`false`
  return scope.company === null ? sql<SqlBool>`${company} is null` : sql<SqlBool>`${company} = ${scope.company}`
}

/** A page's position: the last answered row's key, base64url, opaque to the caller. */
const cursorOf = (key: string) => Buffer.from(key, 'utf8').toString('base64url')
function positionOf(cursor: string | undefined, pattern: RegExp): string | null {
  if (cursor === undefined) return null
  const key = Buffer.from(cursor, 'base64url').toString('utf8')
  if (!pattern.test(key))
    throw new ApiError('validation', {}, [{ field: 'cursor', message: 'tracking.dcsaCursorInvalid', params: {} }])
  return key
}

const list = (value: string | undefined) => (value ? value.split(',') : null)

/**
 * The transport call's id, as answered and as filtered: where, and on which voyage ("CNSHA-052E"). A shipment
 * event (a document's) has none in the standard, so it has none here and the call's filters pass it by.
 */
const CALL_ID = sql<string>`case when e.event_type = 'SHIPMENT' then null
  else nullif(concat_ws('-', e.un_location_code, coalesce(e.carrier_voyage_number, s.voyage)), '') end`
/** The filters of a call (vessel, voyage, place) match the events that have one: transport and equipment. */
const AT_CALL = sql<SqlBool>`e.event_type <> 'SHIPMENT'`
const VOYAGE = sql<string>`coalesce(e.carrier_voyage_number, s.voyage)`

function eventConditions(query: EventQuery): ReturnType<typeof sql<SqlBool>>[] {
  const where: ReturnType<typeof sql<SqlBool>>[] = []
  const anyOf = (column: string, value: string | undefined) => {
    const values = list(value)
    if (values) where.push(sql<SqlBool>`${sql.ref(`e.${column}`)} = any(${values}::text[])`)
  }
  anyOf('event_type', query.eventType)
  anyOf('shipment_event_type_code', query.shipmentEventTypeCode)
  anyOf('document_type_code', query.documentTypeCode)
  anyOf('transport_event_type_code', query.transportEventTypeCode)
  anyOf('equipment_event_type_code', query.equipmentEventTypeCode)
  if (query.carrierBookingReference) where.push(sql<SqlBool>`o.order_no = ${query.carrierBookingReference}`)
  if (query.transportDocumentReference)
    where.push(
      sql<SqlBool>`(s.bl_no = ${query.transportDocumentReference} or s.hbl = ${query.transportDocumentReference})`,
    )
  if (query.transportCallID) where.push(sql<SqlBool>`${CALL_ID} = ${query.transportCallID}`)
  if (query.vesselIMONumber) where.push(sql<SqlBool>`${AT_CALL} and imo.vessel_imo = ${query.vesselIMONumber}`)
  if (query.carrierVoyageNumber) where.push(sql<SqlBool>`${AT_CALL} and ${VOYAGE} = ${query.carrierVoyageNumber}`)
  if (query.UNLocationCode) where.push(sql<SqlBool>`${AT_CALL} and e.un_location_code = ${query.UNLocationCode}`)
  if (query.equipmentReference) where.push(sql<SqlBool>`e.equipment_reference = ${query.equipmentReference}`)
  const created = (op: string, value: string | undefined) => {
    if (value) where.push(sql<SqlBool>`e.event_created_date_time ${sql.raw(op)} ${value}::timestamptz`)
  }
  created('=', query.eventCreatedDateTime)
  created('=', query.eventCreatedDateTimeEq)
  created('>=', query.eventCreatedDateTimeGte)
  created('>', query.eventCreatedDateTimeGt)
  created('<=', query.eventCreatedDateTimeLte)
  created('<', query.eventCreatedDateTimeLt)
  return where
}

/**
 * The page of events the caller may see that the query matches, oldest first, and whether more follow; `only`
 * narrows them to events of these ids (the ones just recorded, told to the subscriptions: ./tntNotifications.ts).
 */
export async function tntEvents(
  trx: Transaction<DB>,
  tenantId: number,
  scope: Scope,
  query: EventQuery,
  after: number,
  limit: number,
  only?: readonly number[],
): Promise<{ events: Record<string, unknown>[]; last: number | null }> {
  if (scope === 'none') return { events: [], last: null }
  const where = eventConditions(query)
  if (scope.company !== null) where.push(sql<SqlBool>`s.customer_company = ${scope.company}`)
  if (only) where.push(sql<SqlBool>`e.id = any(${[...only]}::int[])`)
  const { rows } = await sql<TntEventRow>`
    select e.id, e.event_type as "eventType", e.event_classifier_code as "eventClassifierCode",
      e.event_date_time as "eventDateTime", e.event_created_date_time as "eventCreatedDateTime",
      e.shipment_event_type_code as "shipmentEventTypeCode", e.document_type_code as "documentTypeCode",
      e.transport_event_type_code as "transportEventTypeCode", e.equipment_event_type_code as "equipmentEventTypeCode",
      e.equipment_reference as "equipmentReference", e.empty_indicator_code as "emptyIndicatorCode",
      e.un_location_code as "unLocationCode", coalesce(e.vessel_name, s.vessel) as "vesselName",
      ${VOYAGE} as "carrierVoyageNumber", e.remark, s.bl_no as "blNo", s.hbl, o.order_no as "orderNo",
      ${CALL_ID} as "transportCallId", imo.vessel_imo as "vesselImo",
      (select c->>'sizeType' from jsonb_array_elements(coalesce(s.containers, '[]'::jsonb)) c
        where c->>'containerNo' = e.equipment_reference limit 1) as "sizeType"
    from tracking_event e
    join shipment s on s.tenant_id = e.tenant_id and s.id = e.shipment
    left join booking_order o on o.tenant_id = s.tenant_id and o.id = s.booking_order
    left join lateral (select v.vessel_imo from schedule_voyage v
      where v.vessel_name = coalesce(e.vessel_name, s.vessel) order by v.id limit 1) imo on true
    where e.tenant_id = ${tenantId} and s.transport_mode = 1 and e.id > ${after}
      ${where.length ? sql`and ${sql.join(where, sql` and `)}` : sql``}
    order by e.id limit ${limit + 1}`.execute(trx)
  const page = rows.slice(0, limit)
  return {
    events: page.map((row) =>
      tntEvent({
        ...row,
        eventDateTime: new Date(row.eventDateTime),
        eventCreatedDateTime: new Date(row.eventCreatedDateTime),
      }),
    ),
    last: rows.length > limit ? (page.at(-1)?.id ?? null) : null,
  }
}

/** The standard's bare JSON, with its version and, for a page, its cursors. */
async function sendJson(
  ctx: HandlerContext,
  status: number,
  document: unknown,
  headers: Record<string, string> = {},
): Promise<null> {
  ctx.reply.code(status).header('API-Version', TNT_VERSION).header('cache-control', 'no-store')
  for (const [name, value] of Object.entries(headers)) ctx.reply.header(name, value)
  if (document === null) {
    await ctx.reply.send()
    return null
  }
  const bytes = Buffer.from(`${JSON.stringify(document)}\n`, 'utf8')
  await ctx.reply
    .header('content-type', 'application/json; charset=utf-8')
    .header('content-length', String(bytes.length))
    .header('x-content-type-options', 'nosniff')
    .send(bytes)
  return null
}

/** The same query with another cursor: the link a page header names (the filters travel with it). */
function pageLink(ctx: HandlerContext, cursor: string | null): string {
  const url = new URL(ctx.request.url, 'http://host')
  if (cursor === null) url.searchParams.delete('cursor')
  else url.searchParams.set('cursor', cursor)
  return `${url.pathname}${url.search}`
}

// ——— Subscriptions ———

/** The standard's subscription filters, in its order (the portal's list shows them so: ./register.ts). */
export const FILTER_NAMES = [
  'eventType',
  'shipmentEventTypeCode',
  'documentTypeCode',
  'transportEventTypeCode',
  'equipmentEventTypeCode',
  'carrierBookingReference',
  'transportDocumentReference',
  'transportCallID',
  'vesselIMONumber',
  'carrierVoyageNumber',
  'UNLocationCode',
  'equipmentReference',
] as const

interface SubscriptionInput {
  subscriptionID?: string
  callbackUrl: string
  secret?: string
  [filter: string]: unknown
}

interface SubscriptionRow {
  id: string
  callback_url: string
  filters: Record<string, unknown>
}

const filtersOf = (input: SubscriptionInput) =>
  Object.fromEntries(FILTER_NAMES.filter((name) => input[name] !== undefined).map((name) => [name, input[name]]))

/** A subscription as the standard answers it: never its secret. */
const subscriptionOf = (row: SubscriptionRow) => ({
  subscriptionID: row.id,
  callbackUrl: row.callback_url,
  ...row.filters,
})

/** The caller's own subscription by id, or 404 as if missing (another company's, another tenant's). */
async function ownSubscription(
  trx: Transaction<DB>,
  tenantId: number,
  scope: Scope,
  id: string | undefined,
): Promise<SubscriptionRow> {
  if (scope === 'none' || !id) throw new ApiError('404')
  const row = await trx
    .selectFrom('dcsa_event_subscription')
    .select(['id', 'callback_url', 'filters'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .where(ownedBy(scope, sql.ref('company')))
    .executeTakeFirst()
  if (!row) throw new ApiError('404')
  return row
}

/** Works on the caller's own subscription `id` in the tenant's transaction (404 when it is not theirs). */
function onOwnSubscription<T>(
  ctx: HandlerContext,
  id: string | undefined,
  work: (trx: Transaction<DB>, own: SubscriptionRow, tenantId: number) => Promise<T>,
): Promise<T> {
  const scope = scopeOf(ctx)
  const tenantId = ctx.request.tenant.id
  return ctx.inTenant(async (trx) => work(trx, await ownSubscription(trx, tenantId, scope, id), tenantId))
}

/**
 * A callback the notifications may be sent to: the webhooks' SSRF rules (docs/SECURITY.md "Webhooks and SSRF") —
 * https, no credentials, no private or local address (loopback only with WEBHOOK_ALLOW_LOOPBACK=1); a name is
 * checked again, resolved, at every attempt.
 */
function checkCallback(url: string) {
  const refusal = urlRefusal(url, loopbackAllowed())
  if (refusal) throw new ApiError('validation', {}, [{ field: 'callbackUrl', message: refusal, params: {} }])
}

/**
 * Deletes one subscription, found by the caller's scope first (the standard's DELETE here, the portal's list in
 * ./tntPortal.ts): its notification log goes with it, and what is still queued for it fails at its next attempt.
 */
export async function removeSubscription(trx: Transaction<DB>, tenantId: number, id: string): Promise<void> {
  await trx.deleteFrom('dcsa_event_subscription').where('tenant_id', '=', tenantId).where('id', '=', id).execute()
}

/** A secret of at least 32 bytes, as DCSA's notification signatures need. */
function checkSecret(secret: string | undefined) {
  if (!secret || Buffer.from(secret, 'base64').length < 32)
    throw new ApiError('validation', {}, [{ field: 'secret', message: 'tracking.dcsaSecretRequired', params: {} }])
}

export const tntHandlers = {
  async dcsaEvents(ctx) {
    const query = ctx.input as EventQuery
    const limit = query.limit ?? 100
    const after = Number(positionOf(query.cursor, /^e\d{1,15}$/)?.slice(1) ?? 0)
    const scope = scopeOf(ctx)
    const { events, last } = await ctx.inTenant((trx) =>
      tntEvents(trx, ctx.request.tenant.id, scope, query, after, limit),
    )
    return sendJson(ctx, 200, events, {
      'Current-Page': pageLink(ctx, query.cursor ?? null),
      ...(last !== null ? { 'Next-Page': pageLink(ctx, cursorOf(`e${last}`)) } : {}),
      ...(query.cursor ? { 'First-Page': pageLink(ctx, null) } : {}),
    })
  },

  async dcsaEventSubscriptions(ctx) {
    const query = ctx.input as { limit?: number; cursor?: string }
    const limit = query.limit ?? 100
    const after = positionOf(query.cursor, /^s[0-9a-f-]{36}$/)?.slice(1) ?? null
    const scope = scopeOf(ctx)
    if (scope === 'none') return sendJson(ctx, 200, [])
    const rows = await ctx.inTenant((trx) =>
      trx
        .selectFrom('dcsa_event_subscription')
        .select(['id', 'callback_url', 'filters'])
        .where('tenant_id', '=', ctx.request.tenant.id)
        .where(ownedBy(scope, sql.ref('company')))
        .$if(after !== null, (q) => q.where('id', '>', after as string))
        .orderBy('id')
        .limit(limit + 1)
        .execute(),
    )
    const page = rows.slice(0, limit)
    const last = rows.length > limit ? page.at(-1)?.id : undefined
    return sendJson(ctx, 200, page.map(subscriptionOf), {
      'Current-Page': pageLink(ctx, query.cursor ?? null),
      ...(last ? { 'Next-Page': pageLink(ctx, cursorOf(`s${last}`)) } : {}),
    })
  },

  async dcsaEventSubscriptionCreate(ctx) {
    const input = ctx.input as SubscriptionInput
    checkSecret(input.secret)
    checkCallback(input.callbackUrl)
    const scope = scopeOf(ctx)
    if (scope === 'none') throw new ApiError('220000')
    const tenantId = ctx.request.tenant.id
    const row = await ctx.inTenant(async (trx) => {
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from dcsa_event_subscription
        where tenant_id = ${tenantId} and company is not distinct from ${scope.company}`.execute(trx)
      if ((rows[0]?.n ?? 0) >= SUBSCRIPTIONS_PER_COMPANY)
        throw new ApiError('validation', {}, [
          {
            field: 'callbackUrl',
            message: 'tracking.dcsaSubscriptionLimit',
            params: { limit: SUBSCRIPTIONS_PER_COMPANY },
          },
        ])
      const id = randomUUID()
      return trx
        .insertInto('dcsa_event_subscription')
        .values({
          tenant_id: tenantId,
          id,
          company: scope.company,
          created_by: ctx.request.session?.userId ?? null,
          callback_url: input.callbackUrl,
          secret: sealSubscriptionSecret(tenantId, id, input.secret as string),
          filters: JSON.stringify(filtersOf(input)),
        })
        .returning(['id', 'callback_url', 'filters'])
        .executeTakeFirstOrThrow()
    })
    return sendJson(ctx, 201, subscriptionOf(row))
  },

  async dcsaEventSubscription(ctx) {
    const { subscriptionID } = ctx.input as { subscriptionID?: string }
    const row = await onOwnSubscription(ctx, subscriptionID, async (_trx, own) => own)
    return sendJson(ctx, 200, subscriptionOf(row))
  },

  async dcsaEventSubscriptionUpdate(ctx) {
    const input = ctx.input as SubscriptionInput
    if (input.secret !== undefined)
      throw new ApiError('validation', {}, [{ field: 'secret', message: 'tracking.dcsaSecretNotHere', params: {} }])
    checkCallback(input.callbackUrl)
    const row = await onOwnSubscription(ctx, input.subscriptionID, (trx, own, tenantId) =>
      trx
        .updateTable('dcsa_event_subscription')
        .set({
          callback_url: input.callbackUrl,
          filters: JSON.stringify(filtersOf(input)),
          updated_at: now().toISOString(),
        })
        .where('tenant_id', '=', tenantId)
        .where('id', '=', own.id)
        .returning(['id', 'callback_url', 'filters'])
        .executeTakeFirstOrThrow(),
    )
    return sendJson(ctx, 200, subscriptionOf(row))
  },

  async dcsaEventSubscriptionSecret(ctx) {
    const { subscriptionID, secret } = ctx.input as { subscriptionID: string; secret: string }
    checkSecret(secret)
    await onOwnSubscription(ctx, subscriptionID, (trx, own, tenantId) =>
      trx
        .updateTable('dcsa_event_subscription')
        .set({ secret: sealSubscriptionSecret(tenantId, own.id, secret), updated_at: now().toISOString() })
        .where('tenant_id', '=', tenantId)
        .where('id', '=', own.id)
        .execute(),
    )
    return sendJson(ctx, 204, null)
  },

  async dcsaEventSubscriptionDelete(ctx) {
    const { subscriptionID } = ctx.input as { subscriptionID?: string }
    await onOwnSubscription(ctx, subscriptionID, (trx, own, tenantId) => removeSubscription(trx, tenantId, own.id))
    return sendJson(ctx, 204, null)
  },
} satisfies Handlers
