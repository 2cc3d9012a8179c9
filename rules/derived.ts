import { chargeableTotal, chargeableWeight, type FbaBoxSize } from './fbaWeight.ts'

/**
 * Values a record works out from its own fields and the tenant's settings, named by a field's `derive:` in the
 * entity YAML (`chargeableWeight: { type: number, readOnly: true, derive: fbaChargeableWeight }`). The one
 * registry of them: the portal's form shows each while the user types (runtime/forms/derived.ts), the engine
 * writes each on every create and update whatever the caller sent (server/engine/core.ts), and the generator
 * refuses a name that is not here. A derived field is read-only.
 */

type Row = Record<string, unknown>

/** What a derivation may read besides the record: the tenant's site settings (SPEC §3). */
export interface DeriveContext {
  settings?: Row | null
}

/**
 * One derivation: for a field of an array's row `row` is that row, for a field of the record the record itself;
 * `record` is always the whole record. Undefined while what it needs is missing (the form shows nothing).
 */
export type Derive = (row: Row, record: Row, context: DeriveContext) => string | undefined

/** SPEC §3 ecommerceEqWeight when the tenant has not set it: 6000 cm³ a kilogram. */
export const DEFAULT_ECOMMERCE_EQ_WEIGHT = 6000

/** The tenant's divisor of volumetric weight, its default when unset or not a positive integer. */
export function ecommerceEqWeight(settings: Row | null | undefined): number {
  const value = settings?.ecommerceEqWeight
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : DEFAULT_ECOMMERCE_EQ_WEIGHT
}

const boxesOf = (record: Row) => (Array.isArray(record.boxes) ? record.boxes : []) as FbaBoxSize[]

export const DERIVED = {
  /** An FBA carton's chargeable weight (rules/fbaWeight.ts), kilograms to three places. */
  fbaChargeableWeight: (row, _record, context) =>
    chargeableWeight(row as unknown as FbaBoxSize, ecommerceEqWeight(context.settings)),
  /** An FBA order's chargeable weight: each box's times its quantity, over the order's `boxes`. */
  fbaChargeableWeightTotal: (_row, record, context) =>
    chargeableTotal(boxesOf(record), ecommerceEqWeight(context.settings)),
} satisfies Record<string, Derive>

export type DerivedName = keyof typeof DERIVED

export const DERIVED_NAMES = Object.keys(DERIVED) as DerivedName[]

export function isDerivedName(name: unknown): name is DerivedName {
  return typeof name === 'string' && Object.hasOwn(DERIVED, name)
}

/** A field as far as derivation reads it: its `derive:` name and, for an array, its row's fields. */
export interface DerivedField {
  derive?: string
  type?: string
  items?: Record<string, DerivedField>
}

/** Whether any field of the record, or of an array's row, is derived. */
export function hasDerived(fields: Record<string, DerivedField>): boolean {
  return Object.values(fields).some(
    (field) => isDerivedName(field.derive) || (field.items !== undefined && hasDerived(field.items)),
  )
}

/** A derived value as the record keeps it: a number (kilograms to three places), null while it cannot be told. */
const asValue = (text: string | undefined): number | null => (text === undefined ? null : Number(text))

/**
 * The derived fields of a record: each array whose rows have derived fields, its rows with them filled, and each
 * derived field of the record. Rows first, so a record's derivation reads its rows as they will be kept.
 */
export function derivedFields(fields: Record<string, DerivedField>, record: Row, context: DeriveContext): Row {
  const out: Row = {}
  for (const [name, field] of Object.entries(fields)) {
    if (!field.items || !hasDerived(field.items) || !Array.isArray(record[name])) continue
    const itemFields = Object.entries(field.items).filter(([, item]) => isDerivedName(item.derive))
    out[name] = (record[name] as unknown[]).map((row) => {
      if (!row || typeof row !== 'object') return row
      const filled: Row = { ...(row as Row) }
      for (const [itemName, item] of itemFields)
        filled[itemName] = asValue(DERIVED[item.derive as DerivedName](row as Row, record, context))
      return filled
    })
  }
  const withRows = { ...record, ...out }
  for (const [name, field] of Object.entries(fields)) {
    if (isDerivedName(field.derive)) out[name] = asValue(DERIVED[field.derive](withRows, withRows, context))
  }
  return out
}
