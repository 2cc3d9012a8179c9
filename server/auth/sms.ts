import type { FastifyBaseLogger } from 'fastify'
import type { Transaction } from 'kysely'
import type { DB } from '../db/schema.ts'
import { enqueue } from '../jobs/outbox.ts'
import { sealMessage } from '../jobs/sealed.ts'

/** Sends a text message to a mainland China mobile number. */
export interface SmsProvider {
  /** `template`: the provider template it is sent with (./jobs/providers) and that template's parameters. */
  send(to: string, text: string, template?: { name: string; params: string[] }): Promise<void>
}

/** Sends an e-mail. */
export interface MailProvider {
  send(to: string, subject: string, text: string): Promise<void>
}

/** The transaction a message belongs to: it is sent only if that transaction commits. */
export interface DeliveryScope {
  trx: Transaction<DB>
  tenantId: number
  log: FastifyBaseLogger
  /** The language the message is written in: the mail's layout (footer, lang) follows it. */
  language?: string
}

export interface Delivery {
  sms(scope: DeliveryScope): SmsProvider
  mail(scope: DeliveryScope): MailProvider
}

/** 138****8000, c***@example.com: enough to tell messages apart in a log, not enough to contact anyone. */
export function maskRecipient(to: string): string {
  const at = to.indexOf('@')
  if (at > 0) return `${to[0]}***${to.slice(at)}`
  return to.length > 7 ? `${to.slice(0, 3)}****${to.slice(-4)}` : '****'
}

/**
 * The default: messages go to the outbox in the caller's transaction and a worker delivers them.
 * What they say (a code, an initial password) is stored sealed (../jobs/sealed.ts): the worker opens it
 * with WAYBILL_AUTH_SECRET. The log names the outbox row and the masked recipient, never the text.
 */
export const outboxDelivery: Delivery = {
  sms: ({ trx, tenantId, log }) => ({
    async send(to, text, template) {
      const outboxId = await enqueue(trx, tenantId, 'sms', {
        to,
        ...(template ? { template: template.name } : {}),
        sealed: sealMessage('sms', to, { text, ...(template ? { params: template.params } : {}) }),
      })
      log.info({ outboxId, to: maskRecipient(to) }, 'SMS queued in the outbox')
    },
  }),
  mail: ({ trx, tenantId, log, language }) => ({
    async send(to, subject, text) {
      const outboxId = await enqueue(trx, tenantId, 'mail', {
        to,
        sealed: sealMessage('mail', to, { subject, text }),
        ...(language ? { language } : {}),
      })
      log.info({ outboxId, to: maskRecipient(to) }, 'mail queued in the outbox')
    },
  }),
}

let delivery: Delivery = outboxDelivery

/** Replaces how codes are sent (a direct SMS gateway, a test double); no argument restores the outbox. */
export function useDelivery(next: Delivery = outboxDelivery): void {
  delivery = next
}

export function currentDelivery(): Delivery {
  return delivery
}
