import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../server/db/database.ts'
import { prepareDatabase } from '../../server/db/prepare.ts'
import { enqueue } from '../../server/jobs/outbox.ts'
import { loadManifest } from '../../server/manifest.ts'
import { withTenant } from '../../server/tenancy/scope.ts'
import { type RunningServer, STARTUP_MS, seededDataDir, startServer } from '../support/server.ts'
import { startSmtp } from '../support/smtp.ts'

/**
 * Issue #22's crash guard for delivery: the real server (npm start's entry point) delivers 1,000 queued mails
 * to an SMTP server in this process and is killed with SIGKILL in the middle. After a restart on the same
 * data every mail has arrived; the only duplicates (the same Message-ID twice) are mails that were in flight
 * at the kill, at most one lease batch (50), and each of them had arrived before the kill.
 */

const TOTAL = 1000
const BATCH = 50
const dataDir = mkdtempSync(join(tmpdir(), 'waybill-outbox-crash-'))
const running: RunningServer[] = []
afterAll(async () => {
  for (const server of running) await server.stop('SIGKILL')
  rmSync(dataDir, { recursive: true, force: true })
})

async function until(check: () => boolean, ms: number, what: string) {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

describe('delivery survives SIGKILL', () => {
  it(
    'delivers every one of 1,000 mails across a kill, duplicating only those in flight',
    async () => {
      // The data directory is prepared here, with the mails queued, before the server owns it: a copy of the seeded
      // template, brought up to date (nothing to do) and given the mails.
      await seededDataDir(dataDir)
      const database = await openDatabase({ dataDir })
      await prepareDatabase(database, loadManifest(), { seed: true })
      await withTenant(database.db, 1, async (trx) => {
        for (let n = 0; n < TOTAL; n++)
          await enqueue(trx, 1, 'mail', { to: `crash${n}@example.com`, subject: `Crash ${n}`, text: `Message ${n}` })
      })
      await database.close()

      const smtp = await startSmtp()
      const env = { SMTP_URL: smtp.url, OUTBOX_LEASE_MS: '2000', OUTBOX_POLL_MS: '100', LOG_LEVEL: 'silent' }
      const first = await startServer({ dataDir, env })
      running.push(first)
      await until(() => smtp.received.length >= 300, 60_000, '300 mails before the kill')
      await first.stop('SIGKILL')
      const beforeKill = new Set(smtp.received.map((m) => m.messageId))
      expect(beforeKill.size).toBeLessThan(TOTAL)

      const second = await startServer({ dataDir, env })
      running.push(second)
      await until(() => new Set(smtp.received.map((m) => m.messageId)).size >= TOTAL, 90_000, 'every mail')
      // A moment for any stray duplicate to arrive before counting.
      await new Promise((r) => setTimeout(r, 500))
      await second.stop('SIGTERM')
      await smtp.close()

      const counts = new Map<string, number>()
      for (const mail of smtp.received) counts.set(mail.messageId, (counts.get(mail.messageId) ?? 0) + 1)
      expect(counts.size).toBe(TOTAL)
      expect([...counts.keys()].every((k) => /^<outbox-\d+@localhost>$/.test(k))).toBe(true)
      const duplicates = [...counts].filter(([, count]) => count > 1).map(([messageId]) => messageId)
      expect(duplicates.length).toBeLessThanOrEqual(BATCH)
      for (const messageId of duplicates) {
        expect(counts.get(messageId)).toBe(2)
        expect(beforeKill.has(messageId)).toBe(true)
      }
      console.log(`outbox crash: ${beforeKill.size} delivered before the kill, ${duplicates.length} duplicated`)
    },
    2 * STARTUP_MS + 150_000,
  )
})
