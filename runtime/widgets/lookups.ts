import type { Client, Envelope } from '../../generated/client.ts'
import type { ReferenceOptions } from '../../generated/content.ts'
import type { ReferenceQuery } from '../../generated/types.ts'
import type { LOOKUPS as LOOKUP_NAMES } from '../../model/registries.ts'

/**
 * Which look-up (screens/basicData.yaml) serves a referenced entity, through the generated client: the
 * shared reference lists by code, the tenant's companies and roles by id. A ref to anything else has no
 * look-up and stays a plain input.
 */

export type LookupOption = ReferenceOptions['list'][number]
export type LookupCall = (query: ReferenceQuery, signal?: AbortSignal) => Promise<Envelope<ReferenceOptions>>

const LOOKUPS: Record<(typeof LOOKUP_NAMES)[number], (client: Client) => LookupCall> = {
  port: (c) => c.booking.portFuzzyQuery,
  airport: (c) => c.booking.airportFuzzyQuery,
  carrier: (c) => c.booking.carrierFuzzyQuery,
  currency: (c) => c.booking.currencyFuzzyQuery,
  country: (c) => c.booking.countryFuzzyQuery,
  amazonFc: (c) => c.booking.amazonFcFuzzyQuery,
  containerType: (c) => c.booking.containerTypeFuzzyQuery,
  offeredContainerType: (c) => c.booking.offeredContainerTypes,
  hsCode: (c) => c.booking.getCommodityCodes,
  company: (c) => c.b2b.companyFuzzyQuery,
  order: (c) => c.b2b.orderFuzzyQuery,
  role: (c) => c.b2b.roleFuzzyQuery,
  roleGroup: (c) => c.b2b.roleGroupFuzzyQuery,
  blOrder: (c) => c.b2b.blOrderFuzzyQuery,
  bill: (c) => c.b2b.billFuzzyQuery,
  enterpriseRole: (c) => c.b2b.enterpriseRoleFuzzyQuery,
  salesman: (c) => c.b2b.getGlobalSales,
  salesBranch: (c) => c.b2b.salesBranchCheckBox,
  region: (c) => c.b2b.regionFuzzyQuery,
  office: (c) => c.b2b.officeFuzzyQuery,
  bookingAgent: (c) => c.b2b.bookingAgentFuzzyQuery,
  fbaProduct: (c) => c.booking.fbaProductFuzzyQuery,
  chatOperator: (c) => c.b2b.imOperatorOptions,
  chatTag: (c) => c.b2b.imTagOptions,
}

/** The entity each reference widget of model/registries.ts looks up. */
export const WIDGET_LOOKUPS: Record<string, string> = {
  portSelect: 'port',
  airportSelect: 'airport',
  carrierSelect: 'carrier',
  currencySelect: 'currency',
  countrySelect: 'country',
  containerTypeSelect: 'containerType',
}

export function hasLookup(entity: string | undefined): boolean {
  return !!entity && Object.hasOwn(LOOKUPS, entity)
}

export function lookupCall(client: Client, entity: string): LookupCall | null {
  return hasLookup(entity) ? (LOOKUPS[entity as keyof typeof LOOKUPS] as (client: Client) => LookupCall)(client) : null
}

/** Stored values as the look-up's `codes` parameter (ids of entities travel as text). */
export function codesParam(values: readonly unknown[]): string | undefined {
  const codes = values.filter((v) => v !== null && v !== undefined && v !== '').map(String)
  return codes.length ? [...new Set(codes)].join(',') : undefined
}

/** A look-up value back to what the field stores: ids are integers when the field's schema says so. */
export function storedValue(value: string, type: unknown): string | number {
  const types = Array.isArray(type) ? type : [type]
  return types.includes('integer') && /^\d{1,10}$/.test(value) ? Number(value) : value
}

/** How long typing pauses before the look-up asks the server. */
export const DEBOUNCE_MS = 250

/**
 * The values each option seen carries for a `fills:` (referenceOptions `fields`), by look-up and value: the form
 * reads them when a field with `fills:` takes that value (runtime/forms/schemaForm.ts applyFills). Kept for the
 * page's life; a look-up answers at most 50 options a time, and a form sees a few hundred at most.
 */
const optionFields = new Map<string, Record<string, string | undefined>>()

export function rememberOptionFields(entity: string, options: readonly LookupOption[]): void {
  for (const option of options) if (option.fields) optionFields.set(`${entity}\u0000${option.value}`, option.fields)
}

export function optionFieldsOf(entity: string, value: unknown): Record<string, string | undefined> | undefined {
  return typeof value === 'string' || typeof value === 'number'
    ? optionFields.get(`${entity}\u0000${String(value)}`)
    : undefined
}
