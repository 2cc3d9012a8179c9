import { type SqlBool, sql } from 'kysely'
import type { EngineApi } from '../../engine/index.ts'
import type { HandlerContext } from '../../http/context.ts'
import type { HandlerRegistry } from '../../http/endpoints.ts'
import { ApiError } from '../../http/errors.ts'
import { parseId } from '../../http/ids.ts'
import { CHANNELS, type Channel, channelsOf, EVENT_NAMES } from './events.ts'
import { dynamic, LETTER_TABLE, ownLetters, READ, UNREAD, unreadCount } from './letters.ts'

/** Who asks: the endpoints need a session (checkAccess ran before), and a letter is only ever its recipient's. */
function caller(ctx: HandlerContext) {
  const session = ctx.request.session
  if (!session) throw new ApiError('401')
  return { tenantId: ctx.request.tenant.id, userId: session.userId }
}

/** A settings row: the event's number in the catalogue is its id (1-based), so a row action can name it. */
function settingRow(index: number, on: Record<Channel, boolean>) {
  return { id: index + 1, version: 1, event: EVENT_NAMES[index], ...on }
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

  /** SPEC §7 letter settings: every event with the caller's channels (their choice, else the default). */
  async letterSettingList(ctx) {
    const { tenantId, userId } = caller(ctx)
    return ctx.inTenant(async (trx) => {
      const list = []
      for (const [index, event] of EVENT_NAMES.entries()) {
        const on = (await channelsOf(trx, tenantId, [userId], event)).get(userId) as Record<Channel, boolean>
        list.push(settingRow(index, on))
      }
      return { list, total: list.length, pageNum: 1, pageSize: list.length }
    })
  },

  /** One event's channels on or off for the caller only: their row is written (or changed) in place. */
  async letterSettingSave(ctx) {
    const { tenantId, userId } = caller(ctx)
    const input = ctx.input as { id: number } & Partial<Record<Channel, boolean>>
    const index = input.id - 1
    const event = EVENT_NAMES[index]
    if (!event) throw new ApiError('404')
    return ctx.inTenant(async (trx) => {
      const current = (await channelsOf(trx, tenantId, [userId], event)).get(userId) as Record<Channel, boolean>
      const next = { ...current }
      for (const channel of CHANNELS) if (typeof input[channel] === 'boolean') next[channel] = input[channel]
      const values = { in_app: next.inApp, mail: next.mail, we_chat: next.weChat }
      await dynamic(trx)
        .insertInto('letter_setting')
        .values({ tenant_id: tenantId, recipient: userId, event, ...values, created_by: userId })
        .onConflict((oc) =>
          oc
            .columns(['tenant_id', 'recipient', 'event'])
            .doUpdateSet({ ...values, version: sql`letter_setting.version + 1`, updated_at: sql`now()` }),
        )
        .execute()
      return settingRow(index, next)
    })
  },
})
