import { createRequire } from 'node:module'
import type { Transaction } from 'kysely'
import type { FieldDef, ImportSheets } from '../../../model/definitions.ts'
import type { ManifestEntity } from '../../../model/resolve.ts'
import type { DB } from '../../db/schema.ts'
import { type Language, messageFor } from '../../http/errors.ts'
import type { Manifest } from '../../manifest.ts'
import { itemFields } from './itemSheets.ts'
import { importableFields, pivotOf } from './rows.ts'

// Writing only, from our own data: the read-side advisories of SheetJS 0.18.5 do not apply (./sheetWorker.js).
const XLSX = createRequire(import.meta.url)('xlsx') as typeof import('xlsx')

type Cell = string | number | boolean | null

/** A pivot's columns in the template: the codes the example uses, or every code of a short list. */
const PIVOT_COLUMNS_MAX = 12

/**
 * The template of an entity's import: a first sheet with one header per column (labels in the caller's
 * language) and the entity's first valid example as a row, and a second sheet explaining each column. An import
 * with sheets of items has, after the first, a sheet per item field — named by its label, the key's column first,
 * the example's items as rows — and the help sheet last.
 */
export async function importTemplate(
  trx: Transaction<DB>,
  manifest: Manifest,
  entity: ManifestEntity,
  language: Language,
  locked: ReadonlySet<string>,
  sheets?: ImportSheets,
): Promise<Buffer> {
  const example = (entity.examples?.valid?.[0] ?? {}) as Record<string, unknown>
  const header: string[] = []
  const row: Cell[] = []
  const help: Cell[][] = [
    [
      messageFor('import.helpColumn', language),
      messageFor('import.helpField', language),
      messageFor('import.helpRequired', language),
      messageFor('import.helpForm', language),
    ],
  ]
  const label = (def: FieldDef, name: string) => (def.label ? messageFor(def.label, language) : name)
  const itemSheets: { name: string; rows: Cell[][] }[] = []
  for (const [name, def] of importableFields(entity, locked)) {
    if (sheets?.items.includes(name)) {
      const keyDef = entity.fields[sheets.key] as FieldDef
      const fields = itemFields(def)
      const items = Array.isArray(example[name]) ? (example[name] as Record<string, unknown>[]) : []
      itemSheets.push({
        name: sheetName(label(def, name)),
        rows: [
          [label(keyDef, sheets.key), ...fields.map(([field, fieldDef]) => label(fieldDef, field))],
          ...items.map((item) => [toCell(example[sheets.key]), ...fields.map(([field]) => toCell(item[field]))]),
        ],
      })
      for (const [field, fieldDef] of fields)
        help.push([
          `${label(def, name)} · ${label(fieldDef, field)}`,
          `${name}.${field}`,
          fieldDef.required ? '*' : '',
          fieldDef.type === 'enum' ? (fieldDef.values ?? []).map((v) => String(v.value)).join(', ') : fieldDef.type,
        ])
      help.push([
        label(def, name),
        name,
        def.minItems ? '*' : '',
        messageFor('import.helpSheetForm', language, { key: label(keyDef, sheets.key) }),
      ])
      continue
    }
    const pivot = pivotOf(def, manifest.entities)
    if (pivot) {
      const target = manifest.entities[pivot.ref]
      const items = Array.isArray(example[name]) ? (example[name] as Record<string, unknown>[]) : []
      const display = target?.display && target.display !== 'code' ? target.display : null
      const all = target
        ? (
            await trx
              .selectFrom(target.table as never)
              .select(['code' as never, ...(display ? [display as never] : [])])
              .orderBy('code' as never)
              .execute()
          ).map((r) => r as unknown as Record<string, string>)
        : []
      const used = items.map((item) => String(item[pivot.keyField]))
      const codes = all.length <= PIVOT_COLUMNS_MAX ? all : all.filter((r) => used.includes(r.code as string))
      for (const ref of codes) {
        header.push(display ? String(ref[display]) : String(ref.code))
        const item = items.find((i) => i[pivot.keyField] === ref.code)
        row.push(item ? toCell(item[pivot.valueField]) : null)
      }
      help.push([
        messageFor('import.helpPivot', language),
        name,
        '',
        messageFor('import.helpPivotForm', language, { field: label(def, name) }),
      ])
      continue
    }
    header.push(label(def, name))
    const value = example[name]
    row.push(
      def.type === 'array' && Array.isArray(value)
        ? value
            .map((item) =>
              Object.keys(def.items ?? {})
                .map((k) => String((item as Record<string, unknown>)[k] ?? ''))
                .join('|'),
            )
            .join('; ')
        : toCell(value),
    )
    help.push([
      label(def, name),
      name,
      def.required ? '*' : '',
      def.type === 'array'
        ? messageFor('import.helpListForm', language, { form: Object.keys(def.items ?? {}).join('|') })
        : def.type === 'enum'
          ? (def.values ?? []).map((v) => String(v.value)).join(', ')
          : def.type,
    ])
  }
  const book = XLSX.utils.book_new()
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([header, row]), entity.entity.slice(0, 31))
  for (const sheet of itemSheets) XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(sheet.rows), sheet.name)
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(help), 'help')
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer
}

const toCell = (value: unknown): Cell =>
  value === undefined || value === null
    ? null
    : typeof value === 'number' || typeof value === 'boolean'
      ? value
      : Array.isArray(value)
        ? value.join(',')
        : String(value)

/** A label as a sheet's name: Excel's 31 characters, without the characters it refuses ([]:*?/ and the backslash). */
const sheetName = (text: string) =>
  text
    .replace(/[[\]:*?/\\]/g, ' ')
    .trim()
    .slice(0, 31) || 'items'
