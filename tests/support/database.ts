import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { type Database, openDatabase } from '../../server/db/database.ts'
import { prepareDatabase } from '../../server/db/prepare.ts'
import { loadManifest } from '../../server/manifest.ts'

/**
 * A fresh, migrated and seeded database for one test file: in-memory PGlite, or — with TEST_DB=postgres —
 * a database of its own on the DATABASE_URL server, dropped when the test file is done.
 */
export async function freshDatabase(): Promise<Database> {
  if (process.env.TEST_DB !== 'postgres') {
    const database = await openDatabase({ databaseUrl: 'memory://' })
    await prepare(database)
    return database
  }
  const adminUrl = process.env.DATABASE_URL
  if (!adminUrl) throw new Error('TEST_DB=postgres needs DATABASE_URL')
  const scratch = await scratchDatabase(adminUrl, 'waybill_test')
  const database = await openDatabase({ databaseUrl: scratch.url })
  await prepare(database)
  return {
    ...database,
    async close() {
      await database.close()
      await scratch.drop()
    },
  }
}

/**
 * An empty database of its own on the PostgreSQL server of `adminUrl` (tests, the crash guard's server, the
 * load bench): its connection string, and the drop that ends it.
 */
export async function scratchDatabase(
  adminUrl: string,
  prefix: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`
  const run = async (statement: string) => {
    const admin = new pg.Client({ connectionString: adminUrl })
    await admin.connect()
    try {
      await admin.query(statement)
    } finally {
      await admin.end()
    }
  }
  await run(`create database ${name}`)
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return { url: url.toString(), drop: () => run(`drop database if exists ${name} with (force)`) }
}

async function prepare(database: Database) {
  await prepareDatabase(database, loadManifest(), { seed: true })
}
