import { withSchema } from '../../forms/schemas.ts'
import { refLabel, refText } from '../list/format.ts'
import { codeBeside, type PortalEntity } from '../manifest.ts'

type Data = Record<string, unknown>

/**
 * The record as a form shows it read-only: a ref field the form does not edit (not in the input schema,
 * e.g. an order's customerCompany or createdBy) reads as its label from the server (`row.labels`), with
 * the code beside it for reference lists named in a language (`Shanghai (CNSHA)`); without a label, its
 * raw value. The fields the form edits keep their ids and codes: they are what goes back to the server.
 */
export function labelledRecord(
  entity: Pick<PortalEntity, 'fields' | 'entity'>,
  record: Data | null | undefined,
): Data | null | undefined {
  if (!record?.labels) return record
  const edited = new Set(Object.keys((withSchema(entity).schema as { properties?: Data }).properties ?? {}))
  let out: Data | undefined
  for (const [name, field] of Object.entries(entity.fields)) {
    if (field.type !== 'ref' || edited.has(name)) continue
    const label = refLabel(record, name, entity, codeBeside)
    if (!label) continue
    out ??= { ...record }
    out[name] = refText(label)
  }
  return out ?? record
}
