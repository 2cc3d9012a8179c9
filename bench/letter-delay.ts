import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import nodemailer from 'nodemailer'
import { buildApp } from '../server/app.ts'
import { openDatabase } from '../server/db/database.ts'
import { prepareDatabase } from '../server/db/prepare.ts'
import { DEMO_PASSWORD } from '../server/db/seed/demo.ts'
import { channelFor } from '../server/jobs/channels.ts'
import { registerBuiltInChannels } from '../server/jobs/index.ts'
import { OutboxWorker } from '../server/jobs/worker.ts'
import { loadManifest } from '../server/manifest.ts'
import { directFcl } from '../tests/support/booking.ts'
import { smtpSink } from './mail.ts'

/**
 * Issue #22: the delay from an operator's confirmation of an order to the customer's mail arriving at an SMTP
 * server in this process — the confirm call, the letter and outbox row in its transaction, the worker's
 * lease, render and send. Measured with the worker woken by the commit (the default) and with polling only
 * (OUTBOX_POLL_MS 1 s), against a baseline of the same process doing the two things the delay cannot avoid:
 * the confirm call itself and one plain nodemailer send of a mail to the same server.
 */

const ROUNDS = Number(process.env.BENCH_LETTER_ROUNDS ?? 15)

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

export async function benchLetterDelay(): Promise<string[]> {
  const smtp = await smtpSink(true)
  const dataDir = mkdtempSync(join(tmpdir(), 'waybill-bench-letter-'))
  const database = await openDatabase({ databaseUrl: 'memory://' })
  try {
    await prepareDatabase(database, loadManifest(), { seed: true })
    const app = await buildApp({ database })
    registerBuiltInChannels()
    const login = async (username: string) =>
      (
        await app.inject({
          method: 'POST',
          url: '/api/b2b/user/login',
          headers: { host: 'localhost', resource: '1' },
          payload: { username, password: DEMO_PASSWORD },
        })
      ).json().token as string
    const customer = await login('entadmin')
    const operator = await login('opadmin')
    const post = async (url: string, token: string, payload: object) => {
      const body = (
        await app.inject({
          method: 'POST',
          url,
          headers: { host: 'localhost', language: 'en_US', authorization: `Bearer ${token}` },
          payload,
        })
      ).json()
      if (body.code !== '0000') throw new Error(`${url}: ${JSON.stringify(body).slice(0, 300)}`)
      return body.content as { id: number; version: number; orderNo: string }
    }
    /** Confirms ROUNDS orders one after another; answers the confirm calls' and the mails' delays (ms). */
    async function rounds(wakeOnCommit: boolean) {
      const worker = new OutboxWorker({ db: database.api, dataDir, env: { SMTP_URL: smtp.url }, wakeOnCommit })
      worker.start()
      const calls: number[] = []
      const delays: number[] = []
      try {
        for (let n = 0; n < ROUNDS; n++) {
          const order = await post('/api/booking/order/add', customer, { ...directFcl(), submit: true })
          const started = performance.now()
          await post('/api/booking/order/fcl/comfirm', operator, { id: order.id, version: order.version })
          calls.push(performance.now() - started)
          let arrived: number | undefined
          while (arrived === undefined) {
            arrived = smtp.arrivals.find((mail) => mail.at > started && mail.text.includes(order.orderNo))?.at
            if (arrived === undefined) await new Promise((r) => setTimeout(r, 2))
          }
          delays.push(arrived - started)
        }
      } finally {
        await worker.stop()
      }
      return { call: median(calls), delay: median(delays) }
    }

    // The baseline's other half: one plain send of a mail to the same server, after a warm-up.
    const plain = nodemailer.createTransport({ host: '127.0.0.1', port: smtp.port, ignoreTLS: true, pool: true })
    const sends: number[] = []
    for (let n = 0; n < ROUNDS + 2; n++) {
      const started = performance.now()
      await plain.sendMail({ from: 'no-reply@localhost', to: 'plain@example.com', subject: 'Plain', text: 'Plain' })
      if (n >= 2) sends.push(performance.now() - started)
    }
    plain.close()

    const woken = await rounds(true)
    const polled = await rounds(false)
    await channelFor('mail')?.close?.()
    await app.close()
    const send = median(sends)
    const floor = woken.call + send
    const ms = (value: number) => `${value.toFixed(0)} ms`
    return [
      `## Confirmation to mail (median of ${ROUNDS} orders, SMTP server in process)`,
      '',
      '| Path | Median | Ratio to baseline |',
      '| --- | --- | --- |',
      `| baseline: the confirm call (${ms(woken.call)}) + one plain nodemailer send (${ms(send)}) | ${ms(floor)} | 1.00 × |`,
      `| confirmation → mail, worker woken by the commit | ${ms(woken.delay)} | ${(woken.delay / floor).toFixed(2)} × |`,
      `| confirmation → mail, worker polling only (1 s) | ${ms(polled.delay)} | ${(polled.delay / floor).toFixed(2)} × |`,
    ]
  } finally {
    await database.close()
    await smtp.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log((await benchLetterDelay()).join('\n'))
