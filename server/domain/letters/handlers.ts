import { type SqlBool, sql } from 'kysely'
import type { EngineApi } from '../../engine/index.ts'
import type { HandlerContext } from '../../http/context.ts'
import type { HandlerRegistry } from '../../http/endpoints.ts'
import { ApiError } from '../../http/errors.ts'
import { parseId } from '../../http/ids.ts'
import { dynamic, LETTER_TABLE, ownLetters, READ, UNREAD, unreadCount } from './letters.ts'

/** Who asks: the endpoints need a session (checkAccess ran before), and a letter is only ever its recipient's. */
function caller(ctx: HandlerContext) {
  const session = ctx.request.session
  if (!session) throw new ApiError('401')
  return { tenantId: ctx.request.tenant.id, userId: session.userId }
}

const letterId = (input: unknown): number => parseId((input as { id?: unknown } | null)?.id)

/** SPEC §7 "letter list/update/read all": the caller's own letters and nobody else's. */
export const letterHandlers = (engine: EngineApi): HandlerRegistry => ({
  /** The engine's list (server/engine/api.ts) of the caller's own letters (./register.ts), with the unread total. */
  async letterList(ctx) {
    const { tenantId, userId } = caller(ctx)
    const session = ctx.request.session as NonNullable<typeof ctx.request.session>
    const call = { tenantId, session, language: ctx.request.language }
    return ctx.inTenant(async (trx) => {
      const page = await engine.list(trx, ctx.endpoint, call, ctx.input)
      return {
        ...page,
        list: page.list.map((row) => ({ ...row, updateTime: row.updatedAt })),
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
