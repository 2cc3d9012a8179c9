import type { Manifest } from '../../model/resolve.ts'
import { syncEntityTables } from '../engine/storage.ts'
import { connectApi, type Database } from './database.ts'
import { migrateToLatest } from './migrate.ts'
import { syncPresetRoles } from './presetRoles.ts'
import { isEmpty, seedDemo } from './seed/demo.ts'
import { loadReferenceData } from './seed/reference-tables.ts'

export interface Prepared {
  migrations: string[]
  tables: string[]
  referenceRows: number
  seeded: boolean
  /** Preset roles inserted or brought up to date from the YAML (0 when the database already matched it). */
  presetRoles: number
}

/**
 * Everything between opening a database and serving from it, in one order for the server, the tests and
 * the CLI: migrations, the entity tables of the manifest, the reference lists (every deployment needs
 * them), the demo tenants when asked and the database is empty, every tenant's preset roles as the YAML has
 * them now, then the API's own connection.
 */
export async function prepareDatabase(
  database: Database,
  manifest: Manifest,
  { seed }: { seed: boolean },
): Promise<Prepared> {
  const migrations = await migrateToLatest(database.db as never)
  const tables = await syncEntityTables(database.db, manifest)
  const referenceRows = await loadReferenceData(database.db as never)
  const seeded = seed && (await isEmpty(database.db))
  if (seeded) await seedDemo(database.db, manifest)
  const presetRoles = await syncPresetRoles(database.db, manifest)
  await connectApi(database)
  return { migrations, tables, referenceRows, seeded, presetRoles }
}
