import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { Kysely, PGliteDialect, PostgresDialect } from 'kysely'
import pg from 'pg'
import { lockDataDir } from './lock.ts'
import type { DB } from './schema.ts'

export type DatabaseKind = 'pglite' | 'postgres'

export interface Database {
  db: Kysely<DB>
  kind: DatabaseKind
  close(): Promise<void>
}

export interface DatabaseOptions {
  /** Embedded PGlite data lives in `<dataDir>/pglite`; ignored when `databaseUrl` is set. */
  dataDir?: string
  /** `memory://` keeps PGlite in memory (tests); otherwise a PostgreSQL connection string. */
  databaseUrl?: string
}

export async function openDatabase({ dataDir, databaseUrl }: DatabaseOptions): Promise<Database> {
  if (databaseUrl && databaseUrl !== 'memory://') {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: Number(process.env.DB_POOL_SIZE ?? 10) })
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) })
    return { db, kind: 'postgres', close: () => db.destroy() }
  }
  if (!databaseUrl && !dataDir) throw new Error('openDatabase needs a dataDir or a databaseUrl')
  const unlock = databaseUrl ? () => {} : lockDataDir(dataDir as string)
  try {
    const pglite = databaseUrl ? new PGlite() : new PGlite(join(dataDir as string, 'pglite'))
    await pglite.waitReady
    const db = new Kysely<DB>({ dialect: new PGliteDialect({ pglite }) })
    return {
      db,
      kind: 'pglite',
      async close() {
        await db.destroy()
        if (!pglite.closed) await pglite.close()
        unlock()
      },
    }
  } catch (error) {
    unlock()
    throw error
  }
}
