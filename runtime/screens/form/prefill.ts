import type { ManifestScreen } from '../../../model/resolve.ts'
import { withSchema } from '../../forms/schemas.ts'
import { storedValue } from '../../widgets/lookups.ts'
import type { PortalEntity } from '../manifest.ts'

type Data = Record<string, unknown>

/**
 * A new record's values from the page's query (`form.prefill` in the screen YAML): each field named there
 * takes the query parameter of its name, as the field stores it (an entity's id as a number), so an action
 * that opens the form for a record (param: order) starts it filled in. Null when nothing is given.
 */
export function prefilledRecord(
  screen: Pick<ManifestScreen, 'form'>,
  entity: Pick<PortalEntity, 'fields' | 'entity'>,
  query: URLSearchParams,
): Data | null {
  const fields = screen.form?.prefill
  if (!fields?.length) return null
  const properties = (withSchema(entity).schema as { properties?: Record<string, { type?: unknown }> }).properties ?? {}
  const record: Data = {}
  for (const name of fields) {
    const value = query.get(name)?.trim()
    if (value) record[name] = storedValue(value, properties[name]?.type)
  }
  return Object.keys(record).length ? record : null
}
