import { type SqlBool, sql } from 'kysely'
import { parseListRequest, searchConditions } from '../../engine/search.ts'
import type { HandlerContext } from '../../http/context.ts'
import type { HandlerRegistry } from '../../http/endpoints.ts'
import { ApiError } from '../../http/errors.ts'
import type { Manifest } from '../../manifest.ts'
import {
  dynamic,
  LETTER_TABLE,
  letterModel,
  letterRow,
  letterSelection,
  ownLetters,
  READ,
  UNREAD,
  unreadCount,
} from './letters.ts'

/** Who asks: the endpoints need a session (checkAccess ran before), and a letter is only ever its recipient's. */
function caller(ctx: HandlerContext) {
  const session = ctx.request.session
  if (!session) throw new ApiError('401')
  return { tenantId: ctx.request.tenant.id, userId: session.userId }
}

const MAX_ID = 2_147_483_647

function letterId(input: unknown): number {
  const raw = (input as { id?: unknown } | null)?.id
  const id = typeof raw === 'string' && /^\d{1,10}$/.test(raw) ? Number(raw) : raw
  if (typeof id !== 'number' || !Number.isInteger(id) || id < 1 || id > MAX_ID) {
    throw new ApiError('validation', {}, [{ field: 'id', message: 'validation.required', params: {} }])
  }
  return id
}

/** SPEC §7 "letter list/update/read all": the caller's own letters and nobody else's. */
export const letterHandlers = (manifest: Manifest): HandlerRegistry => ({
  async letterList(ctx) {
    const { tenantId, userId } = caller(ctx)
    const model = letterModel(manifest)
    const request = parseListRequest(model.list, ctx.input)
    return ctx.inTenant(async (trx) => {
      const conditions = [
        ...ownLetters(tenantId, userId),
        ...searchConditions(model.list, request.searchParams, LETTER_TABLE),
      ]
      let base = dynamic(trx).selectFrom(LETTER_TABLE)
      for (const condition of conditions) base = base.where(condition)
      const counted = (await base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirst()) as { n: number }
      const sort = request.sort ? model.list.sortable.get(request.sort.field) : undefined
      const order = request.sort?.order === 'asc' ? sql`asc` : sql`desc`
      // Newest first unless the reader sorts; id breaks ties so pages never overlap.
      const rows = await base
        .select(letterSelection(model))
        .orderBy(sort ? sql`${sql.ref(`${LETTER_TABLE}.${sort.column}`)} ${order} nulls last` : sql`updated_at desc`)
        .orderBy(sql`id desc`)
        .limit(request.pageSize)
        .offset((request.pageNum - 1) * request.pageSize)
        .execute()
      return {
        list: rows.map((row) => letterRow(model, row)),
        total: counted.n,
        pageNum: request.pageNum,
        pageSize: request.pageSize,
        unread: await unreadCount(trx, tenantId, userId),
      }
    })
  },

  async letterRead(ctx) {
    const { tenantId, userId } = caller(ctx)
    const id = letterId(ctx.input)
    return ctx.inTenant(async (trx) => {
      let query = dynamic(trx)
        .updateTable(LETTER_TABLE)
        .set({ status: READ, version: sql`version + 1` })
        .where(sql<SqlBool>`${sql.ref(`${LETTER_TABLE}.id`)} = ${id}`)
      for (const condition of ownLetters(tenantId, userId)) query = query.where(condition)
      const updated = await query.returning('id').executeTakeFirst()
      // Someone else's letter is as missing as one that never was.
      if (!updated) throw new ApiError('404')
      return { id, status: READ, unread: await unreadCount(trx, tenantId, userId) }
    })
  },

  async letterReadAll(ctx) {
    const { tenantId, userId } = caller(ctx)
    return ctx.inTenant(async (trx) => {
      let query = dynamic(trx)
        .updateTable(LETTER_TABLE)
        .set({ status: READ, version: sql`version + 1` })
        .where(sql<SqlBool>`${sql.ref(`${LETTER_TABLE}.status`)} = ${UNREAD}`)
      for (const condition of ownLetters(tenantId, userId)) query = query.where(condition)
      const updated = await query.returning('id').execute()
      return { updated: updated.length, unread: 0 }
    })
  },
})
