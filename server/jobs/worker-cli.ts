import { readConfig } from '../config.ts'
import { connectApi, openDatabase } from '../db/database.ts'
import { registerWebhookChannel } from '../domain/webhooks/channel.ts'
import { registerBuiltInChannels } from './index.ts'
import { deliveryBanner, startWorker } from './run.ts'

/**
 * `npm run worker`: the outbox worker as its own process (production: run the API with OUTBOX_WORKER=off and
 * one or more of these on the same PostgreSQL; docs/SCALING.md). It does not migrate: the server does.
 * SIGINT / SIGTERM let the sends in flight finish and give back the rest of its lease.
 */
const config = readConfig()
const database = await openDatabase({
  dataDir: config.dataDir,
  databaseUrl: config.databaseUrl,
  ownerUrl: config.ownerUrl,
})
await connectApi(database)
registerBuiltInChannels()
registerWebhookChannel()
const worker = startWorker(database, config.dataDir, {
  info: (obj, msg) => console.log(msg ?? '', JSON.stringify(obj)),
  warn: (obj, msg) => console.warn(msg ?? '', JSON.stringify(obj)),
})
console.log(`Outbox worker running (database: ${database.kind}). ${deliveryBanner(config.dataDir, true)}`)
let closing = false
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, async () => {
    if (closing) return
    closing = true
    console.log(`${signal}: finishing the sends in flight…`)
    await worker.stop()
    await database.close()
    process.exit(0)
  })
