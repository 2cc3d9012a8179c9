import { readConfig } from '../config.ts'
import { loadManifest } from '../manifest.ts'
import { openDatabase } from './database.ts'
import { prepareDatabase } from './prepare.ts'

/**
 * `waybill migrate`: the migrations and the entity tables, without the demo seed. The CLI (a build tool)
 * reaches the database only through this entry point.
 */
export async function migrate(): Promise<{ migrations: string[]; tables: string[] }> {
  const config = readConfig()
  const database = await openDatabase({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    ownerUrl: config.ownerUrl,
  })
  try {
    const { migrations, tables } = await prepareDatabase(database, loadManifest(), { seed: false })
    return { migrations, tables }
  } finally {
    await database.close()
  }
}
