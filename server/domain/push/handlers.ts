import { isAbsolute, relative } from 'node:path'
import { sql } from 'kysely'
import { readConfig } from '../../config.ts'
import type { EngineApi } from '../../engine/index.ts'
import type { Handlers } from '../../http/endpoints.ts'
import { ApiError } from '../../http/errors.ts'
import { mailboxDir } from '../../jobs/mail/channel.ts'
import { openReadToken } from './token.ts'

/**
 * The read link of a push mail (GET /api/b2b/public/push/read?t=…; screens/notifications.yaml). The token
 * names one recipient of one tenant; a forged one, or one made for another tenant than the host's, is
 * refused (220000) and changes nothing. The first open marks the recipient read; later ones answer the
 * same without writing.
 */
export const pushHandlers = {
  /**
   * How this server delivers mail, for /pushList/Email's notice: with no SMTP_URL the worker writes each mail to
   * the local mailbox under the data directory (server/jobs/mail/channel.ts), named relative to the working
   * directory when it lies below it, as the start banner names it.
   */
  async mailDelivery() {
    if (process.env.SMTP_URL) return { localMailbox: false }
    const folder = mailboxDir(readConfig().dataDir)
    const shown = relative(process.cwd(), folder)
    return { localMailbox: true, mailbox: shown && !shown.startsWith('..') && !isAbsolute(shown) ? shown : folder }
  },

  async pushRead(ctx) {
    const opened = openReadToken(ctx.input.t)
    const tenantId = ctx.request.tenant.id
    if (!opened || opened.tenantId !== tenantId) throw new ApiError('220000')
    const answer = await ctx.inTenant(async (trx) => {
      const row = await sql<{ state: string; title: string; informationItem: number | null }>`
        update push_recipient r set
          state = case when r.state = 'notified' then 'read' else r.state end,
          read_at = case when r.state = 'notified' then now() else r.read_at end,
          version = r.version + case when r.state = 'notified' then 1 else 0 end
        from push_message p
        where r.tenant_id = ${tenantId} and r.id = ${opened.recipientId}
          and p.tenant_id = r.tenant_id and p.id = r.push
        returning r.state, p.title, p.information_item as "informationItem"`.execute(trx)
      return row.rows[0]
    })
    if (!answer) throw new ApiError('220000')
    return answer
  },
} satisfies Handlers

/**
 * /PushView's row action (POST /b2b/push/recipient/stop): one recipient taken off a push. The list is a view
 * (schemas/pushDelivery.yaml), so the action names this call; it fires the recipient's own `abort` transition
 * through the engine (no screen binds pushRecipient itself now), which checks the recipient's state, version
 * and the transition's permission, writes its history and runs its effect.
 */
export const pushRecipientHandlers = (engine: EngineApi): Handlers => ({
  async pushRecipientStop(ctx) {
    const session = ctx.request.session
    if (!session) throw new ApiError('401')
    const call = { tenantId: ctx.request.tenant.id, session, language: ctx.request.language }
    const { id, version } = ctx.input
    await ctx.inTenant((trx) =>
      engine.transition(trx, { entity: 'pushRecipient' }, call, { id, version, transition: 'abort' }),
    )
    return { state: true }
  },
})
