import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import nodemailer from 'nodemailer'
import { SMTPServer } from 'smtp-server'
import { openDatabase } from '../server/db/database.ts'
import { prepareDatabase } from '../server/db/prepare.ts'
import { channelFor } from '../server/jobs/channels.ts'
import { registerBuiltInChannels } from '../server/jobs/index.ts'
import { enqueue } from '../server/jobs/outbox.ts'
import { OutboxWorker } from '../server/jobs/worker.ts'
import { loadManifest } from '../server/manifest.ts'
import { withTenant } from '../server/tenancy/scope.ts'

/**
 * 10,000 mails through the outbox worker (lease, render in the tenant's layout, SMTP, settle) on in-memory
 * PGlite to an SMTP server in this process, against nodemailer sending the same number of mails to the same
 * server in a plain loop (one pooled transport, one `await sendMail` after another). Same process, same server.
 */

const MAILS = Number(process.env.BENCH_MAILS ?? 10_000)

/** An SMTP server in this process counting what arrives; with `keep`, each mail's arrival time and text too. */
export async function smtpSink(keep = false) {
  let count = 0
  const arrivals: { at: number; text: string }[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      let text = ''
      stream.on('data', (chunk: Buffer) => {
        if (keep) text += chunk.toString('latin1')
      })
      stream.on('end', () => {
        count++
        if (keep) arrivals.push({ at: performance.now(), text })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.server.address() as { port: number }).port
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    count: () => count,
    arrivals,
    close: () => new Promise<void>((r) => server.close(() => r())),
  }
}

export async function benchMail(): Promise<string[]> {
  const smtp = await smtpSink()
  const dataDir = mkdtempSync(join(tmpdir(), 'waybill-bench-mail-'))
  const database = await openDatabase({ databaseUrl: 'memory://' })
  try {
    await prepareDatabase(database, loadManifest(), { seed: true })
    registerBuiltInChannels()

    const loopStarted = performance.now()
    const plain = nodemailer.createTransport({
      pool: true,
      maxConnections: 5,
      host: '127.0.0.1',
      port: smtp.port,
      ignoreTLS: true,
    })
    for (let n = 0; n < MAILS; n++)
      await plain.sendMail({
        from: 'no-reply@localhost',
        to: `bench${n}@example.com`,
        subject: `Bench ${n}`,
        text: `Message ${n}`,
        html: `<p>Message ${n}</p>`,
      })
    plain.close()
    const loopMs = performance.now() - loopStarted

    await withTenant(database.db, 1, async (trx) => {
      for (let n = 0; n < MAILS; n++)
        await enqueue(trx, 1, 'mail', { to: `bench${n}@example.com`, subject: `Bench ${n}`, text: `Message ${n}` })
    })
    const before = smtp.count()
    const worker = new OutboxWorker({ db: database.api, dataDir, env: { SMTP_URL: smtp.url } })
    const workerStarted = performance.now()
    while ((await worker.runOnce()) > 0) {}
    const workerMs = performance.now() - workerStarted
    const delivered = smtp.count() - before
    await channelFor('mail')?.close?.()

    const rate = (ms: number) => `${Math.round((MAILS / ms) * 1000)} mails/s`
    return [
      `## Mail delivery (${MAILS.toLocaleString('en')} mails, SMTP server in process)`,
      '',
      '| Path | Time | Rate |',
      '| --- | --- | --- |',
      `| nodemailer, plain loop | ${(loopMs / 1000).toFixed(1)} s | ${rate(loopMs)} |`,
      `| outbox worker (lease, layout, send, settle; ${delivered} delivered) | ${(workerMs / 1000).toFixed(1)} s | ${rate(workerMs)} |`,
      `| ratio worker / plain loop | ${(workerMs / loopMs).toFixed(2)} × | |`,
    ]
  } finally {
    await database.close()
    await smtp.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log((await benchMail()).join('\n'))
