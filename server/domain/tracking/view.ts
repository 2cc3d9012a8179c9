import type { TrackingEventView } from '../../../generated/content.ts'

/**
 * What a tracking answer says about one shipment, computed from its stored row and its DCSA events with
 * no database and an explicit clock: the steps (SPEC §4 booking → bill of lading → departure → arrival),
 * the cargo-navigation state, the customs labels (declared, examined, released) and the colours of
 * SPEC §9 (added within 24 h, within 48 h, changed within 24 h, cancelled).
 */

export type TrackingStep = 'booking' | 'billOfLading' | 'departure' | 'arrival'
export type NavigationState = 'booking' | 'underWay' | 'arrived' | 'cancelled'
export type CustomsLabel = 'declared' | 'examined' | 'released'
/** SPEC §9: yellow, light blue, red, grey. */
export type TrackingMark = 'new24' | 'new48' | 'changed24' | 'cancelled'

export interface StoredEvent {
  id: number
  eventType: 'SHIPMENT' | 'TRANSPORT' | 'EQUIPMENT'
  eventClassifierCode: 'ACT' | 'PLN' | 'EST'
  eventDateTime: Date
  eventCreatedDateTime: Date
  shipmentEventTypeCode: TrackingEventView['shipmentEventTypeCode']
  documentTypeCode: TrackingEventView['documentTypeCode']
  transportEventTypeCode: TrackingEventView['transportEventTypeCode']
  equipmentEventTypeCode: TrackingEventView['equipmentEventTypeCode']
  equipmentReference: string | null
  emptyIndicatorCode: TrackingEventView['emptyIndicatorCode']
  unLocationCode: string | null
  vesselName: string | null
  carrierVoyageNumber: string | null
  correctsEvent: number | null
  remark: string | null
}

export interface StoredShipment {
  pol: string
  pod: string
  cancelled: boolean
  createdAt: Date
}

const HOUR = 3_600_000

/** Events no later event corrects: the ones steps and customs labels are read from. */
export function effectiveEvents(events: readonly StoredEvent[]): StoredEvent[] {
  const corrected = new Set(events.map((e) => e.correctsEvent).filter((id): id is number => id !== null))
  return events.filter((e) => !corrected.has(e.id))
}

function isAct(e: StoredEvent) {
  return e.eventClassifierCode === 'ACT'
}

function first(events: StoredEvent[], test: (e: StoredEvent) => boolean): StoredEvent | undefined {
  return events.filter(test).sort((a, b) => a.eventDateTime.getTime() - b.eventDateTime.getTime())[0]
}

export interface StepState {
  step: TrackingStep
  done: boolean
  at: string | null
}

/** The four steps, each done when its actual event is in the (effective) history. */
export function trackingSteps(shipment: StoredShipment, events: readonly StoredEvent[]): StepState[] {
  const live = effectiveEvents(events).filter(isAct)
  const found: Record<TrackingStep, StoredEvent | undefined> = {
    booking: first(
      live,
      (e) => e.eventType === 'SHIPMENT' && e.documentTypeCode === 'BKG' && e.shipmentEventTypeCode === 'CONF',
    ),
    billOfLading: first(
      live,
      (e) => e.eventType === 'SHIPMENT' && e.documentTypeCode === 'TRD' && e.shipmentEventTypeCode === 'ISSU',
    ),
    departure: first(
      live,
      (e) => e.eventType === 'TRANSPORT' && e.transportEventTypeCode === 'DEPA' && e.unLocationCode === shipment.pol,
    ),
    // Arrival is at the port of discharge: an arrival at a transshipment port does not end the voyage.
    arrival: first(
      live,
      (e) => e.eventType === 'TRANSPORT' && e.transportEventTypeCode === 'ARRI' && e.unLocationCode === shipment.pod,
    ),
  }
  return (['booking', 'billOfLading', 'departure', 'arrival'] as const).map((step) => ({
    step,
    done: !!found[step],
    at: found[step]?.eventDateTime.toISOString() ?? null,
  }))
}

/** SPEC §4 cargo navigation: booking, under way, arrived, cancelled. */
export function navigationState(shipment: StoredShipment, steps: readonly StepState[]): NavigationState {
  if (shipment.cancelled) return 'cancelled'
  if (steps.find((s) => s.step === 'arrival')?.done) return 'arrived'
  if (steps.find((s) => s.step === 'departure')?.done) return 'underWay'
  return 'booking'
}

/**
 * Customs labels from the customs-declaration document's events (documentTypeCode CUS): SUBM declared,
 * HOLD examined, RELS released; a container inspection (EQUIPMENT INSP) is an examination too.
 */
export function customsLabels(
  events: readonly StoredEvent[],
): { label: CustomsLabel; at: string; unLocationCode: string | null }[] {
  const labels: { label: CustomsLabel; at: string; unLocationCode: string | null; time: number }[] = []
  for (const e of effectiveEvents(events)) {
    if (!isAct(e)) continue
    let label: CustomsLabel | null = null
    if (e.eventType === 'SHIPMENT' && e.documentTypeCode === 'CUS') {
      if (e.shipmentEventTypeCode === 'SUBM') label = 'declared'
      else if (e.shipmentEventTypeCode === 'HOLD') label = 'examined'
      else if (e.shipmentEventTypeCode === 'RELS') label = 'released'
    } else if (e.eventType === 'EQUIPMENT' && e.equipmentEventTypeCode === 'INSP') label = 'examined'
    if (label)
      labels.push({
        label,
        at: e.eventDateTime.toISOString(),
        unLocationCode: e.unLocationCode,
        time: e.eventDateTime.getTime(),
      })
  }
  return labels.sort((a, b) => a.time - b.time).map(({ time: _time, ...rest }) => rest)
}

/** One event's colour: a correction recorded within 24 h is a change, any other event an addition. */
export function eventMark(event: StoredEvent, now: Date): TrackingMark | null {
  const age = now.getTime() - event.eventCreatedDateTime.getTime()
  if (age < 0 || age > 48 * HOUR) return null
  if (event.correctsEvent !== null) return age <= 24 * HOUR ? 'changed24' : null
  return age <= 24 * HOUR ? 'new24' : 'new48'
}

/** A shipment's colour: cancelled first, then the strongest of its events' (a change over an addition). */
export function shipmentMark(shipment: StoredShipment, events: readonly StoredEvent[], now: Date): TrackingMark | null {
  if (shipment.cancelled) return 'cancelled'
  const marks = new Set(events.map((e) => eventMark(e, now)))
  const age = now.getTime() - shipment.createdAt.getTime()
  if (age >= 0 && age <= 24 * HOUR) marks.add('new24')
  else if (age >= 0 && age <= 48 * HOUR) marks.add('new48')
  for (const mark of ['changed24', 'new24', 'new48'] as const) if (marks.has(mark)) return mark
  return null
}

/** Midnight UTC of a day (`2026-12-10`): how a shipment stores a schedule known only to the day. */
export const dayStart = (day: string) => new Date(`${day}T00:00:00.000Z`)

/**
 * A shipment's ETD or ETA as tracking answers it. A shipment takes its schedule from its order
 * (server/domain/orders/shipment.ts), whose ETD and ETA are days (schema type `date`), stored as that
 * day's midnight UTC. While the stored value is still the order's day (no carrier estimate has moved it)
 * it is answered as that day, `YYYY-MM-DD`, so no reader is shown a time nobody gave ("12:00 AM") or,
 * west of UTC, the day before; a time a carrier's event set is answered as an ISO instant.
 */
export function scheduleTime(stored: Date | string | null, planned: string | null): string | null {
  if (stored === null) return null
  const at = new Date(stored)
  if (planned && /^\d{4}-\d{2}-\d{2}$/.test(planned) && at.getTime() === dayStart(planned).getTime()) return planned
  return at.toISOString()
}
