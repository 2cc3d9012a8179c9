import { type Selectable, sql, type Transaction } from 'kysely'
import type { TrackingEvent } from '../../../generated/types.ts'
import type { DB } from '../../db/schema.ts'
import { ApiError } from '../../http/errors.ts'
import { now } from '../../tenancy/clock.ts'
import { notifyDcsaSubscriptions } from '../dcsa/tntNotifications.ts'
import { webhookTrackingEvents } from '../webhooks/events.ts'
import { notifySubscribers } from './subscriptions.ts'

/**
 * The one way a tracking event is written (schemas/trackingEvent.yaml): the operators' trackingEventAdd, the
 * shipment an accepted order gets, and any bulk import of trajectories call `recordTrackingEvents` in their
 * own transaction. In that transaction it checks the shipments and corrections, stores the events (each type
 * with its own DCSA codes only), moves the shipments' schedules, and tells the subscribers of each event
 * once (./subscriptions.ts), the enterprise's webhooks and the DCSA event subscriptions (../dcsa/tntNotifications.ts). Many rows go in a few statements, so an import of thousands stays one call.
 */

/** An event as the API shapes it, with its writer and, for the server's own events, a time of its own. */
export type NewTrackingEvent = Omit<TrackingEvent, 'id' | 'version' | 'eventDateTime'> & {
  eventDateTime: string | Date
}

export type StoredTrackingEvent = Selectable<DB['tracking_event']>

export interface RecordOptions {
  /** The user who writes them (created_by; they are told of nothing they wrote themselves). */
  userId: number | null
  /** The instant they are recorded at (eventCreatedDateTime); the server's clock unless given. */
  at?: Date
}

/** Rows per insert statement: well inside PostgreSQL's 65,535 parameters at 19 columns a row. */
const CHUNK = 500

export async function recordTrackingEvents(
  trx: Transaction<DB>,
  tenantId: number,
  events: readonly NewTrackingEvent[],
  options: RecordOptions,
): Promise<StoredTrackingEvent[]> {
  if (!events.length) return []
  const at = options.at ?? now()
  const shipmentIds = [...new Set(events.map((e) => e.shipment))]
  // Locked, so two writers of one shipment's schedule take turns.
  const shipments = await trx
    .selectFrom('shipment')
    .select(['id', 'pol', 'pod'])
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', shipmentIds)
    .forUpdate()
    .execute()
  if (shipments.length !== shipmentIds.length) throw new ApiError('404')
  await checkCorrections(trx, tenantId, events)

  const stored: StoredTrackingEvent[] = []
  for (let start = 0; start < events.length; start += CHUNK) {
    const rows = events.slice(start, start + CHUNK).map((input) => {
      // Each event type carries only its own codes (DCSA): what belongs to another type is dropped.
      const kind = input.eventType
      return {
        tenant_id: tenantId,
        created_by: options.userId,
        shipment: input.shipment,
        event_type: kind,
        event_classifier_code: input.eventClassifierCode,
        event_date_time: input.eventDateTime,
        event_created_date_time: at,
        shipment_event_type_code: kind === 'SHIPMENT' ? (input.shipmentEventTypeCode ?? null) : null,
        document_type_code: kind === 'SHIPMENT' ? (input.documentTypeCode ?? null) : null,
        transport_event_type_code: kind === 'TRANSPORT' ? (input.transportEventTypeCode ?? null) : null,
        equipment_event_type_code: kind === 'EQUIPMENT' ? (input.equipmentEventTypeCode ?? null) : null,
        equipment_reference: kind === 'EQUIPMENT' ? (input.equipmentReference ?? null) : null,
        empty_indicator_code: kind === 'EQUIPMENT' ? (input.emptyIndicatorCode ?? null) : null,
        un_location_code: input.unLocationCode ?? null,
        vessel_name: kind === 'TRANSPORT' ? (input.vesselName ?? null) : null,
        carrier_voyage_number: kind === 'TRANSPORT' ? (input.carrierVoyageNumber ?? null) : null,
        corrects_event: input.correctsEvent ?? null,
        remark: input.remark ?? null,
      }
    })
    stored.push(...(await trx.insertInto('tracking_event').values(rows).returningAll().execute()))
  }

  const byId = new Map(shipments.map((s) => [s.id, s]))
  for (const event of stored) {
    const shipment = byId.get(event.shipment)
    if (shipment) await moveSchedule(trx, tenantId, shipment, event, at)
  }
  await notifySubscribers(trx, tenantId, stored, options.userId)
  // The customer's webhooks that chose tracking events hear each (issue #29), in this transaction too.
  await webhookTrackingEvents(trx, tenantId, stored, at)
  // And the DCSA Track & Trace subscriptions whose filters they meet, as the standard's events.
  await notifyDcsaSubscriptions(trx, tenantId, stored)
  return stored
}

/** A correction names an event of the same shipment. */
async function checkCorrections(trx: Transaction<DB>, tenantId: number, events: readonly NewTrackingEvent[]) {
  const corrections = events.filter((e) => e.correctsEvent !== undefined)
  if (!corrections.length) return
  const corrected = await trx
    .selectFrom('tracking_event')
    .select(['id', 'shipment'])
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', [...new Set(corrections.map((e) => e.correctsEvent as number))])
    .execute()
  const shipmentOf = new Map(corrected.map((row) => [row.id, row.shipment]))
  if (corrections.some((e) => shipmentOf.get(e.correctsEvent as number) !== e.shipment))
    throw new ApiError('validation', {}, [
      { field: 'correctsEvent', message: 'tracking.invalidCorrection', params: {} },
    ])
}

/** Departures from the port of loading and arrivals at the port of discharge move the schedule. */
async function moveSchedule(
  trx: Transaction<DB>,
  tenantId: number,
  shipment: { id: number; pol: string; pod: string },
  event: StoredTrackingEvent,
  at: Date,
) {
  if (event.event_type !== 'TRANSPORT') return
  const actual = event.event_classifier_code === 'ACT'
  const code = event.transport_event_type_code
  const place = event.un_location_code
  const column =
    code === 'DEPA' && place === shipment.pol
      ? actual
        ? 'atd'
        : 'etd'
      : code === 'ARRI' && place === shipment.pod
        ? actual
          ? 'ata'
          : 'eta'
        : null
  if (!column) return
  await trx
    .updateTable('shipment')
    .set({ [column]: event.event_date_time, updated_at: at, version: sql`version + 1` })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', shipment.id)
    .execute()
}
