import { type RawBuilder, type SqlBool, sql } from 'kysely'
import type { ManifestEntity } from '../../model/resolve.ts'
import type { Session } from '../http/context.ts'
import { type Column, snakeCase } from './columns.ts'

/**
 * Whose rows a caller sees, beyond the tenant (which row-level security and the engine's own
 * `tenant_id = …` both enforce). Entities opt in with `dataScope: { owner, company }`:
 *
 * 1. The company wall: a caller who is not on the provider side (companyUserType 2, and the order-list-only
 *    type 3 — the stricter reading) only ever sees rows whose `company` field is their own company; with
 *    no company (a personal user) only the rows they own.
 * 2. Data scope 'self' (no role of the caller sees all): only rows whose `owner` field is the caller. When
 *    the entity names no owner, a self-scoped enterprise user keeps the company wall and a self-scoped
 *    provider user sees nothing — there is no row that is theirs.
 *
 * A row outside these rules answers not-found, exactly as a missing one.
 */
export function scopeConditions(entity: ManifestEntity, session: Session, table: string): RawBuilder<SqlBool>[] {
  const scope = entity.dataScope
  if (!scope) return []
  const ref = (field: string) => sql.ref(`${table}.${columnName(field)}`)
  const owner = scope.owner ? sql<SqlBool>`${ref(scope.owner)} = ${session.userId}` : undefined
  const conditions: RawBuilder<SqlBool>[] = []
  const walled = scope.company !== undefined && session.companyUserType !== PROVIDER
  if (walled) {
    if (session.companyId !== null)
      conditions.push(sql<SqlBool>`${ref(scope.company as string)} = ${session.companyId}`)
    else conditions.push(owner ?? sql<SqlBool>`false`)
  }
  if (session.dataScope === 'self') {
    if (owner) conditions.push(owner)
    else if (!walled) conditions.push(sql<SqlBool>`false`)
  }
  return conditions
}

/**
 * The session a public engine read runs with when nobody is signed in (a YAML screen with `access: open` over a
 * hand-written-free list, the sailing schedules): a user of no company, no permissions and data scope self, so
 * every data-scope rule above finds no row of theirs and only entities without one answer rows.
 */
export function visitorSession(tenantId: number): Session {
  return {
    sessionId: 0,
    userId: 0,
    tenantId,
    username: '',
    realName: '',
    companyId: null,
    companyUserType: 2,
    roles: [],
    permissions: new Set(),
    dataScope: 'self',
  }
}

/** The values a new row takes from its creator: the owner and, for enterprise users, the company. */
export function scopeValues(entity: ManifestEntity, session: Session, columns: Column[]): Record<string, unknown> {
  const scope = entity.dataScope
  const values: Record<string, unknown> = {}
  const set = (field: string, value: unknown) => {
    const column = columns.find((c) => c.name === field)
    if (column && !column.system) values[column.column] = value
  }
  if (scope?.owner) set(scope.owner, session.userId)
  if (scope?.company && session.companyUserType !== PROVIDER) set(scope.company, session.companyId)
  return values
}

const PROVIDER = 1

/** System fields keep their own column names (createdBy → created_by), as every other field. */
const columnName = (field: string) => snakeCase(field)
