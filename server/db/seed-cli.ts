import { readConfig } from '../config.ts'
import { loadManifest } from '../manifest.ts'
import { openDatabase } from './database.ts'
import { prepareDatabase } from './prepare.ts'

/** `npm run seed`: migrate, then seed the demo tenants into an empty database — the only way a PostgreSQL server gets them. */
const config = readConfig()
const database = await openDatabase({
  dataDir: config.dataDir,
  databaseUrl: config.databaseUrl,
  ownerUrl: config.ownerUrl,
})
try {
  const { seeded } = await prepareDatabase(database, loadManifest(), { seed: true })
  console.log(
    seeded
      ? `Seeded the demo tenants into ${database.kind === 'pglite' ? config.dataDir : 'the PostgreSQL database'}.`
      : 'The database already has tenants: nothing seeded.',
  )
} finally {
  await database.close()
}
