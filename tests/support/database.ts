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
  const name = `waybill_test_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  const database = await openDatabase({ databaseUrl: url.toString() })
  await prepare(database)
  return {
    ...database,
    async close() {
      await database.close()
      const drop = new pg.Client({ connectionString: adminUrl })
      await drop.connect()
      await drop.query(`drop database if exists ${name} with (force)`)
      await drop.end()
    },
  }
}

async function prepare(database: Database) {
  await prepareDatabase(database, loadManifest(), { seed: true })
}
