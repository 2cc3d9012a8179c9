import { type Kysely, sql } from 'kysely'
import type { DB } from '../../server/db/schema.ts'
import { outboxBody } from '../../server/jobs/sealed.ts'

/**
 * The codes the server sends (sign-in, registration, password reset), read where a sent code exists in clear: the
 * outbox's sealed messages, opened as the outbox worker opens them.
 */

/** The outbox's messages to `to` (a mobile number or an address), newest first. */
export function outboxTo(db: Kysely<DB>, to: string) {
  return db.selectFrom('outbox').selectAll().where(sql<boolean>`payload->>'to' = ${to}`).orderBy('id', 'desc').execute()
}

/** The six-digit code in the newest message to `to`; none there fails the test that asked. */
export async function codeSentTo(db: Kysely<DB>, to: string): Promise<string> {
  const [row] = await outboxTo(db, to)
  const code = row ? /(\d{6})/.exec(outboxBody(row.kind, row.payload).text)?.[1] : undefined
  if (!code) throw new Error(`no code in a message to ${to}`)
  return code
}
