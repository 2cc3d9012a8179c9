import { type RawBuilder, type Selectable, sql, type Transaction } from 'kysely'
import type {
  TrackingEventView,
  TrackingNumberResult,
  TrackingShipmentResult,
  TrackingShipmentView,
} from '../../../generated/content.ts'
import type { ManifestEntity } from '../../../model/resolve.ts'
import type { TrackingNumber } from '../../../rules/trackingNumbers.ts'
import type { DB } from '../../db/schema.ts'
import { type LabelTarget, labelTarget, sharedTexts } from '../../engine/index.ts'
import type { Session } from '../../http/context.ts'
import type { Language } from '../../http/errors.ts'
import { loadManifest } from '../../manifest.ts'
import { trackFbaOrders } from '../fba/tracking.ts'
import {
  customsLabels,
  effectiveEvents,
  eventMark,
  navigationState,
  type StoredEvent,
  scheduleTime,
  shipmentMark,
  trackingSteps,
} from './view.ts'

/**
 * Who may see what (issue #6): a visitor, a personal user and a provider-side user without the order
 * list get the minimal public view of any shipment of the tenant; operators (orderList) see every
 * shipment in full; an enterprise user sees only their own company's shipments, in full, and any other
 * shipment is "not found" exactly as a number that does not exist.
 */
export type Audience = { view: 'public' } | { view: 'full'; company: number | null }

export function audienceOf(session: Session | null): Audience {
  if (!session) return { view: 'public' }
  if (session.companyUserType === 1) {
    return session.permissions.has('orderList') ? { view: 'full', company: null } : { view: 'public' }
  }
  if (session.companyId !== null) return { view: 'full', company: session.companyId }
  return { view: 'public' }
}

interface ShipmentRow {
  id: number
  created_at: Date
  transport_mode: number
  bl_no: string | null
  hbl: string | null
  mawb: string | null
  containers: { containerNo: string; sizeType?: string; sealNo?: string }[] | null
  carrier: string | null
  vessel: string | null
  voyage: string | null
  pol: string
  pod: string
  origin_airport: string | null
  destination_airport: string | null
  etd: Date | null
  eta: Date | null
  atd: Date | null
  ata: Date | null
  cancelled: boolean | null
  customer_company: number | null
  order_no: string | null
  /** The order's ETD and ETA (days), which the shipment's schedule starts from. */
  order_etd: string | null
  order_eta: string | null
  /** The customer company's names, read with the shipment (one round trip fewer, issue #29). */
  company_name: string | null
  company_name_en: string | null
}

/** What an answer reads of a shipment and its order: the columns, then (after `from shipment`) the joins. */
const SHIPMENT_COLUMNS = sql`shipment.id, shipment.created_at, shipment.transport_mode,
      shipment.bl_no, shipment.hbl, shipment.mawb, shipment.containers, shipment.carrier, shipment.vessel,
      shipment.voyage, shipment.pol, shipment.pod, shipment.origin_airport, shipment.destination_airport,
      shipment.etd, shipment.eta, shipment.atd, shipment.ata, shipment.cancelled, shipment.customer_company,
      booking_order.order_no, to_char(booking_order.etd, 'YYYY-MM-DD') as order_etd,
      to_char(booking_order.eta, 'YYYY-MM-DD') as order_eta,
      company.name as company_name, company.name_en as company_name_en`
const SHIPMENT_JOINS = sql`
    left join booking_order on booking_order.id = shipment.booking_order
      and booking_order.tenant_id = shipment.tenant_id
    left join company on company.id = shipment.customer_company and company.tenant_id = shipment.tenant_id`

/**
 * The shipments each number names, in one query: a branch per kind of number, each reading its numbers from an
 * array (`unnest … with` their places in the request) and looking each up by index (B/L, house B/L and order
 * number by their own indexes, containers by the GIN index of the list, air waybills with and without the dash).
 * The statement's text is the same for any count of numbers, so it is prepared once and planned once; a branch
 * per number made a new text for each count, planned again on every call until PostgreSQL settled on a generic
 * plan, and an execution that grew with the branches (issue #29: 1.4 ms of tracking's 3 ms in the database).
 */
async function shipmentsOf(trx: Transaction<DB>, tenantId: number, numbers: TrackingNumber[]) {
  /** The numbers of one kind (as `spell` writes them) and their places in the request. */
  const branch = (kind: TrackingNumber['kind'], match: RawBuilder<unknown>, spell = (n: string) => n) => {
    const places = numbers.flatMap((n, index) => (n.kind === kind ? [index] : []))
    if (!places.length) return []
    const typed = places.map((index) => spell((numbers[index] as TrackingNumber).number))
    return [
      sql`select n.place as number_index, ${SHIPMENT_COLUMNS}
      from unnest(${typed}::text[], ${places}::int[]) as n(number, place)
      cross join lateral (${match}) found
      join shipment on shipment.tenant_id = ${tenantId} and shipment.id = found.id
      ${SHIPMENT_JOINS}`,
    ]
  }
  const branches = [
    ...branch(
      'reference',
      sql`select id from shipment where tenant_id = ${tenantId} and (bl_no = n.number or hbl = n.number)
        union
        select s.id from booking_order o join shipment s on s.booking_order = o.id and s.tenant_id = o.tenant_id
        where o.tenant_id = ${tenantId} and o.order_no = n.number`,
    ),
    ...branch(
      'container',
      sql`select id from shipment
        where tenant_id = ${tenantId} and containers @> jsonb_build_array(jsonb_build_object('containerNo', n.number))`,
    ),
    ...branch(
      'airWaybill',
      // Its digits, stored with or without the dash after the airline's prefix.
      sql`select id from shipment where tenant_id = ${tenantId}
        and mawb in (n.number, substr(n.number, 1, 3) || '-' || substr(n.number, 4))`,
      (typed) => typed.replace('-', ''),
    ),
  ]
  if (!branches.length) return numbers.map(() => [])
  const { rows } = await sql<ShipmentRow & { number_index: number }>`
    ${sql.join(branches, sql` union all `)} order by number_index, id`.execute(trx)
  return numbers.map((_, index) => rows.filter((r) => r.number_index === index))
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString())

type CodeField =
  | 'shipmentEventTypeCode'
  | 'documentTypeCode'
  | 'transportEventTypeCode'
  | 'equipmentEventTypeCode'
  | 'emptyIndicatorCode'

/** A stored DCSA code as the event's field allows it (schemas/trackingEvent.yaml's values); another is none. */
function codeOf<K extends CodeField>(field: K, value: string | null): StoredEvent[K] {
  const allowed = loadManifest().entities.trackingEvent?.fields[field]?.values ?? []
  return allowed.some((v) => v.value === value) ? (value as StoredEvent[K]) : null
}

function toStoredEvent(row: Selectable<DB['tracking_event']>): StoredEvent {
  return {
    id: row.id,
    eventType: row.event_type,
    eventClassifierCode: row.event_classifier_code,
    eventDateTime: new Date(row.event_date_time),
    eventCreatedDateTime: new Date(row.event_created_date_time),
    shipmentEventTypeCode: codeOf('shipmentEventTypeCode', row.shipment_event_type_code),
    documentTypeCode: codeOf('documentTypeCode', row.document_type_code),
    transportEventTypeCode: codeOf('transportEventTypeCode', row.transport_event_type_code),
    equipmentEventTypeCode: codeOf('equipmentEventTypeCode', row.equipment_event_type_code),
    equipmentReference: row.equipment_reference,
    emptyIndicatorCode: codeOf('emptyIndicatorCode', row.empty_indicator_code),
    unLocationCode: row.un_location_code,
    vesselName: row.vessel_name,
    carrierVoyageNumber: row.carrier_voyage_number,
    correctsEvent: row.corrects_event,
    remark: row.remark,
  }
}

interface Names {
  ports: Map<string, string>
  airports: Map<string, string>
  carriers: Map<string, string>
  /** ISO size-type code → SPEC §3 label (45G1 → 40'HQ). */
  containerTypes: Map<string, string>
  companies: Map<number, string>
}

/** The shared reference lists' names, as labels read them (once per process: sharedTexts). */
const referenceNames = (entity: string): LabelTarget => {
  const target = labelTarget(loadManifest().entities[entity] as ManifestEntity)
  if (!target) throw new Error(`${entity} has no table to read names from`)
  return target
}
const PORTS = referenceNames('port')
const AIRPORTS = referenceNames('airport')
const CARRIERS = referenceNames('carrier')
const CONTAINER_TYPES = referenceNames('containerType')

/** Display names of the ports, airports, carriers and companies a page of shipments mentions. */
async function namesFor(trx: Transaction<DB>, rows: ShipmentRow[], language: Language): Promise<Names> {
  const zh = language === 'zh'
  const companies = rows.flatMap((r) =>
    r.customer_company !== null && r.company_name !== null
      ? [{ id: r.customer_company, name: r.company_name, name_en: r.company_name_en }]
      : [],
  )
  return {
    ports: await sharedTexts(trx, PORTS, language),
    airports: await sharedTexts(trx, AIRPORTS, language),
    carriers: await sharedTexts(trx, CARRIERS, language),
    containerTypes: await sharedTexts(trx, CONTAINER_TYPES, language),
    companies: new Map(companies.map((c) => [c.id, zh ? c.name : (c.name_en ?? c.name)])),
  }
}

/** One shipment a tracking number names, as the answer carries it (schemas/trackingShipmentResult.yaml). */
export type ShipmentAnswer = TrackingShipmentResult

/** One number of a search and the shipments it names (schemas/trackingNumberResult.yaml). */
export type NumberAnswer = TrackingNumberResult

/**
 * Answers each number with the shipments (and FBA orders) it names that the audience may see, newest events first. Runs
 * in the caller's tenant transaction, so another tenant's shipments are not there to be found at all.
 */
export async function trackNumbers(
  trx: Transaction<DB>,
  tenantId: number,
  numbers: TrackingNumber[],
  audience: Audience,
  language: Language,
  now: Date,
): Promise<NumberAnswer[]> {
  const found = await shipmentsOf(trx, tenantId, numbers)
  const visible = found.map((rows) =>
    audience.view === 'full' && audience.company !== null
      ? rows.filter((r) => r.customer_company === audience.company)
      : rows,
  )
  const ids = [...new Set(visible.flat().map((r) => r.id))]
  const eventRows = ids.length
    ? await trx
        .selectFrom('tracking_event')
        .selectAll()
        .where('tenant_id', '=', tenantId)
        .where('shipment', 'in', ids)
        .orderBy('event_date_time', 'desc')
        .orderBy('id', 'desc')
        .execute()
    : []
  const eventsOf = new Map<number, StoredEvent[]>()
  for (const row of eventRows) {
    const list = eventsOf.get(row.shipment) ?? []
    list.push(toStoredEvent(row))
    eventsOf.set(row.shipment, list)
  }
  const names = await namesFor(trx, visible.flat(), language)
  // An order number may be an FBA order's (FBA + the day + a sequence): answered beside the sea shipments.
  const fba = await trackFbaOrders(trx, tenantId, numbers, audience, language)
  return numbers.map((number, index) => {
    const rows = visible[index] ?? []
    const fbaOrders = fba[index] ?? []
    return {
      number: number.number,
      kind: number.kind,
      found: rows.length > 0 || fbaOrders.length > 0,
      shipments: rows.map((row) => answerFor(row, eventsOf.get(row.id) ?? [], number, audience, names, now)),
      fbaOrders,
    }
  })
}

/**
 * One shipment's full view, as its customer sees it, for whoever holds a link to it (./links.ts): without the
 * ids of the shipment, its company or its events, so nothing in it opens another record.
 */
export async function sharedShipment(
  trx: Transaction<DB>,
  tenantId: number,
  shipmentId: number,
  language: Language,
  now: Date,
): Promise<ShipmentAnswer | null> {
  const { rows } = await sql<ShipmentRow>`select ${SHIPMENT_COLUMNS} from shipment ${SHIPMENT_JOINS}
    where shipment.tenant_id = ${tenantId} and shipment.id = ${shipmentId}`.execute(trx)
  const row = rows[0]
  if (!row) return null
  const events = (
    await trx
      .selectFrom('tracking_event')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('shipment', '=', shipmentId)
      .orderBy('event_date_time', 'desc')
      .orderBy('id', 'desc')
      .execute()
  ).map(toStoredEvent)
  const names = await namesFor(trx, [row], language)
  const number: TrackingNumber = { number: row.bl_no ?? '', kind: 'reference' }
  const answer = answerFor(row, events, number, { view: 'full', company: row.customer_company }, names, now)
  const { id: _shipment, customerCompany: _company, ...shipment } = answer.shipment
  return {
    ...answer,
    shipment,
    events: answer.events.map(({ id: _event, correctsEvent: _corrects, ...event }) => event),
  }
}

function answerFor(
  row: ShipmentRow,
  events: StoredEvent[],
  number: TrackingNumber,
  audience: Audience,
  names: Names,
  now: Date,
): ShipmentAnswer {
  const stored = {
    pol: row.pol,
    pod: row.pod,
    cancelled: row.cancelled === true,
    createdAt: new Date(row.created_at),
  }
  const steps = trackingSteps(stored, events)
  const full = audience.view === 'full'
  const live = new Set(effectiveEvents(events).map((e) => e.id))
  const shipment: TrackingShipmentView = {
    transportMode: row.transport_mode === 2 ? 2 : 1,
    carrier: row.carrier,
    carrierName: row.carrier ? (names.carriers.get(row.carrier) ?? null) : null,
    vessel: row.vessel,
    voyage: row.voyage,
    pol: row.pol,
    polName: names.ports.get(row.pol) ?? null,
    pod: row.pod,
    podName: names.ports.get(row.pod) ?? null,
    originAirport: row.origin_airport,
    originAirportName: row.origin_airport ? (names.airports.get(row.origin_airport) ?? null) : null,
    destinationAirport: row.destination_airport,
    destinationAirportName: row.destination_airport ? (names.airports.get(row.destination_airport) ?? null) : null,
    // A day when the schedule is still the order's, else the carrier's moment (view.ts).
    etd: scheduleTime(row.etd, row.order_etd),
    eta: scheduleTime(row.eta, row.order_eta),
    atd: iso(row.atd),
    ata: iso(row.ata),
    cancelled: stored.cancelled,
    ...(full
      ? {
          id: row.id,
          orderNo: row.order_no,
          blNo: row.bl_no,
          hbl: row.hbl,
          mawb: row.mawb,
          // A person reads a container's type as a forwarder writes it (40'HQ); the ISO code stays beside it.
          containers: (row.containers ?? []).map((c) => ({
            ...c,
            sizeTypeName: c.sizeType ? (names.containerTypes.get(c.sizeType) ?? null) : null,
          })),
          customerCompany: row.customer_company,
          customerCompanyName:
            row.customer_company !== null ? (names.companies.get(row.customer_company) ?? null) : null,
        }
      : number.kind === 'airWaybill'
        ? { mawb: row.mawb }
        : {}),
  }
  return {
    view: audience.view,
    status: navigationState(stored, steps),
    mark: shipmentMark(stored, events, now),
    shipment,
    steps,
    customs: customsLabels(events),
    // One object literal an event, the full view's fields added after: spreading a shared part and a conditional
    // one into a new literal cost 5.7 µs an event against 1 (a fifth of a 10-number search's server time, issue #29).
    events: events.map((e): TrackingEventView => {
      const isLive = live.has(e.id)
      // The public view names a container only to whoever typed its number.
      const showContainer = full || (number.kind === 'container' && e.equipmentReference === number.number)
      const view: TrackingEventView = {
        eventType: e.eventType,
        eventClassifierCode: e.eventClassifierCode,
        eventDateTime: e.eventDateTime.toISOString(),
        eventCreatedDateTime: e.eventCreatedDateTime.toISOString(),
        shipmentEventTypeCode: e.shipmentEventTypeCode,
        documentTypeCode: e.documentTypeCode,
        transportEventTypeCode: e.transportEventTypeCode,
        equipmentEventTypeCode: e.equipmentEventTypeCode,
        emptyIndicatorCode: e.emptyIndicatorCode,
        unLocationCode: e.unLocationCode,
        locationName: e.unLocationCode ? (names.ports.get(e.unLocationCode) ?? null) : null,
        vesselName: e.vesselName,
        carrierVoyageNumber: e.carrierVoyageNumber,
        corrected: !isLive,
        correction: e.correctsEvent !== null,
        mark: isLive ? eventMark(e, now) : null,
        equipmentReference: showContainer ? e.equipmentReference : null,
      }
      return full ? Object.assign(view, { id: e.id, correctsEvent: e.correctsEvent, remark: e.remark }) : view
    }),
  }
}
