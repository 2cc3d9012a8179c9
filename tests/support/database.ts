import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { connectApi, type Database, openDatabase } from '../../server/db/database.ts'
import { prepareDatabase } from '../../server/db/prepare.ts'
import { loadManifest } from '../../server/manifest.ts'
import { pgliteTemplate, postgresTemplate, templatesEnabled } from './template.ts'

/** A test file's database; on PostgreSQL with its connection string, for another server process to open. */
export interface FreshDatabase extends Database {
  /** The copy's connection string (PostgreSQL only): a server process of its own (./server.ts) may share it. */
  url?: string
}

/**
 * A fresh, migrated and seeded database for one test file: in-memory PGlite, or — with TEST_DB=postgres, or
 * `kind` 'postgres' — a database of its own on the DATABASE_URL server, dropped when the test file is done.
 * Each is a copy of the seeded template (tests/support/template.ts); the API's connection is made for the copy
 * itself, since PostgreSQL does not copy who may connect to a database.
 */
export async function freshDatabase(
  kind: 'pglite' | 'postgres' = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite',
): Promise<FreshDatabase> {
  const templates = templatesEnabled()
  if (kind !== 'postgres') {
    if (templates) return openDatabase({ databaseUrl: 'memory://', loadDataDir: await pgliteTemplate() })
    const database = await openDatabase({ databaseUrl: 'memory://' })
    await prepare(database)
    return database
  }
  const adminUrl = process.env.DATABASE_URL
  if (!adminUrl) throw new Error('a PostgreSQL test database (TEST_DB=postgres) needs DATABASE_URL')
  let template = templates ? await postgresTemplate(adminUrl) : undefined
  const scratch = await scratchDatabase(adminUrl, 'waybill_test', template).catch(async (error) => {
    // 3D000: the template went while this file asked for it (another run built one of newer code).
    if (!template || (error as { code?: string }).code !== '3D000') throw error
    template = await postgresTemplate(adminUrl)
    return scratchDatabase(adminUrl, 'waybill_test', template)
  })
  const database = await openDatabase({ databaseUrl: scratch.url })
  if (template) await connectApi(database)
  else await prepare(database)
  return {
    ...database,
    url: scratch.url,
    async close() {
      await database.close()
      await scratch.drop()
    },
  }
}

/**
 * A database of its own on the PostgreSQL server of `adminUrl` (tests, the crash guard's server, the load
 * bench) — empty, or a copy of `template` — its connection string, and the drop that ends it.
 */
export async function scratchDatabase(
  adminUrl: string,
  prefix: string,
  template?: string,
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
  await run(template ? `create database ${name} template ${template}` : `create database ${name}`)
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return { url: url.toString(), drop: () => run(`drop database if exists ${name} with (force)`) }
}

async function prepare(database: Database) {
  await prepareDatabase(database, loadManifest(), { seed: true })
}
