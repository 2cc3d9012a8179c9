import type { Kysely } from 'kysely'
import type { ManifestEntity } from '../../../model/resolve.ts'
import { columnsOf, toDbValue } from '../../engine/columns.ts'
import type { Manifest } from '../../manifest.ts'
import { withTenant } from '../../tenancy/scope.ts'
import type { DB } from '../schema.ts'
import { seededRandom } from './random.ts'

/**
 * What SPEC §7's order calls read besides the orders (issue #23): the charge lines of every confirmed order
 * (accepted, booked, invalidated — what the billing will bill), each tenant's special operation codes, the
 * documents and cut-offs it requires per mode, and its SOPs. Deterministic: fixed tables and a seeded
 * generator over the seeded orders in id order. Runs after seedOrders (which created the tables).
 */

type AnyDB = Kysely<Record<string, Record<string, unknown>>>
type Row = Record<string, unknown>

const CONFIRMED = ['accepted', 'booked', 'invalid']

/** The charge lines a Chinese forwarder bills a sea order: freight and surcharges in USD, local charges in CNY. */
function chargesOf(order: Row, random: ReturnType<typeof seededRandom>): Row[] {
  const lines: Row[] = []
  const add = (
    chargeCode: string,
    chargeName: string,
    category: string,
    unit: string,
    quantity: number,
    unitPrice: number,
    currency: string,
  ) =>
    lines.push({
      chargeCode,
      chargeName,
      category,
      unit,
      quantity,
      unitPrice: unitPrice.toFixed(2),
      amount: (quantity * unitPrice).toFixed(2),
      currency,
    })
  if (order.container_load_type === 'FCL') {
    const boxes = ((order.containers as { quantity: number }[] | null) ?? []).reduce((n, c) => n + c.quantity, 0) || 1
    add('OFR', 'Ocean freight', 'freight', '40HQ', boxes, random.int(1650, 2450), 'USD')
    add('BAF', 'Bunker adjustment factor', 'freight', '40HQ', boxes, random.int(180, 320), 'USD')
    add('THC', 'Terminal handling charge', 'origin', '40HQ', boxes, 1200, 'CNY')
    add('SEAL', 'Container seal', 'origin', '40HQ', boxes, 50, 'CNY')
  } else {
    const cbm = Math.max(1, Math.ceil(Number(order.volume ?? 1)))
    add('OFR', 'Ocean freight', 'freight', 'CBM', cbm, random.int(25, 45), 'USD')
    add('CFS', 'Container freight station charge', 'origin', 'CBM', cbm, 120, 'CNY')
    add('THC', 'Terminal handling charge', 'origin', 'CBM', cbm, 90, 'CNY')
  }
  add('DOC', 'Documentation fee', 'origin', 'B/L', 1, 450, 'CNY')
  if (random.int(0, 2) === 0) add('CUS', 'Customs declaration', 'origin', 'Declaration', 1, 150, 'CNY')
  return lines
}

const SPECIAL_CODES: Row[] = [
  { code: 'DG', nameEn: 'Dangerous goods (IMDG)', nameZh: '危险品（IMDG）', transportModes: [1, 2, 3] },
  { code: 'RF', nameEn: 'Reefer, temperature controlled', nameZh: '冷藏箱（控温）', transportModes: [1, 3] },
  { code: 'OOG', nameEn: 'Out of gauge cargo', nameZh: '超限货物', transportModes: [1, 3, 4] },
  { code: 'SOC', nameEn: "Shipper's own container", nameZh: '货主自有箱', transportModes: [1, 3] },
  { code: 'FLEXI', nameEn: 'Flexitank', nameZh: '液袋', transportModes: [1] },
  { code: 'FUM', nameEn: 'Fumigation required', nameZh: '需要熏蒸', transportModes: [1, 3] },
  { code: 'HV', nameEn: 'High value cargo', nameZh: '高价值货物', transportModes: [1, 2, 3, 4] },
  { code: 'TEMP', nameEn: 'Temperature band 2-8 °C', nameZh: '温控 2-8 °C', transportModes: [2], enabled: false },
]

const REQUIREMENTS: Row[] = [
  { transportMode: 1, code: 'SI', nameEn: 'Shipping instructions', nameZh: '提单补料', daysBeforeEtd: 3 },
  {
    transportMode: 1,
    containerLoadType: 'FCL',
    code: 'VGM',
    nameEn: 'Verified gross mass',
    nameZh: 'VGM 申报',
    daysBeforeEtd: 2,
  },
  {
    transportMode: 1,
    containerLoadType: 'FCL',
    code: 'CY_CUTOFF',
    nameEn: 'Container yard cut-off',
    nameZh: '截重',
    daysBeforeEtd: 2,
  },
  {
    transportMode: 1,
    containerLoadType: 'LCL',
    code: 'CFS_CUTOFF',
    nameEn: 'CFS cargo receiving cut-off',
    nameZh: '进仓截止',
    daysBeforeEtd: 4,
  },
  {
    transportMode: 1,
    code: 'CUSTOMS_DOCS',
    nameEn: 'Invoice, packing list and customs power of attorney',
    nameZh: '发票、箱单及报关委托书',
    daysBeforeEtd: 3,
  },
  {
    transportMode: 1,
    code: 'MSDS',
    nameEn: 'MSDS for dangerous goods',
    nameZh: '危险品 MSDS',
    daysBeforeEtd: 7,
    mandatory: false,
  },
  {
    transportMode: 2,
    code: 'AWB_DOCS',
    nameEn: 'Invoice and packing list for the air waybill',
    nameZh: '空运单发票与箱单',
    daysBeforeEtd: 1,
  },
  {
    transportMode: 2,
    code: 'SECURITY',
    nameEn: 'Security screening declaration',
    nameZh: '安检申报',
    daysBeforeEtd: 1,
  },
  { transportMode: 3, code: 'RAIL_CUTOFF', nameEn: 'Rail terminal cut-off', nameZh: '铁路站场截止', daysBeforeEtd: 3 },
  {
    transportMode: 4,
    code: 'PICKUP',
    nameEn: 'Pick-up address and time window',
    nameZh: '提货地址与时间',
    mandatory: true,
  },
]

const PROCEDURES: Row[] = [
  {
    transportMode: 1,
    titleEn: 'Sea freight: from booking to delivery',
    titleZh: '海运：从订舱到交货',
    stepsEn: [
      'Submit the booking with cargo details and the ETD you need',
      'We confirm space with the carrier and send the booking confirmation',
      'Send shipping instructions and VGM before the cut-offs',
      'Customs clearance at origin once the cargo is in the terminal',
      'Check the draft bill of lading and confirm it',
      'The vessel departs; track the shipment online',
      'Arrival notice, destination clearance and delivery',
    ],
    stepsZh: [
      '提交订舱，填写货物信息与所需船期',
      '我们向船公司确认舱位并发送订舱确认',
      '在截止时间前提交补料与 VGM',
      '货物进港后办理出口报关',
      '核对提单草稿并确认',
      '船舶开航，可在线跟踪货物',
      '到港通知、目的港清关与派送',
    ],
  },
  {
    transportMode: 2,
    titleEn: 'Air freight: from booking to delivery',
    titleZh: '空运：从订舱到交货',
    stepsEn: [
      'Submit the booking with pieces, weight and dimensions',
      'We confirm the flight and send the air waybill number',
      'Deliver the cargo to the airline terminal before the cut-off',
      'Security screening and export clearance',
      'The flight departs; track it online',
    ],
    stepsZh: [
      '提交订舱，填写件数、重量与尺寸',
      '我们确认航班并发送空运单号',
      '在截止前将货物送至航空货站',
      '安检与出口报关',
      '航班起飞，可在线跟踪',
    ],
  },
]

async function insertRows(trx: AnyDB, entity: ManifestEntity, manifest: Manifest, tenantId: number, records: Row[]) {
  if (!records.length) return
  const columns = columnsOf(entity, manifest.entities).filter((c) => !c.system)
  const rows = records.map((record) => {
    const values: Row = { tenant_id: tenantId }
    for (const column of columns)
      if (record[column.name] !== undefined) values[column.column] = toDbValue(column, record[column.name])
    return values
  })
  await trx.insertInto(entity.table).values(rows).execute()
}

export async function seedOrderDetails(db: Kysely<DB>, manifest: Manifest): Promise<void> {
  const entity = (name: string) => manifest.entities[name] as ManifestEntity
  const tenants = await db.selectFrom('tenant').select(['id', 'code']).orderBy('id').execute()
  for (const tenant of tenants) {
    await withTenant(db, tenant.id, async (trx) => {
      const any = trx as unknown as AnyDB
      const random = seededRandom(20261127 + tenant.id)
      const orders = (await any
        .selectFrom(entity('order').table)
        .select(['id', 'container_load_type', 'containers', 'volume', 'state'])
        .where('state', 'in', CONFIRMED)
        .orderBy('id')
        .execute()) as Row[]
      const charges = orders.flatMap((order) => chargesOf(order, random).map((line) => ({ ...line, order: order.id })))
      await insertRows(any, entity('orderCharge'), manifest, tenant.id, charges)
      await insertRows(
        any,
        entity('specialOperationCode'),
        manifest,
        tenant.id,
        SPECIAL_CODES.map((code) => ({ enabled: true, ...code })),
      )
      await insertRows(
        any,
        entity('orderRequirement'),
        manifest,
        tenant.id,
        REQUIREMENTS.map((requirement) => ({ mandatory: true, ...requirement })),
      )
      // The demo forwarder publishes its SOPs; the second tenant has written none yet.
      if (tenant.code === 'demo') await insertRows(any, entity('operatingProcedure'), manifest, tenant.id, PROCEDURES)
    })
  }
}
