import { labelOf, type OrderRecord, positiveOf, rowsOf, textOf } from './record.ts'

/**
 * A bill-of-lading instruction as SPEC §3 "Booking / bill of lading" names its fields: what the customer
 * submits for the B/L and what the DCSA eBL export and the draft B/L PDF are made from. Both are pure
 * functions of this type, so they do not change when the order's storage does; `instructionFromOrder` is the
 * one place that reads an order into it.
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

/**
 * LEAD: the adapter from an order to the instruction. Today the order holds about half of SPEC §3's B/L
 * fields (issue #23); the others read as empty, so the export refuses the order and names them
 * (`missingForShippingInstructions`). When the B/L instruction fields land (helper h4's branch), fill them
 * here — blNo, bizNo, original and copy counts, blWay, the four places with codes and names, transport
 * clause, container number / seal / volume / marks / description, the goods names, wood packaging, dangerous
 * class and UN number. Both exports and the PDF read only this type; if the instruction is stored as an entity
 * of its own beside the order, its handlers (server/domain/dcsa/handlers.ts `orderOf`) read it too and pass it here.
 */
export function instructionFromOrder(order: OrderRecord): BlInstruction {
  const place = (field: string): BlPlace => ({ code: text(order[field]), name: labelOf(order, field) })
  const description = text(order.goodsDescription)
  return {
    vessel: text(order.vessel),
    voyage: text(order.voyage),
    // Until the B/L number has its own field: the house B/L the forwarder issues, else the master.
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
