import { buildApp } from './app.ts'
import { isPrimary, runPrimary, workersWanted } from './cluster.ts'
import { readConfig } from './config.ts'
import { openDatabase, UnsafeDatabaseRoleError } from './db/database.ts'
import { DataDirLockedError } from './db/lock.ts'
import { prepareDatabase } from './db/prepare.ts'
import { DEMO_PASSWORD, DEMO_USERS } from './db/seed/demo.ts'
import { startActorPrune } from './domain/analytics/prune.ts'
import { startDailyWatches } from './domain/watch/daily.ts'
import { registerBuiltInChannels } from './jobs/index.ts'
import { deliveryBanner, startWorker } from './jobs/run.ts'
import { loadManifest } from './manifest.ts'

const config = readConfig()

async function main() {
  const manifest = loadManifest()
  const database = await openDatabase({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    ownerUrl: config.ownerUrl,
  })
  try {
    const prepared = await prepareDatabase(database, manifest, { seed: config.seedOnFirstStart })
    if (prepared.migrations.length) console.log(`Migrations applied: ${prepared.migrations.join(', ')}`)
    if (prepared.referenceRows) console.log(`Reference lists loaded: ${prepared.referenceRows} rows.`)
    if (prepared.seeded) console.log('Seeded the demo tenants (localhost and acme.localhost).')
  } catch (error) {
    await database.close()
    throw error
  }

  const app = await buildApp({
    database,
    staticDir: config.staticDir,
    logger: process.env.LOG_LEVEL !== 'silent',
    trustedProxies: config.trustedProxies,
    apiKeyLimit: config.apiKeyLimit,
  })
  registerBuiltInChannels()
  // The outbox worker runs beside the API unless OUTBOX_WORKER=off (production runs `npm run worker`).
  const worker = process.env.OUTBOX_WORKER === 'off' ? undefined : startWorker(database, config.dataDir, app.log)
  let closing = false
  let stopWatches = () => {}
  let stopPrune = () => {}
  const shutdown = async (signal: string) => {
    if (closing) return
    closing = true
    console.log(`\n${signal}: closing the server and the database…`)
    try {
      stopWatches()
      stopPrune()
      await worker?.stop()
      await app.close()
      await database.close()
      process.exit(0)
    } catch (error) {
      console.error(error)
      process.exit(1)
    }
  }
  process.on('SIGINT', () => void shutdown('SIGINT'))
  process.on('SIGTERM', () => void shutdown('SIGTERM'))

  try {
    await app.listen({ port: config.port, host: config.host })
  } catch (error) {
    await database.close()
    throw error
  }
  // The daily look at price watches (server/domain/watch/daily.ts), in this process.
  stopWatches = startDailyWatches(database.db, database.api, config.priceWatchEveryMs)
  // The prune of closed days' analytics actor rows (server/domain/analytics/prune.ts), in this process.
  stopPrune = startActorPrune(database.db, database.api)
  const url = `http://localhost:${config.port}`
  console.log(
    `\nWaybill is running at ${url}  (database: ${database.kind}${database.kind === 'pglite' ? `, ${config.dataDir}` : ''})`,
  )
  console.log(`Second tenant: http://acme.localhost:${config.port}`)
  console.log(deliveryBanner(config.dataDir, !!worker))
  console.log(`Demo logins (password ${DEMO_PASSWORD}): ${DEMO_USERS.map((u) => u.username).join(', ')}`)
}

/**
 * With WAYBILL_WORKERS (server/cluster.ts), this first process prepares the database once — migrations and the
 * first seed, which several workers must not race over — then forks the workers, each of which runs `main`.
 */
async function primary(count: number) {
  if (!config.databaseUrl) {
    console.error('WAYBILL_WORKERS needs PostgreSQL (DATABASE_URL): the embedded PGlite is one process. Serving alone.')
    return main()
  }
  const database = await openDatabase({ databaseUrl: config.databaseUrl, ownerUrl: config.ownerUrl })
  try {
    await prepareDatabase(database, loadManifest(), { seed: config.seedOnFirstStart })
  } finally {
    await database.close()
  }
  runPrimary(count)
}

const workers = isPrimary() ? workersWanted(process.env.WAYBILL_WORKERS) : 0
;(workers > 1 ? primary(workers) : main()).catch((error) => {
  if (error instanceof DataDirLockedError || error instanceof UnsafeDatabaseRoleError)
    console.error(`\n${error.message}\n`)
  else console.error(error)
  process.exit(1)
})
