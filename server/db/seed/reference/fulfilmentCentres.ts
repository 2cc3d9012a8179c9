/**
 * Amazon fulfilment centres (issue #26): the warehouse code Amazon names in a seller's inbound shipment plan
 * and the street address its carriers deliver to. Large, long-running sites that FBA freight forwarders
 * deliver to every week — the Inland Empire and Los Angeles sites most of all — as published on Amazon's
 * shipment labels and public operations pages. Not a complete list: Amazon opens and closes sites, so the
 * table is loaded when empty and an operator keeps it (server/db/seed/reference-tables.ts).
 */
export interface FulfilmentCentre {
  /** Amazon's site code: the nearest airport's IATA code and a digit, e.g. `ONT8`. */
  readonly code: string
  /** ISO 3166-1 alpha-2. */
  readonly country: string
  /** State, province or region as the postal address writes it (CA, NJ; for Europe the region). */
  readonly state: string
  readonly city: string
  readonly address: string
  readonly zip: string
}

export const FULFILMENT_CENTRES: readonly FulfilmentCentre[] = [
  // United States, west coast
  { code: 'ONT8', country: 'US', state: 'CA', city: 'Moreno Valley', address: '24208 San Michele Rd', zip: '92551' },
  { code: 'ONT2', country: 'US', state: 'CA', city: 'San Bernardino', address: '1910 E Central Ave', zip: '92408' },
  { code: 'LGB8', country: 'US', state: 'CA', city: 'Rialto', address: '1568 N Linden Ave', zip: '92376' },
  { code: 'SBD1', country: 'US', state: 'CA', city: 'Bloomington', address: '2020 E Central Ave', zip: '92316' },
  { code: 'SMF3', country: 'US', state: 'CA', city: 'Stockton', address: '3923 S B St', zip: '95206' },
  { code: 'BFI4', country: 'US', state: 'WA', city: 'Kent', address: '21005 64th Ave S', zip: '98032' },
  { code: 'PHX6', country: 'US', state: 'AZ', city: 'Phoenix', address: '4750 W Mohave St', zip: '85043' },
  { code: 'LAS1', country: 'US', state: 'NV', city: 'Henderson', address: '12300 Bermuda Rd', zip: '89044' },
  // United States, central and east
  { code: 'DFW6', country: 'US', state: 'TX', city: 'Coppell', address: '940 W Bethel Rd', zip: '75019' },
  { code: 'MDW2', country: 'US', state: 'IL', city: 'Joliet', address: '250 Emerson Dr', zip: '60433' },
  { code: 'IND9', country: 'US', state: 'IN', city: 'Greenwood', address: '1151 S Graham Rd', zip: '46143' },
  { code: 'MEM1', country: 'US', state: 'TN', city: 'Memphis', address: '3292 E Holmes Rd', zip: '38118' },
  { code: 'CLT2', country: 'US', state: 'NC', city: 'Charlotte', address: '10240 Old Dowd Rd', zip: '28214' },
  { code: 'TPA1', country: 'US', state: 'FL', city: 'Ruskin', address: '3350 Laurel Ridge Ave', zip: '33570' },
  { code: 'EWR4', country: 'US', state: 'NJ', city: 'Robbinsville', address: '50 New Canton Way', zip: '08691' },
  { code: 'ABE8', country: 'US', state: 'NJ', city: 'Florence', address: '401 Independence Rd', zip: '08518' },
  // Europe
  { code: 'LTN1', country: 'GB', state: 'Bedfordshire', city: 'Ridgmont', address: 'Marston Gate', zip: 'MK43 0ZA' },
  {
    code: 'DTM2',
    country: 'DE',
    state: 'Nordrhein-Westfalen',
    city: 'Dortmund',
    address: 'Kaltbandstraße 4',
    zip: '44145',
  },
]
