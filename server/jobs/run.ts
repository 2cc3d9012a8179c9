import type { Database } from '../db/database.ts'
import type { ChannelContext } from './channels.ts'
import { mailboxDir } from './mail/channel.ts'
import { OutboxWorker } from './worker.ts'

/** Starts the outbox worker on the API's connection (row-level security on, as requests have it). */
export function startWorker(database: Database, dataDir: string, log?: ChannelContext['log']): OutboxWorker {
  const worker = new OutboxWorker({ db: database.api, dataDir, ...(log ? { log } : {}) })
  worker.start()
  return worker
}

/** The start banner's line on where messages go. */
export function deliveryBanner(dataDir: string, running: boolean, env: NodeJS.ProcessEnv = process.env): string {
  if (!running) return 'Outbox: not delivered by this process (OUTBOX_WORKER=off); run `npm run worker`.'
  if (env.SMTP_URL) return `Mail: sent over SMTP (${new URL(env.SMTP_URL).host}).`
  return `Mail: no SMTP_URL, so mails are written to ${mailboxDir(dataDir)}/*.eml (open them in any mail program).`
}
