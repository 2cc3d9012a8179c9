/**
 * What POST /booking/public/api/tracking/query and GET /booking/tracking/history answer: the generated types
 * of their YAML `response:` (schemas/trackingAnswer.yaml and the entities it nests), under the tracking
 * page's names.
 */
import type { TrackingEventView, TrackingHistoryEntry, TrackingShipmentResult } from '../../../generated/content.ts'

export type { TrackingEventView }
export type TrackingMark = NonNullable<TrackingEventView['mark']>
export type ShipmentAnswer = TrackingShipmentResult
export type HistoryEntry = TrackingHistoryEntry
export type { FbaOrderEventView, FbaTrackResult } from '../../../generated/content.ts'
