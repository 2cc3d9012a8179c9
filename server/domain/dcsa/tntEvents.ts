/**
 * Our tracking events (schemas/trackingEvent.yaml) as DCSA Track & Trace 2.2 events: a pure mapping of one
 * stored event and what its shipment says about it, with no database. Each type carries what the standard
 * requires of it: a SHIPMENT event its document (documentID: the B/L for TRD, our booking — the order number —
 * for BKG and CBR, else the B/L or the order); a TRANSPORT event its transport call (where and on which
 * voyage); an EQUIPMENT event its container, laden or empty, and the call it happened at when there is one.
 * docs/DECISIONS.md "DCSA Track & Trace" says where our data stands in for the standard's.
 */

export interface TntEventRow {
  id: number
  eventType: 'SHIPMENT' | 'TRANSPORT' | 'EQUIPMENT'
  eventClassifierCode: 'ACT' | 'PLN' | 'EST'
  eventDateTime: Date
  eventCreatedDateTime: Date
  shipmentEventTypeCode: string | null
  documentTypeCode: string | null
  transportEventTypeCode: string | null
  equipmentEventTypeCode: string | null
  equipmentReference: string | null
  emptyIndicatorCode: string | null
  unLocationCode: string | null
  vesselName: string | null
  carrierVoyageNumber: string | null
  remark: string | null
  blNo: string | null
  hbl: string | null
  orderNo: string | null
  /** The call's id as the query filters it (./tntQuery.ts transportCallId). */
  transportCallId: string | null
  vesselImo: string | null
  sizeType: string | null
}

/**
 * An event's id as the standard's uuid: our event's id in the last group, the rest fixed (version 8,
 * "custom"), so one event keeps one id and GET /v2/events/{eventID} could find it by the number.
 */
export function eventUuid(id: number): string {
  return `00000000-0000-8000-8000-${id.toString(16).padStart(12, '0')}`
}

const compact = <T extends Record<string, unknown>>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined)) as T

/** Our references the receiver may know the shipment by: the order number as the forwarder's (FF). */
function references(row: TntEventRow) {
  return row.orderNo ? { references: [{ referenceType: 'FF', referenceValue: row.orderNo.slice(0, 100) }] } : {}
}

function documentReferences(row: TntEventRow) {
  const list = [
    ...(row.orderNo ? [{ documentReferenceType: 'BKG (Booking)', documentReferenceValue: row.orderNo }] : []),
    ...(row.blNo ? [{ documentReferenceType: 'TRD (Transport Document)', documentReferenceValue: row.blNo }] : []),
  ]
  return list.length ? { documentReferences: list } : {}
}

function transportCall(row: TntEventRow) {
  if (!row.transportCallId) return undefined
  return compact({
    transportCallID: row.transportCallId,
    carrierVoyageNumber: row.carrierVoyageNumber ?? undefined,
    exportVoyageNumber: row.carrierVoyageNumber ?? undefined,
    UNLocationCode: row.unLocationCode ?? undefined,
    // Only sea shipments are answered (the standard is the ocean carriers'; ./tntQuery.ts).
    modeOfTransport: 'VESSEL',
    ...(row.vesselImo
      ? { vessel: compact({ vesselIMONumber: row.vesselImo, vesselName: row.vesselName?.slice(0, 35) ?? undefined }) }
      : {}),
  })
}

function documentOf(row: TntEventRow): string {
  if (row.documentTypeCode === 'TRD') return row.blNo ?? row.hbl ?? row.orderNo ?? eventUuid(row.id)
  if (row.documentTypeCode === 'BKG' || row.documentTypeCode === 'CBR') return row.orderNo ?? eventUuid(row.id)
  return row.blNo ?? row.orderNo ?? eventUuid(row.id)
}

/** One stored event as the standard's event of its type. */
export function tntEvent(row: TntEventRow): Record<string, unknown> {
  const base = {
    eventID: eventUuid(row.id),
    eventCreatedDateTime: row.eventCreatedDateTime.toISOString(),
    eventType: row.eventType,
    eventClassifierCode: row.eventClassifierCode,
    eventDateTime: row.eventDateTime.toISOString(),
  }
  if (row.eventType === 'SHIPMENT') {
    return compact({
      ...base,
      shipmentEventTypeCode: row.shipmentEventTypeCode,
      documentTypeCode: row.documentTypeCode,
      documentID: documentOf(row),
      reason: row.remark ?? undefined,
      ...references(row),
    })
  }
  if (row.eventType === 'TRANSPORT') {
    return compact({
      ...base,
      transportEventTypeCode: row.transportEventTypeCode,
      changeRemark: row.remark?.slice(0, 250) ?? undefined,
      transportCall: transportCall(row),
      ...documentReferences(row),
      ...references(row),
    })
  }
  return compact({
    ...base,
    equipmentEventTypeCode: row.equipmentEventTypeCode,
    equipmentReference: row.equipmentReference,
    ISOEquipmentCode: row.sizeType?.slice(0, 4) ?? undefined,
    emptyIndicatorCode: row.emptyIndicatorCode,
    ...(row.unLocationCode ? { eventLocation: { UNLocationCode: row.unLocationCode } } : {}),
    transportCall: transportCall(row),
    ...documentReferences(row),
    ...references(row),
  })
}
