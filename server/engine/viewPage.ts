import { type AliasedExpression, type Kysely, type RawBuilder, sql, type Transaction } from 'kysely'
import type { DB } from '../db/schema.ts'
import { type Column, selection, toApiRow } from './columns.ts'
import { type ListPlan, type ListRequest, searchConditions } from './search.ts'

type Dynamic = Kysely<Record<string, Record<string, unknown>>>

/** A query of a hand-written list's rows, aliased as its view's name (`.as(view)`): what its columns read. */
export type ListView = AliasedExpression<unknown, string>

/**
 * One page of a hand-written list whose rows come from a view of its own (operation accounts, roles): the request's
 * filters, the reader's sort when the list allows it (empty values last), then the list's own `order`, one page,
 * and how many rows there are in all — as the API answers them (engine/columns.ts), before their labels.
 */
export async function pageOfView(
  trx: Transaction<DB>,
  {
    source,
    view,
    columns,
    plan,
    request,
    order,
  }: {
    source: ListView
    view: string
    columns: Column[]
    plan: ListPlan
    request: ListRequest
    /** The keys after the reader's sort, e.g. newest first. */
    order: RawBuilder<unknown>[]
  },
): Promise<{ rows: Record<string, unknown>[]; total: number }> {
  const db = trx as unknown as Dynamic
  const ref = (column: string) => sql.ref(`${view}.${column}`)
  let count = db.selectFrom(source).select(sql<number>`count(*)::int`.as('total'))
  let rows = db.selectFrom(source).select(selection(columns, view))
  for (const condition of searchConditions(plan, request.searchParams, view)) {
    count = count.where(condition)
    rows = rows.where(condition)
  }
  const sort = request.sort && plan.sortable.get(request.sort.field)
  if (sort) {
    const direction = sql.raw(request.sort?.order === 'desc' ? 'desc' : 'asc')
    rows = rows.orderBy(sql`${ref(sort.column)} ${direction} nulls last`)
  }
  for (const key of order) rows = rows.orderBy(key)
  const [counted] = await count.execute()
  const page = await rows
    .limit(request.pageSize)
    .offset((request.pageNum - 1) * request.pageSize)
    .execute()
  return { rows: page.map((row) => toApiRow(columns, row)), total: Number(counted?.total ?? 0) }
}
