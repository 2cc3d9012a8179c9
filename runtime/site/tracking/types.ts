import type { TrackingNumberKind } from '../../../rules/trackingNumbers.ts'

/** The content of POST /booking/public/api/tracking/query (server/domain/tracking/lookup.ts). */
export type TrackingMark = 'new24' | 'new48' | 'changed24' | 'cancelled'

export interface TrackingEventView {
  id?: number
  eventType: 'SHIPMENT' | 'TRANSPORT' | 'EQUIPMENT'
  eventClassifierCode: 'ACT' | 'PLN' | 'EST'
  eventDateTime: string
  eventCreatedDateTime: string
  shipmentEventTypeCode: string | null
  documentTypeCode: string | null
  transportEventTypeCode: string | null
  equipmentEventTypeCode: string | null
  equipmentReference: string | null
  emptyIndicatorCode: string | null
  unLocationCode: string | null
  locationName: string | null
  vesselName: string | null
  carrierVoyageNumber: string | null
  corrected: boolean
  correction: boolean
  mark: TrackingMark | null
  remark?: string | null
}

export interface ShipmentView {
  transportMode: 1 | 2
  carrier: string | null
  carrierName: string | null
  vessel: string | null
  voyage: string | null
  pol: string
  polName: string | null
  pod: string
  podName: string | null
  originAirport: string | null
  originAirportName: string | null
  destinationAirport: string | null
  destinationAirportName: string | null
  /** An ISO instant, or `YYYY-MM-DD` while the schedule is still the order's day (no time is known). */
  etd: string | null
  eta: string | null
  atd: string | null
  ata: string | null
  cancelled: boolean
  orderNo?: string | null
  blNo?: string | null
  hbl?: string | null
  mawb?: string | null
  containers?: { containerNo: string; sizeType?: string; sizeTypeName?: string | null; sealNo?: string }[]
  customerCompanyName?: string | null
}

export interface ShipmentAnswer {
  view: 'public' | 'full'
  status: 'booking' | 'underWay' | 'arrived' | 'cancelled'
  mark: TrackingMark | null
  shipment: ShipmentView
  steps: { step: 'booking' | 'billOfLading' | 'departure' | 'arrival'; done: boolean; at: string | null }[]
  customs: { label: 'declared' | 'examined' | 'released'; at: string; unLocationCode: string | null }[]
  events: TrackingEventView[]
}

export interface NumberAnswer {
  number: string
  kind: TrackingNumberKind
  found: boolean
  shipments: ShipmentAnswer[]
}

export interface TrackingAnswer {
  results: NumberAnswer[]
  allowance: { limit: number | null; remaining: number | null }
}

export interface HistoryEntry {
  numbers: string[]
  at: string
}
