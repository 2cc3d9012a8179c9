import type { Kysely } from 'kysely'
import { sessionForUser } from '../../auth/accounts.ts'
import { domainRegistry } from '../../domain/index.ts'
import { createEngineApi } from '../../engine/index.ts'
import type { Manifest } from '../../manifest.ts'
import { withTenant } from '../../tenancy/scope.ts'
import type { DB } from '../schema.ts'

/**
 * The air desk's unit load devices (issue #23, /uldStatus): Air China, China Eastern and China Southern
 * ULDs out of Shanghai Pudong to Los Angeles and Frankfurt, in every state from planned to broken down,
 * written by the operator through the engine (the create and transitions of the screen), so audit and
 * state are the API's own. Deterministic: fixed numbers and flight dates. The demo data has no air
 * orders yet, so the ULDs name their master air waybills only (the order link is optional).
 */

interface SeedUld {
  uldNo: string
  uldType: string
  /** Airline prefix and 7-digit serial; the check digit (serial mod 7) is added. */
  awb: [string, number]
  pieces: number
  weight: number
  flightNo: string
  flightDate: string
  origin: string
  destination: string
  /** Transitions fired after the create, in order. */
  steps: number
  remarks?: string
}

const STEPS = ['buildUp', 'load', 'depart', 'arrive', 'breakDown'] as const

const DEMO: SeedUld[] = [
  {
    uldNo: 'PMC31845CA',
    uldType: 'PMC',
    awb: ['999', 3218450],
    pieces: 126,
    weight: 3820.5,
    flightNo: 'CA1043',
    flightDate: '2026-02-24',
    origin: 'PVG',
    destination: 'FRA',
    steps: 5,
  },
  {
    uldNo: 'AKE12345CA',
    uldType: 'AKE',
    awb: ['999', 3218450],
    pieces: 48,
    weight: 612.5,
    flightNo: 'CA1043',
    flightDate: '2026-02-24',
    origin: 'PVG',
    destination: 'FRA',
    steps: 5,
  },
  {
    uldNo: 'PAG20417MU',
    uldType: 'PAG',
    awb: ['781', 4410236],
    pieces: 88,
    weight: 2155,
    flightNo: 'MU583',
    flightDate: '2026-02-28',
    origin: 'PVG',
    destination: 'LAX',
    steps: 4,
    remarks: 'Breakdown at LAX cargo terminal 2',
  },
  {
    uldNo: 'AKE70322MU',
    uldType: 'AKE',
    awb: ['781', 4410236],
    pieces: 36,
    weight: 498.25,
    flightNo: 'MU583',
    flightDate: '2026-02-28',
    origin: 'PVG',
    destination: 'LAX',
    steps: 3,
  },
  {
    uldNo: 'PMC58210CZ',
    uldType: 'PMC',
    awb: ['784', 2087713],
    pieces: 140,
    weight: 4310.75,
    flightNo: 'CZ451',
    flightDate: '2026-03-02',
    origin: 'PVG',
    destination: 'FRA',
    steps: 2,
  },
  {
    uldNo: 'AKH06631CZ',
    uldType: 'AKH',
    awb: ['784', 2087713],
    pieces: 24,
    weight: 356,
    flightNo: 'CZ451',
    flightDate: '2026-03-02',
    origin: 'PVG',
    destination: 'FRA',
    steps: 1,
  },
  {
    uldNo: 'RKN11208MU',
    uldType: 'RKN',
    awb: ['781', 4410540],
    pieces: 12,
    weight: 286.4,
    flightNo: 'MU219',
    flightDate: '2026-03-04',
    origin: 'PVG',
    destination: 'FRA',
    steps: 0,
    remarks: 'Pharma, 2–8 °C',
  },
  {
    uldNo: 'PMC47760CA',
    uldType: 'PMC',
    awb: ['999', 3219114],
    pieces: 96,
    weight: 2890,
    flightNo: 'CA987',
    flightDate: '2026-03-05',
    origin: 'PVG',
    destination: 'LAX',
    steps: 0,
  },
]

const ACME: SeedUld[] = [
  {
    uldNo: 'AKE99001CA',
    uldType: 'AKE',
    awb: ['999', 5500012],
    pieces: 40,
    weight: 540,
    flightNo: 'CA987',
    flightDate: '2026-03-05',
    origin: 'PVG',
    destination: 'LAX',
    steps: 1,
  },
]

export const awbNumber = ([prefix, serial]: [string, number]) =>
  `${prefix}-${String(serial).padStart(7, '0')}${serial % 7}`

export async function seedUlds(db: Kysely<DB>, manifest: Manifest): Promise<void> {
  const engine = createEngineApi(manifest, { registry: domainRegistry() })
  for (const [code, ulds] of [
    ['demo', DEMO],
    ['acme', ACME],
  ] as const) {
    const tenant = await db.selectFrom('tenant').select('id').where('code', '=', code).executeTakeFirst()
    if (!tenant) continue
    await withTenant(db, tenant.id, async (trx) => {
      const operator = {
        tenantId: tenant.id,
        session: await sessionForUser(trx, tenant.id, 'opadmin'),
        language: 'en' as const,
      }
      for (const { awb, steps, ...uld } of ulds) {
        let row = await engine.create(trx, 'POST /booking/air/uld/add', operator, { ...uld, awbNo: awbNumber(awb) })
        for (const transition of STEPS.slice(0, steps))
          row = await engine.transition(trx, 'uld.transition', operator, {
            id: row.id,
            version: row.version,
            transition,
          })
      }
    })
  }
}
