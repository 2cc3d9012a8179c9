import { sql, type Transaction } from 'kysely'
import type { BlInstructionPrefill } from '../../../generated/content.ts'
import type { DB } from '../../db/schema.ts'
import type { EngineApi } from '../../engine/index.ts'
import type { Handlers } from '../../http/endpoints.ts'
import { ApiError } from '../../http/errors.ts'
import { sizeAndTypeOf } from '../dcsa/instruction.ts'
import { labelOf, type OrderRecord, positiveOf, rowsOf, textOf } from '../dcsa/record.ts'

/**
 * What a new B/L instruction starts with (GET /booking/blSubmission/prefill, the B/L editor's `form.prefillCall`,
 * issue #23): the instruction's fields the confirmed FCL order already knows, so the customer types only what
 * the B/L adds (its number, counts, container numbers and seals, goods names). A value the instruction's field
 * would refuse (a vessel longer than a B/L line, a package the B/L list has no code for) is left out rather than
 * cut or guessed: the customer fills it, and the editor's validators say what is missing.
 */

/** The B/L's package codes (UN/ECE Recommendation 21) of the package words orders are booked with. */
const PACKAGES: Record<string, string> = {
  CT: 'CT',
  CTN: 'CT',
  CTNS: 'CT',
  CARTON: 'CT',
  CARTONS: 'CT',
  PK: 'PK',
  PKG: 'PK',
  PKGS: 'PK',
  PACKAGE: 'PK',
  PACKAGES: 'PK',
  BG: 'BG',
  BAG: 'BG',
  BAGS: 'BG',
  DR: 'DR',
  DRUM: 'DR',
  DRUMS: 'DR',
  RO: 'RO',
  ROLL: 'RO',
  ROLLS: 'RO',
  PX: 'PX',
  PLT: 'PX',
  PLTS: 'PX',
  PALLET: 'PX',
  PALLETS: 'PX',
  CS: 'CS',
  CASE: 'CS',
  CASES: 'CS',
  CR: 'CR',
  CRATE: 'CR',
  CRATES: 'CR',
}
/** Packages that are not wood (schemas/blInstruction.yaml's wood rule): their wood packaging is none. */
const NOT_WOOD = ['CT', 'BG', 'DR', 'RO']
/** schemas/blInstruction.yaml bounds: a B/L line, the voyage, the numbers, the goods name, the rows. */
const LINE = 35
const MAX_CONTAINERS = 50
const BL_NO = /^[A-Za-z0-9-]{4,32}$/
const GOODS_NAME_EN = /^[A-Za-z0-9 ,.()/&'-]+$/
/** An HS 2022 subheading, or a national tariff code of 8 or 10 digits (China customs, US HTS) beginning with one. */
const HS_CODE = /^\d{6}(\d{2}|\d{4})?$/

const fits = (value: string, max: number) => (value && value.length <= max ? value : undefined)

/** Splits a total (thousandths) into `parts` shares that add up to it exactly. */
function split(total: number, parts: number): number[] {
  const units = Math.round(total * 1000)
  const each = Math.floor(units / parts)
  return Array.from({ length: parts }, (_, i) => (i === parts - 1 ? units - each * (parts - 1) : each) / 1000)
}

type Container = NonNullable<BlInstructionPrefill['containers']>[number]

/**
 * One row per container the order books (its lines by type and quantity), each with its ISO size and type, the
 * order's marks and goods description, and its share of the line's weight; the numbers and seals are the B/L's.
 * An order of one container gives that row the order's pieces, weight and volume.
 */
function containersOf(order: OrderRecord): Container[] {
  const marks = textOf(order.marks)
  const description = textOf(order.goodsDescription)
  const rows: Container[] = []
  for (const line of rowsOf(order.containers)) {
    const count = Math.min(Math.trunc(positiveOf(line.quantity) ?? 0), MAX_CONTAINERS - rows.length)
    if (count < 1) continue
    const kind = sizeAndTypeOf(textOf(line.containerType))
    const weight = positiveOf(line.grossWeight)
    const weights = weight === null ? [] : split(weight, count)
    for (let i = 0; i < count; i++)
      rows.push({
        ...(kind ? { size: kind.size as Container['size'], type: kind.type as Container['type'] } : {}),
        ...(weights[i] ? { grossWeight: weights[i] } : {}),
        ...(marks ? { marks } : {}),
        ...(description ? { description } : {}),
      })
  }
  const [only] = rows
  if (rows.length === 1 && only) {
    const quantity = positiveOf(order.boxes)
    const grossWeight = positiveOf(order.grossWeight)
    const volume = positiveOf(order.volume)
    Object.assign(only, {
      ...(quantity ? { quantity } : {}),
      ...(grossWeight ? { grossWeight } : {}),
      ...(volume ? { volume } : {}),
    })
  }
  return rows
}

/** A place of the B/L from a port of the order: its code, and its English name as the B/L prints it. */
function placeOf(order: OrderRecord, field: string): { code?: string; name?: string } {
  const code = textOf(order[field])
  const name = labelOf(order, field).toUpperCase()
  return { ...(code ? { code } : {}), ...(name ? { name: name.slice(0, LINE) } : {}) }
}

/**
 * The instruction's fields from the order (read through the engine, names in English): what the editor starts
 * with. `hsCode` is the order's when its subheading is on the Harmonized System list (`knownSubheading`).
 */
export function prefillOf(order: OrderRecord, knownSubheading: boolean): BlInstructionPrefill {
  const packageType = PACKAGES[textOf(order.packageType).toUpperCase()]
  const goods = textOf(order.goodsDescription).split('\n')[0]?.trim() ?? ''
  const hbl = textOf(order.hbl) || textOf(order.mbl)
  const hsCode = textOf(order.hsCode)
  const pol = placeOf(order, 'pol')
  const pod = placeOf(order, 'pod')
  const prefill: Record<string, unknown> = {
    order: order.id,
    blNo: BL_NO.test(hbl) ? hbl : undefined,
    bizNo: fits(textOf(order.businessRefNo) || textOf(order.jobNo), 32),
    blWay: 'general',
    shipper: textOf(order.shipper) || undefined,
    consignee: textOf(order.consignee) || undefined,
    notifyParty: textOf(order.notifyParty) || undefined,
    // A full-container B/L from the loading port's yard to the discharge port's: receipt and delivery are those
    // ports (CY-CY), until the customer names an inland place.
    placeOfReceiptCode: pol.code,
    placeOfReceiptName: pol.name,
    portOfLoadingCode: pol.code,
    portOfLoadingName: pol.name,
    portOfDischargeCode: pod.code,
    portOfDischargeName: pod.name,
    placeOfDeliveryCode: pod.code,
    placeOfDeliveryName: pod.name,
    carrier: textOf(order.carrier) || undefined,
    vessel: fits(textOf(order.vessel), LINE),
    voyage: fits(textOf(order.voyage), 16),
    transportClause: 'CY-CY',
    remarks: textOf(order.remarks) || undefined,
    quantity: positiveOf(order.boxes) ?? undefined,
    packageType,
    grossWeight: positiveOf(order.grossWeight) ?? undefined,
    volume: positiveOf(order.volume) ?? undefined,
    containers: containersOf(order),
    goodsNameEn: GOODS_NAME_EN.test(goods) ? fits(goods, 128) : undefined,
    hsCode: knownSubheading ? hsCode : undefined,
    woodPackagingType: packageType && NOT_WOOD.includes(packageType) ? 'none' : undefined,
  }
  return Object.fromEntries(Object.entries(prefill).filter(([, v]) => v !== undefined)) as BlInstructionPrefill
}

/** SPEC §4: the confirmed states of an order, and the load type a B/L instruction is for. */
const CONFIRMED = ['accepted', 'booked']

export function blInstructionHandlers(engine: EngineApi) {
  return {
    async blInstructionPrefill(ctx) {
      const session = ctx.request.session
      if (!session) throw new ApiError('401')
      const tenantId = ctx.request.tenant.id
      return ctx.inTenant(async (trx: Transaction<DB>) => {
        // The order as the caller's order list sees it (tenant and data scope): another answers 404.
        const order: OrderRecord = await engine.detail(
          trx,
          { entity: 'order' },
          { tenantId, session, language: 'en' },
          { id: ctx.input.order },
        )
        if (order.containerLoadType !== 'FCL' || !CONFIRMED.includes(textOf(order.state))) throw new ApiError('404')
        const hsCode = textOf(order.hsCode)
        const { rows } = HS_CODE.test(hsCode)
          ? await sql<{ code: string }>`select code from ref_hs_code where code = ${hsCode.slice(0, 6)}`.execute(trx)
          : { rows: [] }
        return prefillOf(order, rows.length > 0)
      })
    },
  } satisfies Handlers
}
