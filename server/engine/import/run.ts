import { type Kysely, type SqlBool, sql, type Transaction } from 'kysely'
import type { FieldDef, ImportSheets } from '../../../model/definitions.ts'
import type { ManifestEntity } from '../../../model/resolve.ts'
import { IMPORT_LIMITS } from '../../../rules/fileLimits.ts'
import type { DB } from '../../db/schema.ts'
import { ApiError, type Language, messageFor } from '../../http/errors.ts'
import { idOrNull } from '../../http/ids.ts'
import type { Manifest } from '../../manifest.ts'
import { labelTarget } from '../labels.ts'
import { attachItemSheets, itemRuleErrors, sheetRef } from './itemSheets.ts'
import {
  headerIndex,
  type ImportProblem,
  importableFields,
  locate,
  type MappedRow,
  mapHeader,
  mapRows,
  type PivotKey,
  pivotOf,
} from './rows.ts'
import type { NamedSheet, Sheet } from './workbook.ts'

/**
 * An import inside the caller's tenant transaction: map every row, check every row (the entity's
 * validator, the tenant's overlay, references that must exist, unique values), and store all rows only
 * when no row has a problem. One problem anywhere stores nothing: the caller fixes the file and sends it again.
 */

export interface ImportContent {
  imported: number
  /** `cell`: the sheet and cell as Excel writes it (Boxes!D4), for an import with sheets of items. */
  problems: (ImportProblem & { message: string; cell?: string })[]
}

export interface ImportSteps {
  /** Ref fields the sheet names by text (the entity's import writer's `references`): each text's id. */
  resolve?: Record<string, (texts: string[]) => Promise<Map<string, number>>>
  /** The row as the engine's create would store it (overlay defaults, stripped, validated): throws 'validation'. */
  check(body: Record<string, unknown>): Record<string, unknown>
  /**
   * Stores the checked rows, in the file's order (each with its audit entry, or through the entity's import
   * writer); a row the store refuses with a validation error is handed to `refuse` by its index, and the
   * rest are still tried, so every refusal is reported (the caller then throws the import back).
   */
  insert(rows: Record<string, unknown>[], refuse: (index: number, error: ApiError) => void): Promise<void>
}

type DynamicDB = Record<string, Record<string, unknown>>
const dynamic = (trx: Transaction<DB>) => trx as unknown as Kysely<DynamicDB>

/** The codes and display texts of the reference lists that pivot columns name (container types). */
async function pivotKeys(
  trx: Transaction<DB>,
  manifest: Manifest,
  fields: [string, FieldDef][],
): Promise<Map<string, PivotKey[]>> {
  const out = new Map<string, PivotKey[]>()
  for (const [name, def] of fields) {
    const pivot = pivotOf(def, manifest.entities)
    const target = pivot && manifest.entities[pivot.ref]
    if (!pivot || !target) continue
    const display = target.display && target.display !== 'code' ? target.display : undefined
    const rows = (
      await sql<{ code: string; name: string | null }>`
      select code, ${display ? sql.ref(display.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase()) : sql`null`}::text as name
      from ${sql.table(target.table)} order by code`.execute(trx)
    ).rows
    // 40'HQ is also written 40HQ; normalizeHeader drops the apostrophe, so the display text covers both.
    out.set(
      name,
      rows.map((row) => ({ code: row.code, names: row.name ? [row.name] : [] })),
    )
  }
  return out
}

interface RefUse {
  row: MappedRow
  /** The field path the validator would name (pol, surcharges[1].currency). */
  path: string
  value: string | number
  target: NonNullable<ReturnType<typeof labelTarget>>
}

/** Every reference value of a row, top level and inside its lists. */
function refUses(row: MappedRow, fields: [string, FieldDef][], manifest: Manifest): RefUse[] {
  const out: RefUse[] = []
  const visit = (def: FieldDef, value: unknown, path: string) => {
    if (value === undefined || value === null) return
    if (def.type === 'ref' && def.ref) {
      const referenced = manifest.entities[def.ref]
      const target = referenced && labelTarget(referenced)
      if (!target) return
      for (const one of Array.isArray(value) ? value : [value])
        if (typeof one === 'string' || typeof one === 'number') out.push({ row, path, value: one, target })
      return
    }
    if (def.type === 'array' && def.items && Array.isArray(value))
      value.forEach((item, i) => {
        if (!item || typeof item !== 'object') return
        for (const [name, itemDef] of Object.entries(def.items ?? {}))
          visit(itemDef, (item as Record<string, unknown>)[name], `${path}[${i}].${name}`)
      })
  }
  for (const [name, def] of fields) visit(def, row.body[name], name)
  return out
}

/** Which of the values exist in the target (in the caller's tenant for tenant entities). */
async function existing(
  trx: Transaction<DB>,
  tenantId: number,
  target: RefUse['target'],
  values: (string | number)[],
): Promise<Set<string>> {
  const found = new Set<string>()
  const keys = [...new Set(values.map(String))]
  for (let i = 0; i < keys.length; i += 1000) {
    const chunk = keys.slice(i, i + 1000)
    const typed = target.key === 'id' ? chunk.map(idOrNull).filter((id): id is number => id !== null) : chunk
    if (!typed.length) continue
    let query = dynamic(trx)
      .selectFrom(target.table)
      .select(sql<string>`${sql.ref(target.key)}::text`.as('key'))
      .where(sql<SqlBool>`${sql.ref(target.key)} in (${sql.join(typed)})`)
    if (target.tenant) query = query.where(sql<SqlBool>`tenant_id = ${tenantId}`)
    for (const row of await query.execute()) found.add(String(row.key))
  }
  return found
}

/** Single-field unique indexes: a value twice in the file, or already stored. */
async function uniqueProblems(
  trx: Transaction<DB>,
  tenantId: number,
  entity: ManifestEntity,
  rows: MappedRow[],
  locateAt: (row: MappedRow, field: string, key: string, params: Record<string, unknown>) => ImportProblem,
): Promise<ImportProblem[]> {
  const problems: ImportProblem[] = []
  const indexes = (entity as ManifestEntity & { storage?: { indexes?: { fields: string[]; unique?: boolean }[] } })
    .storage?.indexes
  for (const index of indexes ?? []) {
    const field = index.fields[0]
    if (!index.unique || index.fields.length !== 1 || !field) continue
    const column = field.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase()
    const first = new Map<string, MappedRow>()
    for (const row of rows) {
      const value = row.body[field]
      if (typeof value !== 'string' && typeof value !== 'number') continue
      const seen = first.get(String(value))
      if (seen) problems.push(locateAt(row, field, 'import.duplicateInFile', { value, row: seen.row }))
      else first.set(String(value), row)
    }
    const values = [...first.keys()]
    for (let i = 0; i < values.length; i += 1000) {
      let query = dynamic(trx)
        .selectFrom(entity.table)
        .select(sql<string>`${sql.ref(column)}::text`.as('value'))
        .where(sql<SqlBool>`${sql.ref(column)}::text in (${sql.join(values.slice(i, i + 1000))})`)
      if (entity.scope === 'tenant') query = query.where(sql<SqlBool>`tenant_id = ${tenantId}`)
      for (const found of await query.execute()) {
        const row = first.get(String(found.value))
        if (row) problems.push(locateAt(row, field, 'import.alreadyExists', { value: found.value }))
      }
    }
  }
  return problems
}

export async function runImport(
  trx: Transaction<DB>,
  manifest: Manifest,
  entity: ManifestEntity,
  call: { tenantId: number; language?: Language; locked: ReadonlySet<string> },
  sheet: Sheet,
  steps: ImportSteps,
  /** An import with sheets of items (the binding's `sheets:`): the workbook's sheets, the first being `sheet`. */
  book?: { sheets: NamedSheet[]; spec: ImportSheets },
): Promise<ImportContent> {
  const fields = importableFields(entity, call.locked)
  // The item fields of an import with sheets are on their own sheets, not columns of the first.
  const columnFields = book ? fields.filter(([name]) => !book.spec.items.includes(name)) : fields
  const index = headerIndex(columnFields, manifest.entities, await pivotKeys(trx, manifest, columnFields))
  const header = mapHeader(sheet, index)
  if (header.headerRow < 0)
    throw new ApiError('validation', {}, [{ field: 'file', message: 'import.empty', params: {} }])
  // Rows the sheet spans below its header, blank or not: a file over the limit is refused whole.
  const below = sheet.rowCount - header.headerRow - 1
  if (below > IMPORT_LIMITS.maxRows)
    throw new ApiError('validation', { limit: IMPORT_LIMITS.maxRows }, [
      { field: 'file', message: 'import.tooManyRows', params: { limit: IMPORT_LIMITS.maxRows, rows: below } },
    ])
  const rows = mapRows(sheet, header, manifest.entities)
  const first = book?.sheets[0]
  const problems: ImportProblem[] = first
    ? [
        ...header.problems.map((p) => ({ ...p, sheet: first.name })),
        ...attachItemSheets(rows, { sheet: first, header }, book.sheets, book.spec, entity, manifest.entities),
      ]
    : [...header.problems]
  if (!rows.length)
    problems.push({
      row: header.headerRow + 2,
      column: null,
      header: null,
      field: null,
      key: 'import.noRows',
      params: {},
    })

  // References written as the entity's own numbers become ids; one not found is reported once, at its cell.
  const unresolved = new Set<string>()
  for (const [field, resolve] of Object.entries(steps.resolve ?? {})) {
    const named = rows.filter((row) => row.body[field] !== undefined && row.body[field] !== null)
    const ids = await resolve([...new Set(named.map((row) => String(row.body[field]).trim()))])
    for (const row of named) {
      const text = String(row.body[field]).trim()
      const id = ids.get(text)
      if (id !== undefined) row.body[field] = id
      else {
        unresolved.add(`${row.row}:${field}`)
        problems.push(locate(row, { field, message: 'import.unknownReference', params: { value: text } }, header))
      }
    }
  }
  const reported = (row: MappedRow, path: string) => unresolved.has(`${row.row}:${path}`)

  const checked = new Map<MappedRow, Record<string, unknown>>()
  for (const row of rows) {
    problems.push(...row.problems)
    try {
      checked.set(row, steps.check(row.body))
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'validation') throw error
      for (const fieldError of error.fieldErrors ?? [{ field: '', message: error.key, params: {} }])
        for (const one of book ? itemRuleErrors(entity, row.body, fieldError) : [fieldError])
          if (!reported(row, one.field)) problems.push(locate(row, one, header))
    }
  }

  const at = (row: MappedRow, path: string, key: string, params: Record<string, unknown>) =>
    locate(row, { field: path, message: key, params }, header)
  // References that must exist: ports, airports, carriers, currencies, container types… One query per table.
  const uses = rows.flatMap((row) => refUses(row, fields, manifest)).filter((use) => !reported(use.row, use.path))
  const byTable = new Map<string, RefUse[]>()
  for (const use of uses) byTable.set(use.target.table, [...(byTable.get(use.target.table) ?? []), use])
  for (const tableUses of byTable.values()) {
    const target = (tableUses[0] as RefUse).target
    const found = await existing(
      trx,
      call.tenantId,
      target,
      tableUses.map((u) => u.value),
    )
    for (const use of tableUses)
      if (!found.has(String(use.value)))
        problems.push(at(use.row, use.path, 'import.unknownReference', { value: use.value }))
  }
  problems.push(...(await uniqueProblems(trx, call.tenantId, entity, rows, at)))

  const language = call.language ?? 'zh'
  if (problems.length) {
    // By sheet in the workbook's order, then row, then column.
    const sheetOrder = (p: ImportProblem) => book?.sheets.findIndex((s) => s.name === p.sheet) ?? 0
    problems.sort(
      (a, b) => sheetOrder(a) - sheetOrder(b) || a.row - b.row || (a.column ?? '').localeCompare(b.column ?? ''),
    )
    return { imported: 0, problems: problems.map((p) => translated(p, entity, language)) }
  }
  // What only the store can tell (an entity's server-side derivations: the order's booking source) is named
  // by row too; one refusal undoes the rows stored before it, so the whole import is thrown back.
  const refused: ImportProblem[] = []
  await steps.insert(
    rows.map((row) => checked.get(row) as Record<string, unknown>),
    (index, error) => {
      const row = rows[index] as (typeof rows)[number]
      for (const fieldError of error.fieldErrors ?? [{ field: '', message: error.key, params: {} }])
        refused.push(locate(row, fieldError, header))
    },
  )
  if (refused.length)
    throw new ImportRefused({ imported: 0, problems: refused.map((p) => translated(p, entity, language)) })
  return { imported: rows.length, problems: [] }
}

/**
 * Rows the store refused after others were written: thrown so the tenant transaction rolls back, and
 * answered by the route (../index.ts) as the import's own answer, like the problems found before storing.
 */
export class ImportRefused extends Error {
  constructor(readonly content: ImportContent) {
    super('import refused')
  }
}

/** The message in the caller's language; a field with no column is named by its label. */
function translated(problem: ImportProblem, entity: ManifestEntity, language: Language) {
  const top = problem.field?.match(/^[A-Za-z0-9]+/)?.[0]
  const label = top ? entity.fields[top]?.label : undefined
  const header = problem.header ?? (label ? messageFor(label, language) : null)
  const cell =
    problem.sheet !== undefined && problem.column
      ? { cell: `${sheetRef(problem.sheet)}!${problem.column}${problem.row}` }
      : {}
  return { ...problem, ...cell, header, message: messageFor(problem.key, language, problem.params) }
}
