import { type Kysely, sql } from 'kysely'
import { now } from '../../tenancy/clock.ts'
import type { DB } from '../schema.ts'
import { SEA_PORTS } from './reference/index.ts'

/**
 * Sailing schedules (issue #25), shaped after DCSA Operational Vessel Schedules: weekly services of real carriers
 * (SCAC) with real vessels (name and IMO number) calling real ports (UN/LOCODE) and terminals (SMDG codes) on the
 * lanes the demo rates price — China to the US West Coast and to North Europe. Shared by every tenant
 * (docs/DECISIONS.md). Deterministic: a fixed table; the weeks are anchored on the Monday of the seed's week by
 * the server's clock, two weeks back (departed, never listed) to thirteen ahead.
 */

interface Call {
  port: string
  terminal: string
  terminalName: string
  /** Days after the voyage's first arrival. */
  day: number
  /** Hours alongside. */
  stay: number
}

interface Service {
  carrier: string
  code: string
  name: string
  direction: 'E' | 'W'
  /** The first call's weekday after the week's Monday (0–6). */
  weekday: number
  vessels: [name: string, imo: string, callSign: string][]
  calls: Call[]
  /** The first voyage number of the seed's week. */
  voyage: number
}

const YANGSHAN = { port: 'CNSHA', terminal: 'SGH', terminalName: 'Yangshan Deep Water Port Phase IV' }
const NINGBO = { port: 'CNNGB', terminal: 'NBCT', terminalName: 'Ningbo Beilun Container Terminal' }
const YANTIAN = { port: 'CNYTN', terminal: 'YICT', terminalName: 'Yantian International Container Terminals' }
const SINGAPORE = { port: 'SGSIN', terminal: 'PPT', terminalName: 'Pasir Panjang Terminal' }
const ROTTERDAM = { port: 'NLRTM', terminal: 'ECTDD', terminalName: 'ECT Delta Terminal' }
const HAMBURG = { port: 'DEHAM', terminal: 'CTA', terminalName: 'HHLA Container Terminal Altenwerder' }
const LOS_ANGELES = { port: 'USLAX', terminal: 'WBCT', terminalName: 'West Basin Container Terminal' }
const LONG_BEACH = { port: 'USLGB', terminal: 'LBCT', terminalName: 'Long Beach Container Terminal' }
const OAKLAND = { port: 'USOAK', terminal: 'OICT', terminalName: 'Oakland International Container Terminal' }

export const SERVICES: Service[] = [
  {
    carrier: 'COSU',
    code: 'AAC',
    name: 'Asia America Express',
    direction: 'E',
    weekday: 0,
    vessels: [
      ['COSCO SHIPPING UNIVERSE', '9795610', 'VRSC6'],
      ['COSCO SHIPPING ARIES', '9783461', 'VRQM7'],
    ],
    calls: [
      { ...NINGBO, day: 0, stay: 20 },
      { ...YANGSHAN, day: 2, stay: 22 },
      { ...LOS_ANGELES, day: 16, stay: 60 },
      { ...OAKLAND, day: 20, stay: 30 },
    ],
    voyage: 41,
  },
  {
    carrier: 'MAEU',
    code: 'TP6',
    name: 'Transpacific 6',
    direction: 'E',
    weekday: 2,
    vessels: [
      ['MADRID MAERSK', '9778791', 'OWJD2'],
      ['MAERSK MC-KINNEY MOLLER', '9619907', 'OYGR2'],
    ],
    calls: [
      { ...YANTIAN, day: 0, stay: 20 },
      { ...YANGSHAN, day: 3, stay: 22 },
      { ...LOS_ANGELES, day: 17, stay: 72 },
    ],
    voyage: 246,
  },
  {
    carrier: 'ONEY',
    code: 'PS3',
    name: 'Pacific South 3',
    direction: 'E',
    weekday: 4,
    vessels: [['ONE APUS', '9806079', '3FTG9']],
    calls: [
      { ...YANGSHAN, day: 0, stay: 20 },
      { ...NINGBO, day: 1, stay: 18 },
      { ...LONG_BEACH, day: 14, stay: 60 },
    ],
    voyage: 52,
  },
  {
    carrier: 'OOLU',
    code: 'PCC1',
    name: 'Pacific China California 1',
    direction: 'E',
    weekday: 5,
    vessels: [['OOCL HONG KONG', '9776171', 'VRQR8']],
    calls: [
      { ...YANTIAN, day: 0, stay: 18 },
      { ...YANGSHAN, day: 3, stay: 20 },
      { ...LOS_ANGELES, day: 16, stay: 60 },
      { ...LONG_BEACH, day: 19, stay: 24 },
    ],
    voyage: 118,
  },
  {
    carrier: 'EGLV',
    code: 'CEM',
    name: 'China Europe Mediterranean',
    direction: 'W',
    weekday: 1,
    vessels: [
      ['EVER ACE', '9893890', 'H3RC'],
      ['EVER ALOT', '9935040', 'H8XU'],
      ['EVER GIVEN', '9811000', 'H3RC9'],
    ],
    calls: [
      { ...YANGSHAN, day: 0, stay: 22 },
      { ...NINGBO, day: 2, stay: 20 },
      { ...YANTIAN, day: 5, stay: 20 },
      { ...SINGAPORE, day: 9, stay: 18 },
      { ...ROTTERDAM, day: 33, stay: 48 },
      { ...HAMBURG, day: 37, stay: 40 },
    ],
    voyage: 87,
  },
  {
    carrier: 'MSCU',
    code: 'SWAN',
    name: 'Swan Service',
    direction: 'W',
    weekday: 3,
    vessels: [
      ['MSC GULSUN', '9839430', '3FHY9'],
      ['MSC IRINA', '9930038', '3FFQ6'],
    ],
    calls: [
      { ...NINGBO, day: 0, stay: 22 },
      { ...YANGSHAN, day: 2, stay: 22 },
      { ...YANTIAN, day: 5, stay: 20 },
      { ...SINGAPORE, day: 9, stay: 16 },
      { ...ROTTERDAM, day: 34, stay: 50 },
      { ...HAMBURG, day: 38, stay: 36 },
    ],
    voyage: 305,
  },
  {
    carrier: 'CMDU',
    code: 'FAL1',
    name: 'French Asia Line 1',
    direction: 'W',
    weekday: 6,
    vessels: [['CMA CGM JACQUES SAADE', '9839131', '9HA5112']],
    calls: [
      { ...YANGSHAN, day: 0, stay: 24 },
      { ...NINGBO, day: 2, stay: 20 },
      { ...SINGAPORE, day: 8, stay: 18 },
      { ...ROTTERDAM, day: 32, stay: 48 },
      { ...HAMBURG, day: 36, stay: 36 },
    ],
    voyage: 12,
  },
]

const DAY_MS = 86_400_000
const HOUR_MS = 3_600_000
/** Weeks seeded around the seed's week: two departed, thirteen ahead. */
const WEEKS = { first: -2, last: 13 }
/** The container yard closes this long before the vessel leaves a port of loading. */
const CUT_OFF_HOURS = 36

/** The Monday 00:00 UTC of the week an instant is in. */
function mondayOf(at: Date): number {
  const day = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate())
  return day - ((new Date(day).getUTCDay() + 6) % 7) * DAY_MS
}

export interface SeededCall {
  sequence: number
  port: string
  terminal: string
  terminalName: string
  eta: Date
  etd: Date
  cutOff: Date | null
}

export interface SeededVoyage {
  carrier: string
  serviceCode: string
  serviceName: string
  vesselName: string
  vesselImo: string
  vesselCallSign: string
  voyageNo: string
  universalVoyage: string
  calls: SeededCall[]
}

/** Every voyage of the seed at an instant (the server's clock by default): pure, so a test can name what it expects. */
export function seededVoyages(at: Date = now()): SeededVoyage[] {
  const monday = mondayOf(at)
  const known = new Set(SEA_PORTS.map((p) => p.code))
  const voyages: SeededVoyage[] = []
  for (const service of SERVICES) {
    for (const call of service.calls)
      if (!known.has(call.port)) throw new Error(`seed: ${call.port} is not a known port`)
    for (let week = WEEKS.first; week <= WEEKS.last; week++) {
      const index = week - WEEKS.first
      const [vesselName, vesselImo, vesselCallSign] = service.vessels[
        index % service.vessels.length
      ] as Service['vessels'][0]
      const start = monday + (week * 7 + service.weekday) * DAY_MS + 6 * HOUR_MS
      const number = service.voyage + week
      const year = new Date(start).getUTCFullYear() % 100
      const exporting = new Set(
        service.calls.filter((c) => c.port.startsWith('CN') || c.port === 'SGSIN').map((c) => c.port),
      )
      voyages.push({
        carrier: service.carrier,
        serviceCode: service.code,
        serviceName: service.name,
        vesselName,
        vesselImo,
        vesselCallSign,
        voyageNo: `${String(number).padStart(3, '0')}${service.direction}`,
        universalVoyage: `${String(year).padStart(2, '0')}${String(((number % 36) + 36) % 36).padStart(2, '0')}${service.direction}`,
        calls: service.calls.map((call, i) => {
          const eta = new Date(start + call.day * DAY_MS)
          const etd = new Date(eta.getTime() + call.stay * HOUR_MS)
          return {
            sequence: i + 1,
            port: call.port,
            terminal: call.terminal,
            terminalName: call.terminalName,
            eta,
            etd,
            cutOff: exporting.has(call.port) ? new Date(etd.getTime() - CUT_OFF_HOURS * HOUR_MS) : null,
          }
        }),
      })
    }
  }
  return voyages
}

/** Writes the shared schedules (tables of schemas/vesselVoyage.yaml and voyageCall.yaml); run once per database. */
export async function seedSchedules(db: Kysely<DB>): Promise<void> {
  const at = now()
  for (const voyage of seededVoyages(at)) {
    const { rows } = await sql<{ id: number }>`
      insert into schedule_voyage (carrier, service_code, service_name, vessel_imo, vessel_name, vessel_call_sign,
        voyage_no, universal_voyage, created_at, updated_at)
      values (${voyage.carrier}, ${voyage.serviceCode}, ${voyage.serviceName}, ${voyage.vesselImo},
        ${voyage.vesselName}, ${voyage.vesselCallSign}, ${voyage.voyageNo}, ${voyage.universalVoyage},
        ${at.toISOString()}::timestamptz, ${at.toISOString()}::timestamptz)
      returning id`.execute(db)
    const id = (rows[0] as { id: number }).id
    const values = voyage.calls.map(
      (c) =>
        sql`(${id}, ${c.sequence}, ${c.port}, ${c.terminal}, ${c.terminalName}, ${c.eta.toISOString()}::timestamptz,
          ${c.etd.toISOString()}::timestamptz, ${c.cutOff?.toISOString() ?? null}::timestamptz)`,
    )
    await sql`insert into schedule_call (voyage, sequence, port, terminal, terminal_name, eta, etd, cut_off)
      values ${sql.join(values)}`.execute(db)
  }
}
