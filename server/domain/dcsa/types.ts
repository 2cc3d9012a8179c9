/**
 * The parts of the DCSA documents Waybill writes, as TypeScript: the subset of the published schemas
 * (`/work/wt/shared/standards/dcsa/`, BKG 2.0.5 `CreateBooking`, EBL 3.0.4 `CreateShippingInstructions`) that
 * our fields fill. The names and shapes are the standard's; what may be sent and how long it may be is the
 * standard's too, and tests/api/dcsa-exports.test.ts validates every export against the published schema
 * itself, so a field named wrongly here fails there.
 */

export type WeightUnit = 'KGM'
export type VolumeUnit = 'MTQ'

export interface Weight {
  value: number
  unit: WeightUnit
}

export interface Volume {
  value: number
  unit: VolumeUnit
}

/** A contact of a document (`PartyContactDetail`): a name with a phone, an e-mail or both. */
export interface PartyContactDetail {
  name: string
  phone?: string
  email?: string
}

/** A party of a document, from a B/L text block: its name and the rest as address lines. */
export interface Party {
  partyName: string
  addressLines?: string[]
  identifyingCodes?: { codeListProvider: string; partyCode: string }[]
  partyContactDetails?: PartyContactDetail[]
}

export interface Reference {
  type: string
  value: string
}

// ---------------------------------------------------------------------------------------------------
// Booking 2.0.5

export interface BookingLocation {
  location: { UNLocationCode: string; locationName?: string }
  /** PRE, POL, POD, PDE… (the standard's location type codes) */
  locationTypeCode: 'PRE' | 'POL' | 'POD' | 'PDE'
}

export interface BookingCommodity {
  commodityType: string
  HSCodes?: string[]
  cargoGrossWeight?: Weight
  cargoGrossVolume?: Volume
  outerPackaging?: { numberOfPackages: number; description: string }
}

export interface RequestedEquipment {
  ISOEquipmentCode: string
  units: number
  isShipperOwned: boolean
  cargoGrossWeight?: Weight
  commodities?: BookingCommodity[]
}

export type ReceiptDeliveryType = 'CY' | 'SD' | 'CFS'
export type CargoMovementType = 'FCL' | 'LCL'

/** What a booking request to a carrier carries (DCSA Booking 2.0.5, `CreateBooking`). */
export interface DcsaCreateBooking {
  receiptTypeAtOrigin: ReceiptDeliveryType
  deliveryTypeAtDestination: ReceiptDeliveryType
  cargoMovementTypeAtOrigin: CargoMovementType
  cargoMovementTypeAtDestination: CargoMovementType
  isEquipmentSubstitutionAllowed: boolean
  bookingChannelReference?: string
  carrierCode?: string
  carrierCodeListProvider?: 'NMFTA' | 'SMDG'
  vessel?: { name: string }
  carrierExportVoyageNumber?: string
  expectedDepartureDate?: string
  incoTerms?: string
  freightPaymentTermCode?: FreightPaymentTerm
  references?: Reference[]
  documentParties: {
    bookingAgent: Party
    shipper?: Party
    consignee?: Party
  }
  partyContactDetails?: PartyContactDetail[]
  shipmentLocations: BookingLocation[]
  requestedEquipments: RequestedEquipment[]
}

// ---------------------------------------------------------------------------------------------------
// eBL 3.0.4 Shipping Instructions

export type FreightPaymentTerm = 'PRE' | 'COL'

export type WoodDeclaration = 'NOT_APPLICABLE' | 'NOT_TREATED_AND_NOT_CERTIFIED' | 'PROCESSED' | 'TREATED_AND_CERTIFIED'

export interface CargoItem {
  equipmentReference: string
  cargoGrossWeight: Weight
  cargoGrossVolume?: Volume
  outerPackaging?: { numberOfPackages: number; description: string; woodDeclaration?: WoodDeclaration }
}

export interface ConsignmentItem {
  carrierBookingReference: string
  descriptionOfGoods: string[]
  HSCodes: string[]
  shippingMarks?: string[]
  cargoItems: CargoItem[]
}

export interface UtilizedTransportEquipment {
  isShipperOwned: false
  equipmentReference: string
  seals: { number: string }[]
  shippingMarks?: string[]
}

/** The shipper's B/L instruction to the carrier (DCSA eBL 3.0.4, `CreateShippingInstructions`). */
export interface DcsaShippingInstructions {
  transportDocumentReference?: string
  transportDocumentTypeCode: 'BOL' | 'SWB'
  isShippedOnBoardType: boolean
  freightPaymentTermCode: FreightPaymentTerm
  isElectronic: boolean
  isToOrder: boolean
  numberOfOriginalsWithCharges?: number
  numberOfCopiesWithCharges?: number
  displayedNameForPlaceOfReceipt?: string[]
  displayedNameForPortOfLoad?: string[]
  displayedNameForPortOfDischarge?: string[]
  displayedNameForPlaceOfDelivery?: string[]
  carrierCode?: string
  carrierCodeListProvider?: 'NMFTA' | 'SMDG'
  partyContactDetails: PartyContactDetail[]
  documentParties: {
    shipper: Party
    consignee?: Party & { isNotifyParty?: boolean }
    notifyParties?: Party[]
  }
  isCargoDeliveredInICS2Zone: boolean
  consignmentItems: ConsignmentItem[]
  utilizedTransportEquipments: UtilizedTransportEquipment[]
  references?: Reference[]
  isHouseBillOfLadingsIssued?: boolean
}
