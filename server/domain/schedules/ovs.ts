/**
 * Voyages as DCSA Operational Vessel Schedules 3.0.2 (`GET /v3/service-schedules`, ServiceSchedule): pure, from
 * the rows of schedule_voyage and schedule_call. Vessel-centric as the standard is — services, their vessels, each
 * vessel's port calls with planned (PLN) arrival and departure — one vessel schedule per vessel of a service, its
 * calls of every voyage answered in time order.
 */

export interface VoyageRow {
  id: number
  carrier: string
  serviceCode: string
  serviceName: string
  vesselImo: string
  vesselName: string
  vesselCallSign: string | null
  voyageNo: string
  universalVoyage: string | null
}

export interface CallRow {
  voyage: number
  sequence: number
  port: string
  portName: string | null
  eta: Date
  etd: Date
}

/** SMDG liner codes of the carriers the schedules hold (SCAC → SMDG), as OVS names a vessel's operator. */
const SMDG_LINER: Record<string, string> = {
  MAEU: 'MSK',
  MSCU: 'MSC',
  CMDU: 'CMA',
  COSU: 'COS',
  HLCU: 'HLC',
  ONEY: 'ONE',
  EGLV: 'EMC',
  YMLU: 'YML',
  HDMU: 'HMM',
  ZIMU: 'ZIM',
  OOLU: 'OOL',
}

export const smdgLinerCode = (scac: string): string => SMDG_LINER[scac] ?? scac.slice(0, 3)

const timestamp = (eventTypeCode: 'ARRI' | 'DEPA', at: Date) => ({
  eventTypeCode,
  eventClassifierCode: 'PLN',
  eventDateTime: at.toISOString(),
})

function transportCall(voyage: VoyageRow, call: CallRow) {
  const port = { UNLocationCode: call.port, ...(call.portName ? { locationName: call.portName } : {}) }
  return {
    transportCallReference: `${voyage.carrier}-${voyage.vesselImo}-${voyage.voyageNo}-${call.sequence}`,
    carrierImportVoyageNumber: voyage.voyageNo,
    carrierExportVoyageNumber: voyage.voyageNo,
    ...(voyage.universalVoyage
      ? {
          universalImportVoyageReference: voyage.universalVoyage,
          universalExportVoyageReference: voyage.universalVoyage,
        }
      : {}),
    // The port by its UN/LOCODE. Not the terminal (FACS): OVS 3.0.2 picks a location's kind by a discriminator
    // its schemas do not repeat as a constant, so a facility also matches UNLocationLocation and fails the
    // published definition's oneOf as a JSON Schema validator reads it (docs/DECISIONS.md).
    location: { locationType: 'UNLO', ...port },
    timestamps: [timestamp('ARRI', call.eta), timestamp('DEPA', call.etd)],
  }
}

/** The ServiceSchedule array: services in code order, vessels by IMO number, calls by arrival. */
export function serviceSchedules(voyages: VoyageRow[], calls: CallRow[]): unknown[] {
  const callsOf = new Map<number, CallRow[]>()
  for (const call of calls) callsOf.set(call.voyage, [...(callsOf.get(call.voyage) ?? []), call])
  const services = new Map<string, { head: VoyageRow; vessels: Map<string, VoyageRow[]> }>()
  for (const voyage of voyages) {
    const key = `${voyage.carrier} ${voyage.serviceCode}`
    const service = services.get(key) ?? { head: voyage, vessels: new Map() }
    service.vessels.set(voyage.vesselImo, [...(service.vessels.get(voyage.vesselImo) ?? []), voyage])
    services.set(key, service)
  }
  return [...services.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([, { head, vessels }]) => ({
      carrierServiceName: head.serviceName,
      carrierServiceCode: head.serviceCode,
      vesselSchedules: [...vessels.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([imo, trips]) => {
          const vessel = trips[0] as VoyageRow
          return {
            vesselOperatorSMDGLinerCode: smdgLinerCode(vessel.carrier),
            vesselIMONumber: imo,
            vesselName: vessel.vesselName,
            ...(vessel.vesselCallSign ? { vesselCallSign: vessel.vesselCallSign } : {}),
            isDummyVessel: false,
            transportCalls: trips
              .flatMap((trip) => (callsOf.get(trip.id) ?? []).map((call) => ({ trip, call })))
              .sort((a, b) => a.call.eta.getTime() - b.call.eta.getTime())
              .map(({ trip, call }) => transportCall(trip, call)),
          }
        }),
    }))
}
