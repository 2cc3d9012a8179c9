import type { InquiryServices } from '../../../generated/content.ts'
import type { FormSection } from '../../forms/schemaForm.ts'

/**
 * The pure half of the booking page (BookingOrder.tsx): the sections its order form is read in, and
 * what a booking from a quote takes over from the inquiry behind it. No React, unit-tested on its own.
 */

/** The load types whose orders carry container rows (type, quantity, gross weight). */
const WITH_CONTAINERS = new Set(['FCL', 'RAILWAY'])

/**
 * The booking form's sections for a load type. The container table has a section of its own, one column
 * wide: in a cell of the cargo grid it had a third of the form, too little for a look-up that reads
 * "45G1 — 40'HQ" and the inputs beside it.
 */
export function bookingSections(mode: string): FormSection[] {
  return [
    // The consignee's and notify party's tax numbers show only while the tenant's showCnptFields is on.
    {
      title: 'booking.sectionParties',
      columns: 3,
      fields: ['shipper', 'consignee', 'notifyParty', 'consigneeTaxId', 'notifyPartyTaxId'],
    },
    { title: 'booking.sectionContact', columns: 3, fields: ['contactName', 'contactPhone', 'contactEmail'] },
    {
      title: 'booking.sectionRoute',
      columns: 3,
      // The booking agent and the sea freight terms show only while the tenant's settings ask for them
      // (their `{ setting: … }` rules in schemas/order.yaml).
      fields: [
        'entrustType',
        'pol',
        'pod',
        'carrier',
        'bookingAgent',
        'etd',
        'cargoReadyDate',
        'tradeTerm',
        'serviceTerm',
        'freightPayment',
        'deliveryAddress',
      ],
    },
    ...(WITH_CONTAINERS.has(mode) ? [{ title: 'booking.sectionContainers', columns: 1, fields: ['containers'] }] : []),
    {
      title: 'booking.sectionCargo',
      columns: 3,
      fields: ['cargoType', 'packageType', 'boxes', 'grossWeight', 'volume', 'goodsDescription', 'marks', 'hsCode'],
    },
    { title: 'booking.sectionServices', columns: 1, fields: ['services'] },
    { title: 'booking.sectionRemarks', columns: 1, fields: ['remarks'] },
  ]
}

/**
 * The services of an inquiry as its summary carries them (schemas/inquiryServices.yaml), each read as it
 * comes: a value of another type is not asked for.
 */
export type AskedServices = { [K in keyof InquiryServices]?: unknown }

const ticked = (value: unknown) => value === true
const someOf = (value: unknown) => Array.isArray(value) && value.length > 0

/**
 * Which of an order's services (schemas/order.yaml `services`) an inquiry asked for: pick-up, customs
 * declaration (export or import), insurance, a warehouse (collecting, its services, or unloading) and
 * delivery to the consignee. Answered in the order of `values`, the order field's own values, and only
 * those it has.
 */
export function orderServicesOf(services: AskedServices | null | undefined, values: readonly unknown[]): string[] {
  if (!services) return []
  const asked: Record<string, boolean> = {
    pickUp: ticked(services.needPickUp),
    customs: someOf(services.customsDeclaration),
    insurance: ticked(services.insurance),
    warehouse:
      ticked(services.collectWarehouse) || someOf(services.warehouseServices) || ticked(services.unloadingWarehouse),
    delivery: ticked(services.deliveryToConsignee),
  }
  return values.map(String).filter((value) => asked[value] === true)
}
