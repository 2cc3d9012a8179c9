import type { FieldError } from '../../../rules/messages.ts'
import { freightTermOf } from './instruction.ts'
import { contactOf, linesOf, partyOf } from './parties.ts'
import { type OrderRecord, positiveOf, rowsOf, textOf } from './record.ts'
import type { BookingLocation, DcsaCreateBooking, Party, ReceiptDeliveryType, RequestedEquipment } from './types.ts'

/**
 * A booking order as a DCSA Booking 2.0 booking request (`CreateBooking`, BKG 2.0.5): what the forwarder
 * (the booking agent) sends the carrier for the customer's order. Pure: the order as the engine answers it
 * (schemas/order.yaml) in, the document out.
 *
 * DCSA Booking covers ocean container bookings: it requires the requested equipment (container size-type and
 * count). A sea FCL order carries its containers; an LCL order or an air, rail or truck order has none to
 * request, and is refused with that reason rather than sent with equipment nobody asked for.
 */

/**
 * Who places the booking: the booking agent the order names (schemas/bookingAgent.yaml, while the tenant's
 * hasBookingAgent is on), else the forwarder itself (the tenant's company name).
 */
export interface BookingAgent {
  /** At most 70 characters as DCSA's partyName. */
  name: string
  /** The agent's code with the carrier (a SCAC or the carrier's party code): an identifying code, list ZZZ. */
  partyCode?: string
  contact?: { name: string; phone: string; email: string }
}

/** The booking agent as a DCSA party: its name, its mutually defined party code and its contact. */
export function agentPartyOf(agent: BookingAgent): Party {
  const partyCode = agent.partyCode?.trim() ?? ''
  const contact = agent.contact ? contactOf(agent.contact) : null
  return {
    partyName: agent.name.trim().slice(0, 70).trim(),
    ...(partyCode ? { identifyingCodes: [{ codeListProvider: 'ZZZ', partyCode }] } : {}),
    ...(contact ? { partyContactDetails: [contact] } : {}),
  }
}

const text = textOf
const positive = positiveOf

interface ContainerLine {
  containerType: string
  quantity: number
  grossWeight: number | null
}

function containerLines(order: OrderRecord): ContainerLine[] {
  return rowsOf(order.containers).flatMap((line) => {
    const quantity = positive(line.quantity)
    const containerType = text(line.containerType)
    return quantity !== null && Number.isInteger(quantity) && containerType
      ? [{ containerType, quantity, grossWeight: positive(line.grossWeight) }]
      : []
  })
}

/** Why the order cannot be a DCSA booking request; empty when it can. */
export function missingForBooking(order: OrderRecord): FieldError[] {
  const errors: FieldError[] = []
  if (order.transportMode !== 1 || order.containerLoadType !== 'FCL' || !containerLines(order).length)
    errors.push({ field: 'containers', message: 'rule.dcsaBookingContainers', params: {} })
  if (!partyOf(text(order.shipper))) errors.push({ field: 'shipper', message: 'validation.required', params: {} })
  return errors
}

/**
 * The order's service term (CY-DOOR…, a sea freight term the tenant may ask for) says where the carrier takes
 * and leaves the container: DOOR is SD (store door), CY and CFS the yard. Without one: SD when the forwarder
 * picks up or delivers (the order's services), else CY.
 */
function receiptDelivery(order: OrderRecord, service: 'pickUp' | 'delivery'): ReceiptDeliveryType {
  const term = text(order.serviceTerm).split('-')
  const end = service === 'pickUp' ? term[0] : term[1]
  if (term.length === 2 && end) return end === 'DOOR' ? 'SD' : 'CY'
  return Array.isArray(order.services) && order.services.includes(service) ? 'SD' : 'CY'
}

/** PRE or COL: the order's freight payment (a sea freight term) when it has one, else what its Incoterm implies. */
function freightPaymentOf(order: OrderRecord, tradeTerm: string): 'PRE' | 'COL' {
  const chosen = text(order.freightPayment)
  if (chosen) return chosen === 'COLLECT' ? 'COL' : 'PRE'
  return freightTermOf(tradeTerm) === 'collect' ? 'COL' : 'PRE'
}

const fits = (value: string, limit: number) => value !== '' && value.length <= limit

/** The document. Call `missingForBooking` first: this assumes an FCL sea order with containers and a shipper. */
export function dcsaBooking(order: OrderRecord, agent: BookingAgent): DcsaCreateBooking {
  const shipper = partyOf(text(order.shipper))
  const consignee = partyOf(text(order.consignee))
  if (!shipper) throw new Error('dcsaBooking: check missingForBooking first')
  const lines = containerLines(order)
  const units = lines.reduce((sum, line) => sum + line.quantity, 0)
  const goods = linesOf(text(order.goodsDescription))
  const hsCode = text(order.hsCode)
  const packageType = text(order.packageType)
  const boxes = positive(order.boxes)
  const grossWeight = positive(order.grossWeight)
  const volume = positive(order.volume)
  const requestedEquipments: RequestedEquipment[] = lines.map((line) => {
    // The order's cargo totals are for all its containers; each line carries its share by container count.
    const share = line.quantity / units
    const lineWeight = line.grossWeight ?? (grossWeight !== null ? round3(grossWeight * share) : null)
    return {
      ISOEquipmentCode: line.containerType,
      units: line.quantity,
      isShipperOwned: false,
      ...(lineWeight !== null ? { cargoGrossWeight: { value: lineWeight, unit: 'KGM' as const } } : {}),
      commodities: [
        {
          commodityType: (goods.join(' ') || 'GENERAL CARGO').slice(0, 550).trim(),
          ...(/^\d{6,10}$/.test(hsCode) ? { HSCodes: [hsCode] } : {}),
          ...(lineWeight !== null ? { cargoGrossWeight: { value: lineWeight, unit: 'KGM' as const } } : {}),
          ...(volume !== null ? { cargoGrossVolume: { value: round3(volume * share), unit: 'MTQ' as const } } : {}),
          ...(boxes !== null && packageType && lines.length === 1
            ? { outerPackaging: { numberOfPackages: boxes, description: packageType.slice(0, 100) } }
            : {}),
        },
      ],
    }
  })
  const locations: BookingLocation[] = [
    { location: { UNLocationCode: text(order.pol) }, locationTypeCode: 'POL' },
    { location: { UNLocationCode: text(order.pod) }, locationTypeCode: 'POD' },
  ]
  const contact = contactOf({
    name: text(order.contactName),
    phone: text(order.contactPhone),
    email: text(order.contactEmail),
  })
  const orderNo = text(order.orderNo)
  const reference = text(order.businessRefNo)
  const carrier = text(order.carrier)
  const vessel = text(order.vessel)
  const voyage = text(order.voyage)
  const tradeTerm = text(order.tradeTerm)
  const agentParty = agentPartyOf(agent)
  return {
    receiptTypeAtOrigin: receiptDelivery(order, 'pickUp'),
    deliveryTypeAtDestination: receiptDelivery(order, 'delivery'),
    cargoMovementTypeAtOrigin: 'FCL',
    cargoMovementTypeAtDestination: 'FCL',
    isEquipmentSubstitutionAllowed: false,
    ...(fits(orderNo, 20) ? { bookingChannelReference: orderNo } : {}),
    ...(fits(carrier, 4) ? { carrierCode: carrier, carrierCodeListProvider: 'NMFTA' as const } : {}),
    ...(fits(vessel, 50) ? { vessel: { name: vessel } } : {}),
    ...(fits(voyage, 50) ? { carrierExportVoyageNumber: voyage } : {}),
    ...(text(order.etd) ? { expectedDepartureDate: text(order.etd) } : {}),
    ...(tradeTerm
      ? {
          incoTerms: tradeTerm,
          freightPaymentTermCode: freightPaymentOf(order, tradeTerm),
        }
      : text(order.freightPayment)
        ? { freightPaymentTermCode: freightPaymentOf(order, tradeTerm) }
        : {}),
    ...(fits(reference, 35) ? { references: [{ type: 'CR', value: reference }] } : {}),
    documentParties: {
      bookingAgent: agentParty,
      shipper,
      ...(consignee ? { consignee } : {}),
    },
    ...(contact ? { partyContactDetails: [contact] } : {}),
    shipmentLocations: locations,
    requestedEquipments,
  }
}

const round3 = (value: number) => Math.round(value * 1000) / 1000
