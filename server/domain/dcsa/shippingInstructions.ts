import type { FieldError } from '../../../rules/messages.ts'
import type { BlInstruction, WoodPackaging } from './instruction.ts'
import { contactOf, inIcs2Zone, isSameAsConsignee, isToOrder, linesOf, partyOf } from './parties.ts'
import type { CargoItem, DcsaShippingInstructions, UtilizedTransportEquipment, WoodDeclaration } from './types.ts'

/**
 * A B/L instruction as DCSA eBL 3.0 Shipping Instructions (`CreateShippingInstructions`, EBL 3.0.4): what
 * the shipper sends the carrier for the bill of lading. Pure: the instruction in, the document out, or the
 * fields the standard needs and the instruction lacks (`missingForShippingInstructions`), each named the way
 * the instruction's form names it so the customer knows what to fill in.
 */

const WOOD: Record<WoodPackaging, WoodDeclaration> = {
  none: 'NOT_APPLICABLE',
  notTreated: 'NOT_TREATED_AND_NOT_CERTIFIED',
  processed: 'PROCESSED',
  treated: 'TREATED_AND_CERTIFIED',
}

/** The standard's bounds on the values we send (EBL 3.0.4). */
const LIMITS = { blNo: 20, bookingNo: 35, containerNumber: 11, seal: 15, packageType: 100, placeName: 35 } as const

const required = (field: string): FieldError => ({ field, message: 'validation.required', params: {} })
const tooLong = (field: string, limit: number): FieldError => ({
  field,
  message: 'validation.maxLength',
  params: { limit },
})

/** What the instruction lacks for a valid Shipping Instructions document; empty when it can be exported. */
export function missingForShippingInstructions(instruction: BlInstruction): FieldError[] {
  const errors: FieldError[] = []
  const text = (field: keyof BlInstruction & string, limit?: number) => {
    const value = instruction[field]
    if (typeof value !== 'string' || value.trim() === '') errors.push(required(field))
    else if (limit !== undefined && value.trim().length > limit) errors.push(tooLong(field, limit))
  }
  text('blNo', LIMITS.blNo)
  text('bookingNo', LIMITS.bookingNo)
  if (!partyOf(instruction.shipper)) errors.push(required('shipper'))
  if (!linesOf(instruction.goodsNameEn).length) errors.push(required('goodsNameEn'))
  if (!/^\d{6,10}$/.test(instruction.hsCode)) errors.push(required('hsCode'))
  if (!contactOf(instruction.contact)) errors.push(required('contactName'))
  if (!instruction.containers.length) errors.push(required('containers'))
  instruction.containers.forEach((container, i) => {
    const at = (field: string) => `containers[${i}].${field}`
    if (!container.number.trim()) errors.push(required(at('number')))
    else if (container.number.trim().length > LIMITS.containerNumber)
      errors.push(tooLong(at('number'), LIMITS.containerNumber))
    if (!container.seal.trim()) errors.push(required(at('seal')))
    else if (container.seal.trim().length > LIMITS.seal) errors.push(tooLong(at('seal'), LIMITS.seal))
    if (!(container.grossWeight > 0)) errors.push(required(at('grossWeight')))
  })
  return errors
}

/** The name printed for a place: DCSA's displayed name is lines of at most 35 characters. */
function displayedName(place: { name: string; code: string } | null): string[] | undefined {
  const name = place ? (place.name || place.code).trim() : ''
  return name ? [name.slice(0, LIMITS.placeName).trim()] : undefined
}

/**
 * The document. Call `missingForShippingInstructions` first: this assumes what it checks (a B/L number,
 * a booking number, the shipper, goods, HS code, a contact and every container's number and seal).
 */
export function shippingInstructions(instruction: BlInstruction): DcsaShippingInstructions {
  const shipper = partyOf(instruction.shipper)
  const consignee = partyOf(instruction.consignee)
  const contact = contactOf(instruction.contact)
  if (!shipper || !contact) throw new Error('shippingInstructions: check missingForShippingInstructions first')
  const notifySameAsConsignee = isSameAsConsignee(instruction.notifyParty)
  const notify = notifySameAsConsignee ? null : partyOf(instruction.notifyParty)
  const packageType = instruction.packageType.trim().slice(0, LIMITS.packageType)
  const cargoItems: CargoItem[] = instruction.containers.map((container) => ({
    equipmentReference: container.number.trim(),
    cargoGrossWeight: { value: container.grossWeight, unit: 'KGM' },
    ...(container.volume > 0 ? { cargoGrossVolume: { value: container.volume, unit: 'MTQ' as const } } : {}),
    ...(container.quantity > 0 && packageType
      ? {
          outerPackaging: {
            numberOfPackages: container.quantity,
            description: packageType,
            woodDeclaration: WOOD[instruction.woodPackaging],
          },
        }
      : {}),
  }))
  const equipments: UtilizedTransportEquipment[] = instruction.containers.map((container) => {
    const marks = linesOf(container.marks)
    return {
      isShipperOwned: false,
      equipmentReference: container.number.trim(),
      seals: [{ number: container.seal.trim() }],
      ...(marks.length ? { shippingMarks: marks.slice(0, 50) } : {}),
    }
  })
  const marks = linesOf(instruction.containers.map((c) => c.marks).join('\n'))
  const description = [
    ...linesOf(instruction.goodsNameEn),
    ...instruction.containers.flatMap((c) => linesOf(c.description)),
  ].filter((line, i, all) => all.indexOf(line) === i)
  const delivery = instruction.placeOfDelivery ?? instruction.portOfDischarge
  const receiptName = displayedName(instruction.placeOfReceipt)
  const loadingName = displayedName(instruction.portOfLoading)
  const dischargeName = displayedName(instruction.portOfDischarge)
  const deliveryName = displayedName(instruction.placeOfDelivery)
  const dangerous = instruction.unNo.trim()
    ? [`UN ${instruction.unNo.trim()} CLASS ${instruction.dangerousClass.trim()}`.trim().slice(0, 35)]
    : []
  return {
    transportDocumentReference: instruction.blNo.trim(),
    transportDocumentTypeCode: 'BOL',
    isShippedOnBoardType: true,
    freightPaymentTermCode: instruction.freightTerm === 'collect' ? 'COL' : 'PRE',
    // Paper originals, counted on the instruction (SPEC §3 "original and copy counts").
    isElectronic: false,
    isToOrder: isToOrder(instruction.consignee),
    ...(instruction.originalCount > 0 ? { numberOfOriginalsWithCharges: instruction.originalCount } : {}),
    ...(instruction.copyCount > 0 ? { numberOfCopiesWithCharges: instruction.copyCount } : {}),
    ...(receiptName ? { displayedNameForPlaceOfReceipt: receiptName } : {}),
    ...(loadingName ? { displayedNameForPortOfLoad: loadingName } : {}),
    ...(dischargeName ? { displayedNameForPortOfDischarge: dischargeName } : {}),
    ...(deliveryName ? { displayedNameForPlaceOfDelivery: deliveryName } : {}),
    ...(instruction.carrier.trim()
      ? { carrierCode: instruction.carrier.trim().slice(0, 4), carrierCodeListProvider: 'NMFTA' as const }
      : {}),
    partyContactDetails: [contact],
    documentParties: {
      shipper,
      ...(consignee ? { consignee: notifySameAsConsignee ? { ...consignee, isNotifyParty: true } : consignee } : {}),
      ...(notify ? { notifyParties: [notify] } : {}),
    },
    isCargoDeliveredInICS2Zone: inIcs2Zone(delivery.code),
    consignmentItems: [
      {
        carrierBookingReference: instruction.bookingNo.trim(),
        descriptionOfGoods: [...description, ...dangerous].map((line) => line.slice(0, 35).trim()).slice(0, 150),
        HSCodes: [instruction.hsCode],
        ...(marks.length ? { shippingMarks: marks.slice(0, 50) } : {}),
        cargoItems,
      },
    ],
    utilizedTransportEquipments: equipments,
    ...(instruction.bizNo.trim() ? { references: [{ type: 'CR', value: instruction.bizNo.trim().slice(0, 35) }] } : {}),
    isHouseBillOfLadingsIssued: instruction.blWay === 'split',
  }
}
