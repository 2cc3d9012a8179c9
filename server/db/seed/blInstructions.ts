import { type Kysely, sql } from 'kysely'
import type { ManifestEndpoint } from '../../../model/resolve.ts'
import { isoContainer } from '../../../rules/formats.ts'
import { sessionForUser } from '../../auth/accounts.ts'
import { domainRegistry } from '../../domain/index.ts'
import { createEngine } from '../../engine/core.ts'
import type { Manifest } from '../../manifest.ts'
import { withTenant } from '../../tenancy/scope.ts'
import type { DB } from '../schema.ts'
import { seededRandom } from './random.ts'
import { SEA_PORTS } from './reference/index.ts'

/**
 * B/L instructions (issue #23) for the oldest confirmed FCL orders of each tenant, submitted through the engine
 * by the customer's enterprise administrator and moved by the operator as they would be: the first waits for
 * confirmation, the second is confirmed, the third finished. The newer confirmed FCL orders are left without
 * one, for a customer to fill. Container numbers carry real owner codes of the order's carrier and a valid
 * ISO 6346 check digit; HS codes are real subheadings of the tenant customer's trade; weights and volumes
 * split the order's exactly, so the totals equal the container sums.
 */

/** Per tenant: its seed, the customer's goods (English, Chinese, HS 2022 subheading) and how many to seed. */
const PLANS = [
  {
    code: 'demo',
    seed: 20261123,
    count: 3,
    goods: [
      { en: 'COTTON T-SHIRTS, KNITTED', cn: '棉制针织T恤衫', hs: '610910' },
      { en: 'COTTON BED LINEN', cn: '棉制床上用织物制品', hs: '630231' },
      { en: "WOMEN'S COTTON TROUSERS", cn: '棉制女式长裤', hs: '620462' },
    ],
  },
  {
    code: 'acme',
    seed: 20261124,
    count: 1,
    goods: [{ en: 'BLUETOOTH HEADPHONES', cn: '蓝牙耳机', hs: '851830' }],
  },
]

/** Owner codes (ISO 6346, category U) each carrier's own containers carry. */
const OWNER_CODES: Record<string, string[]> = {
  MAEU: ['MSKU', 'MRKU', 'MAEU'],
  COSU: ['CSNU', 'CBHU', 'CCLU'],
  MSCU: ['MSCU', 'MEDU', 'MSDU'],
}
const STEPS: string[][] = [[], ['confirm'], ['confirm', 'finish']]
const pad = (n: number, width: number) => String(n).padStart(width, '0')

/** An ISO 6346 number of the owner: its serial, then the check digit rules/formats.ts accepts. */
export function containerNumber(owner: string, serial: number): string {
  const body = `${owner}${pad(serial, 6)}`
  for (let digit = 0; digit <= 9; digit++) if (isoContainer(`${body}${digit}`)) return `${body}${digit}`
  throw new Error(`seed: no check digit for ${body}`)
}

/** Splits an exact total (thousandths) into `parts` shares that sum to it exactly. */
function split(total: number, parts: number, scale: number): number[] {
  const units = Math.round(total * scale)
  const each = Math.floor(units / parts)
  return Array.from({ length: parts }, (_, i) => (i === parts - 1 ? units - each * (parts - 1) : each) / scale)
}

interface OrderRow {
  id: number
  order_no: string
  job_no: string | null
  business_ref_no: string | null
  mbl: string | null
  pol: string
  pod: string
  carrier: string
  vessel: string
  voyage: string
  shipper: string
  consignee: string
  notify_party: string | null
  boxes: number
  gross_weight: string
  volume: string
  containers: { containerType: string; quantity: number }[] | null
}

export async function seedBlInstructions(db: Kysely<DB>, manifest: Manifest): Promise<void> {
  const engine = createEngine(manifest, { registry: domainRegistry() })
  const endpoint = (path: string) => {
    const found = manifest.endpoints.find((e) => e.path === path)
    if (!found) throw new Error(`seedBlInstructions: no endpoint ${path}`)
    return found as ManifestEndpoint
  }
  const portName = (code: string) => (SEA_PORTS.find((p) => p.code === code)?.name_en ?? code).toUpperCase()
  for (const plan of PLANS) {
    const tenant = await db.selectFrom('tenant').select('id').where('code', '=', plan.code).executeTakeFirst()
    if (!tenant) continue
    const random = seededRandom(plan.seed)
    await withTenant(db, tenant.id, async (trx) => {
      const as = async (username: string) => ({
        tenantId: tenant.id,
        session: await sessionForUser(trx, tenant.id, username),
        language: 'en' as const,
      })
      const customer = await as('entadmin')
      const operator = await as('opadmin')
      const { rows: orders } = await sql<OrderRow>`
        select id, order_no, job_no, business_ref_no, mbl, pol, pod, carrier, vessel, voyage, shipper, consignee,
          notify_party, boxes, gross_weight, volume, containers
        from booking_order
        where container_load_type = 'FCL' and state in ('accepted', 'booked')
        order by id limit ${plan.count}`.execute(trx)
      for (const [i, order] of orders.entries()) {
        const goods = plan.goods[i % plan.goods.length] as (typeof plan.goods)[number]
        const count = Math.max(
          1,
          (order.containers ?? []).reduce((sum, c) => sum + c.quantity, 0),
        )
        const pieces = split(order.boxes, count, 1)
        const weights = split(Number(order.gross_weight), count, 1000)
        const volumes = split(Number(order.volume), count, 1000)
        const owner = random.pick(OWNER_CODES[order.carrier] ?? ['TGHU'])
        const containers = pieces.map((quantity, c) => ({
          containerNo: containerNumber(owner, random.int(100000, 999999)),
          sealNo: `${order.carrier.slice(0, 2)}${pad(random.int(1000000, 9999999), 7)}`,
          size: '40',
          type: 'HQ',
          quantity,
          grossWeight: weights[c],
          volume: volumes[c],
          marks: `N/M\nPO ${order.business_ref_no ?? order.order_no}`,
          description: `${quantity} CARTONS\n${goods.en}\nHS ${goods.hs}`,
        }))
        const created = (await engine.handle(trx, endpoint('/booking/blSubmission/submit'), customer, {
          order: order.id,
          blNo: order.mbl ?? `${order.carrier}${pad(265000000 + order.id * 7919, 9)}`,
          bizNo: order.job_no ?? order.order_no,
          originalCount: 3,
          copyCount: 3,
          blWay: 'general',
          shipper: order.shipper,
          consignee: order.consignee,
          notifyParty: order.notify_party ?? 'SAME AS CONSIGNEE',
          placeOfReceiptCode: order.pol,
          placeOfReceiptName: portName(order.pol),
          portOfLoadingCode: order.pol,
          portOfLoadingName: portName(order.pol),
          portOfDischargeCode: order.pod,
          portOfDischargeName: portName(order.pod),
          placeOfDeliveryCode: order.pod,
          placeOfDeliveryName: portName(order.pod),
          carrier: order.carrier,
          vessel: order.vessel,
          voyage: order.voyage,
          transportClause: 'CY-CY',
          remarks: 'FREIGHT PREPAID\nSHIPPER LOAD, COUNT AND SEAL',
          quantity: order.boxes,
          packageType: 'CT',
          grossWeight: Number(order.gross_weight),
          volume: Number(order.volume),
          containers,
          goodsNameEn: goods.en,
          goodsNameCn: goods.cn,
          hsCode: goods.hs,
          woodPackagingType: 'none',
        })) as { id: number; version: number }
        let version = created.version
        for (const transition of STEPS[i % STEPS.length] ?? []) {
          const moved = (await engine.handle(trx, endpoint('/blInstruction/transition'), operator, {
            id: created.id,
            version,
            transition,
          })) as { version: number }
          version = moved.version
        }
      }
      // The seeded confirmations are history from before the portal told anyone: the demo's letters are
      // server/db/seed/letters.ts's, so the letters and mails these transitions wrote (issue #22) go.
      await sql`delete from letter where tenant_id = ${tenant.id} and event = 'blConfirmed'`.execute(trx)
      await sql`delete from outbox where tenant_id = ${tenant.id} and payload->>'event' = 'blConfirmed'`.execute(trx)
    })
  }
}
