import { mkdir, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import nodemailer from 'nodemailer'
import { type Channel, type ChannelContext, delivered, fail, retry } from '../channels.ts'
import { renderMail, tenantName } from './templates.ts'

/**
 * Mail over SMTP (issue #22). `SMTP_URL` (`smtp://user:pass@host:port`, `smtps://…`) sends through a pooled
 * nodemailer transport; `MAIL_FROM` is the envelope sender (default `no-reply@<tenant host>`), shown with the
 * tenant's name. With no `SMTP_URL` (a newcomer's `npm start`), each mail is written as an RFC 822 file to
 * `<DATA_DIR>/mailbox/<outbox id>.eml` by nodemailer's stream transport: open it in any mail program.
 *
 * The Message-ID is `<outbox-<id>@<tenant host>>`: the same on every try, so a mail delivered twice (the
 * process died before it noted the send) is recognisable as one.
 */

export function messageId(outboxId: number, host: string): string {
  return `<outbox-${outboxId}@${host.replace(/:\d+$/, '')}>`
}

export function mailboxDir(dataDir: string): string {
  return join(dataDir, 'mailbox')
}

/** An SMTP reply code's class: 4xx and connection trouble are worth another try, 5xx are not. */
function classify(error: unknown): { retryable: boolean; reason: string } {
  const e = error as { responseCode?: number; code?: string; message?: string }
  const reason = `${e.responseCode ? `${e.responseCode} ` : ''}${e.message ?? String(error)}`.trim()
  if (e.responseCode && e.responseCode >= 500 && e.code !== 'EAUTH') return { retryable: false, reason }
  return { retryable: true, reason }
}

type Transport = ReturnType<typeof nodemailer.createTransport>

export function createMailChannel(): Channel {
  let smtp: { url: string; transport: Transport } | undefined
  const stream = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' })

  function transportFor(ctx: ChannelContext): Transport | undefined {
    const url = ctx.env.SMTP_URL
    if (!url) return undefined
    if (smtp?.url !== url) {
      smtp?.transport.close()
      const parsed = new URL(url)
      smtp = {
        url,
        transport: nodemailer.createTransport({
          pool: true,
          maxConnections: Number(ctx.env.SMTP_MAX_CONNECTIONS ?? 5),
          maxMessages: 1000,
          host: parsed.hostname,
          port: Number(parsed.port || (parsed.protocol === 'smtps:' ? 465 : 587)),
          secure: parsed.protocol === 'smtps:',
          ...(parsed.username
            ? { auth: { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) } }
            : {}),
          ignoreTLS:
            parsed.searchParams.get('ignoreTLS') === 'true' || ['127.0.0.1', 'localhost'].includes(parsed.hostname),
          connectionTimeout: 10_000,
          greetingTimeout: 10_000,
          socketTimeout: 30_000,
        }),
      }
    }
    return smtp.transport
  }

  return {
    async send(message, ctx) {
      const to = message.to
      if (!/^[^\s@<>]+@[^\s@<>]+$/.test(to)) return fail(`not a mail address: ${to.slice(0, 80)}`)
      const rendered = renderMail(message, ctx.tenant)
      const host = ctx.tenant.host.replace(/:\d+$/, '')
      const fromAddress = ctx.env.MAIL_FROM || `no-reply@${host.includes('.') ? host : `${host}.localdomain`}`
      const mail = {
        from: { name: tenantName(ctx.tenant, rendered.language), address: fromAddress },
        to,
        subject: rendered.subject,
        text: rendered.text,
        html: rendered.html,
        messageId: messageId(message.id, host),
        date: message.createdAt,
        headers: { 'X-Waybill-Outbox': String(message.id), 'Content-Language': rendered.language },
        ...(typeof message.payload.replyTo === 'string' ? { replyTo: message.payload.replyTo } : {}),
      }
      const transport = transportFor(ctx)
      try {
        if (transport) {
          const info = await transport.sendMail(mail)
          if (info.rejected?.length) return fail(`rejected: ${String(info.response ?? '')}`.slice(0, 500))
          return delivered
        }
        const info = await stream.sendMail(mail)
        const dir = mailboxDir(ctx.dataDir)
        await mkdir(dir, { recursive: true })
        const file = join(dir, `${String(message.id).padStart(8, '0')}.eml`)
        await writeFile(`${file}.tmp`, info.message as Buffer)
        await rename(`${file}.tmp`, file)
        return delivered
      } catch (error) {
        const { retryable, reason } = classify(error)
        return retryable ? retry(reason) : fail(reason)
      }
    },
    async close() {
      smtp?.transport.close()
      smtp = undefined
    },
  }
}
