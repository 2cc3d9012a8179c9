/** An order as the engine answers it is JSON: these read its values without trusting their types. */
export type OrderRecord = Record<string, unknown>

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

export const textOf = (value: unknown): string => (typeof value === 'string' ? value.trim() : '')

export const positiveOf = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : null

/** The display text the engine gives a reference field (`labels.pol` → "Shanghai"), '' without one. */
export function labelOf(record: OrderRecord, field: string): string {
  return isRecord(record.labels) ? textOf(record.labels[field]) : ''
}

/** The rows of a list field, the ones that are objects. */
export function rowsOf(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter(isRecord) : []
}
