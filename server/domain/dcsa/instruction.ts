import { labelOf, type OrderRecord, positiveOf, rowsOf, textOf } from './record.ts'

/**
 * A bill-of-lading instruction as SPEC §3 "Booking / bill of lading" names its fields: what the customer
 * submits for the B/L and what the DCSA eBL export and the draft B/L PDF are made from. Both are pure
 * functions of this type, so they do not change when the order's storage does; `instructionOf` is the one
 * place that reads an order and its B/L instruction into it.
 */

/** A place of the B/L: its UN/LOCODE and the name printed on the document. */
export interface BlPlace {
  code: string
  name: string
}

/** SPEC §3 "containers (number, seal, size, type, quantity, gross weight, volume, marks, description)". */
export interface BlContainer {
  /** ISO 6346 container number, e.g. MSKU9070323 (empty while the container is not yet known). */
  number: string
  seal: string
  /** ISO 6346 size-type code (size and type together: 45G1 is 40' high cube), as the containerType list holds it. */
  sizeType: string
  /** Number of packages in the container. */
  quantity: number
  /** Gross weight in kilograms. */
  grossWeight: number
  /** Volume in cubic metres. */
  volume: number
  marks: string
  description: string
}

/** Wood packaging of the goods (SPEC §3 "wood packaging type"), as DCSA's wood declaration names them. */
export type WoodPackaging = 'none' | 'notTreated' | 'processed' | 'treated'

export interface BlInstruction {
  vessel: string
  voyage: string
  blNo: string
  /** The business reference number (the customer's). */
  bizNo: string
  /** The carrier's booking number the B/L is issued under. */
  bookingNo: string
  originalCount: number
  copyCount: number
  /** General: one B/L; split: house B/Ls under one master. */
  blWay: 'general' | 'split'
  /** 35 × 7 text blocks: the party's name on the first line, its address after. */
  shipper: string
  consignee: string
  notifyParty: string
  placeOfReceipt: BlPlace | null
  portOfLoading: BlPlace
  portOfDischarge: BlPlace
  placeOfDelivery: BlPlace | null
  /** SCAC of the carrier, and its name. */
  carrier: string
  carrierName: string
  /** Terms of the carriage, e.g. CY-CY or CY-DOOR. */
  transportClause: string
  /** Freight prepaid or collect (read from the trade term where the instruction does not say). */
  freightTerm: 'prepaid' | 'collect'
  remarks: string
  etd: string | null
  packageType: string
  containers: BlContainer[]
  goodsNameEn: string
  goodsNameCn: string
  hsCode: string
  woodPackaging: WoodPackaging
  /** IMDG class (e.g. 3, 6.1) when the goods are dangerous; UN number with it. */
  dangerousClass: string
  unNo: string
  contact: { name: string; phone: string; email: string }
}

const text = textOf
const number = (value: unknown): number => positiveOf(value) ?? 0

/** Who pays the ocean freight under an Incoterm: the seller under the C and D terms, the buyer under E and F. */
export function freightTermOf(tradeTerm: string): 'prepaid' | 'collect' {
  return ['EXW', 'FCA', 'FAS', 'FOB'].includes(tradeTerm) ? 'collect' : 'prepaid'
}

/** ISO 6346 size-type codes of the instruction's container size and type (SPEC §3 "size, type"). */
const SIZE_TYPES: Record<string, string> = {
  '20GP': '22G1',
  '20HQ': '25G1',
  '20RF': '22R1',
  '20OT': '22U1',
  '20FR': '22P1',
  '20TK': '22T1',
  '40GP': '42G1',
  '40HQ': '45G1',
  '40RF': '45R1',
  '40OT': '42U1',
  '40FR': '42P1',
  '40TK': '42T1',
  '45GP': 'L2G1',
  '45HQ': 'L5G1',
  '45RF': 'L5R1',
  '45OT': 'L2U1',
  '45FR': 'L2P1',
  '45TK': 'L2T1',
}

/** The ISO size-type of a container row: `20` and `GP` read as 22G1; an unknown pair prints as given. */
export function sizeTypeOf(size: string, type: string): string {
  return SIZE_TYPES[`${size}${type}`] ?? `${size}${type}`
}

/** The instruction's container size and type of an ISO size-type code (45G1 is 40' HQ), or null for another code. */
export function sizeAndTypeOf(sizeType: string): { size: string; type: string } | null {
  const pair = Object.entries(SIZE_TYPES).find(([, code]) => code === sizeType)?.[0]
  return pair ? { size: pair.slice(0, 2), type: pair.slice(2) } : null
}

const WOOD: Record<string, WoodPackaging> = { none: 'none', treated: 'treated', processed: 'processed' }

/**
 * The instruction the documents are made from: the order's B/L instruction (schemas/blInstruction.yaml, read
 * through the engine by the handlers) field by field under SPEC §3's names, and the order where the
 * instruction has no such field (booking number, ETD, contact, freight term from the trade term) or where the
 * order has no instruction yet — then the fields only the instruction holds read as empty, and the Shipping
 * Instructions export refuses the order naming them (`missingForShippingInstructions`).
 */
export function instructionOf(
  order: OrderRecord,
  bl: OrderRecord | null = null,
  submitter: BlInstruction['contact'] | null = null,
): BlInstruction {
  const fromOrder = instructionFromOrder(order)
  if (!bl) return fromOrder
  const { contact } = fromOrder
  const reachable = (c: BlInstruction['contact']) => !!c.name && !!(c.phone || c.email)
  const place = (prefix: string, fallback: BlPlace | null): BlPlace | null => {
    const code = text(bl[`${prefix}Code`])
    const name = text(bl[`${prefix}Name`]) || labelOf(bl, `${prefix}Code`)
    return code || name ? { code, name } : fallback
  }
  const blNo = text(bl.blNo)
  return {
    ...fromOrder,
    vessel: text(bl.vessel) || fromOrder.vessel,
    voyage: text(bl.voyage) || fromOrder.voyage,
    blNo,
    bizNo: text(bl.bizNo) || fromOrder.bizNo,
    // The instruction has no booking number: the order's master B/L, else the B/L number it is issued under.
    bookingNo: fromOrder.bookingNo || blNo,
    originalCount: number(bl.originalCount),
    copyCount: number(bl.copyCount),
    blWay: bl.blWay === 'splitHbl' ? 'split' : 'general',
    shipper: text(bl.shipper) || fromOrder.shipper,
    consignee: text(bl.consignee) || fromOrder.consignee,
    notifyParty: text(bl.notifyParty) || fromOrder.notifyParty,
    placeOfReceipt: place('placeOfReceipt', fromOrder.placeOfReceipt),
    portOfLoading: place('portOfLoading', fromOrder.portOfLoading) ?? fromOrder.portOfLoading,
    portOfDischarge: place('portOfDischarge', fromOrder.portOfDischarge) ?? fromOrder.portOfDischarge,
    placeOfDelivery: place('placeOfDelivery', fromOrder.placeOfDelivery),
    carrier: text(bl.carrier) || fromOrder.carrier,
    carrierName: labelOf(bl, 'carrier') || fromOrder.carrierName,
    transportClause: text(bl.transportClause) || fromOrder.transportClause,
    remarks: text(bl.remarks) || fromOrder.remarks,
    packageType: text(bl.packageType) || fromOrder.packageType,
    containers: rowsOf(bl.containers).map((item) => ({
      number: text(item.containerNo),
      seal: text(item.sealNo),
      sizeType: sizeTypeOf(text(item.size), text(item.type)),
      quantity: number(item.quantity),
      grossWeight: number(item.grossWeight),
      volume: number(item.volume),
      marks: text(item.marks),
      description: text(item.description),
    })),
    goodsNameEn: text(bl.goodsNameEn) || fromOrder.goodsNameEn,
    goodsNameCn: text(bl.goodsNameCn),
    hsCode: text(bl.hsCode) || fromOrder.hsCode,
    woodPackaging: WOOD[text(bl.woodPackagingType)] ?? fromOrder.woodPackaging,
    dangerousClass: text(bl.dgClass),
    unNo: text(bl.unNo),
    // The order's contact; without one (it is optional on the order), the user who submitted the instruction.
    contact: reachable(contact) || !submitter ? contact : submitter,
  }
}

/**
 * The order alone read as an instruction: the fields SPEC §3 gives only the B/L instruction (blNo from the
 * house or master B/L number excepted) read as empty.
 */
function instructionFromOrder(order: OrderRecord): BlInstruction {
  const place = (field: string): BlPlace => ({ code: text(order[field]), name: labelOf(order, field) })
  const description = text(order.goodsDescription)
  return {
    vessel: text(order.vessel),
    voyage: text(order.voyage),
    // Without an instruction: the house B/L the forwarder issues, else the master.
    blNo: text(order.hbl) || text(order.mbl),
    bizNo: text(order.businessRefNo),
    // Carriers such as Maersk and COSCO issue the master B/L under the booking number.
    bookingNo: text(order.mbl),
    // Not asked for yet: 0 prints nothing and sends no count.
    originalCount: 0,
    copyCount: 0,
    blWay: 'general',
    shipper: text(order.shipper),
    consignee: text(order.consignee),
    notifyParty: text(order.notifyParty),
    placeOfReceipt: null,
    portOfLoading: place('pol'),
    portOfDischarge: place('pod'),
    placeOfDelivery: null,
    carrier: text(order.carrier),
    carrierName: labelOf(order, 'carrier'),
    transportClause: order.containerLoadType === 'LCL' ? 'CFS-CFS' : 'CY-CY',
    freightTerm: freightTermOf(text(order.tradeTerm)),
    remarks: text(order.remarks),
    etd: text(order.etd) || null,
    packageType: text(order.packageType),
    // One row per container line (type and count) today: the containers themselves are not yet known.
    containers: rowsOf(order.containers).map((item) => ({
      number: '',
      seal: '',
      sizeType: text(item.containerType),
      quantity: 0,
      grossWeight: number(item.grossWeight),
      volume: 0,
      marks: '',
      description: '',
    })),
    goodsNameEn: description,
    goodsNameCn: '',
    hsCode: text(order.hsCode),
    woodPackaging: 'none',
    dangerousClass: '',
    unNo: '',
    contact: {
      name: text(order.contactName),
      phone: text(order.contactPhone),
      email: text(order.contactEmail),
    },
  }
}
