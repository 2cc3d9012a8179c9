import { createHash, randomBytes } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import { Kysely, PGliteDialect } from 'kysely'
import pg from 'pg'
import { type Database, openDatabase } from '../../server/db/database.ts'
import { prepareDatabase } from '../../server/db/prepare.ts'
import type { DB } from '../../server/db/schema.ts'
import { loadManifest } from '../../server/manifest.ts'
import { now } from '../../server/tenancy/clock.ts'

/**
 * Seed once, clone per test file (issue #20): migrating and seeding takes seconds, copying the result a
 * fraction of that. The template is named by a hash of everything the seed reads — the server, model and
 * rules code, the generated manifest and code, the locales, the lockfile and this support code — and by the
 * clock hour it was seeded in, since the demo data is placed around "now" (server/tenancy/clock.ts, which
 * WAYBILL_NOW moves). A template of other code or of another hour is never used: the first file that asks
 * for one that does not exist yet builds it. docs/TESTING.md says how to force a rebuild.
 * WAYBILL_TEST_TEMPLATE=off migrates and seeds every file's database as before.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const INPUTS = [
  'server',
  'model',
  'rules',
  'generated',
  'locales',
  'package-lock.json',
  'tests/support/database.ts',
  'tests/support/template.ts',
]
const HOUR_MS = 3_600_000
/** PGlite templates live in the checkout's tool cache, so a clean clone starts without one. */
export const PGLITE_TEMPLATES = join(ROOT, 'node_modules/.cache/waybill-test-templates')
/** PostgreSQL templates are databases of this prefix on the DATABASE_URL server. */
export const POSTGRES_TEMPLATE_PREFIX = 'waybill_template_'

export const templatesEnabled = () => process.env.WAYBILL_TEST_TEMPLATE !== 'off'

/** `<hour>_<hash>`: the clock hour since 1970 and the first 12 hex digits of the inputs' hash. */
export function templateKey(): string {
  const hash = createHash('sha256')
  const add = (path: string) => {
    const full = join(ROOT, path)
    if (statSync(full, { throwIfNoEntry: false })?.isDirectory()) {
      for (const entry of readdirSync(full).sort()) add(join(path, entry))
    } else {
      // A missing input (no locales yet, say) hashes as missing rather than failing.
      hash.update(`${path}\0`).update(statSync(full, { throwIfNoEntry: false }) ? readFileSync(full) : '-')
    }
  }
  for (const input of INPUTS) add(input)
  return `${Math.floor(now().getTime() / HOUR_MS)}_${hash.digest('hex').slice(0, 12)}`
}

/** Finished templates kept besides the newest: runs of other keys (WAYBILL_NOW, code edited since) at once. */
const KEPT = 3

/**
 * Which of `names` (keys, newest first) may go once `key` is built: the finished templates past the KEPT
 * newest — a process still asking for one rebuilds it, freshDatabase retries once — and the builds of an
 * hour that is over, as one of this hour may be running right now.
 */
function obsolete(namesNewestFirst: string[], key: string): string[] {
  const finished = namesNewestFirst.filter((name) => /^\d+_[0-9a-f]{12}$/.test(name) && name !== key)
  const hour = (name: string) => Number(name.split('_')[0])
  return [
    ...finished.slice(KEPT - 1),
    ...namesNewestFirst.filter((name) => !finished.includes(name) && name !== key && hour(name) < hour(key) - 1),
  ]
}

async function migrateAndSeed(database: Database): Promise<void> {
  await prepareDatabase(database, loadManifest(), { seed: true })
}

/**
 * The tarball of a seeded PGlite data directory, built when missing. Two processes may build the same
 * one at once: each writes a file of its own and renames it into place, so a reader never sees half.
 */
export async function pgliteTemplate(key = templateKey()): Promise<Blob> {
  const file = join(PGLITE_TEMPLATES, `${key}.tar`)
  try {
    return new Blob([readFileSync(file)])
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOENT') throw error
  }
  const pglite = new PGlite()
  const db = new Kysely<DB>({ dialect: new PGliteDialect({ pglite }) })
  let tarball: Blob
  try {
    await migrateAndSeed({
      db,
      api: db,
      kind: 'pglite',
      listen: (c, on) => pglite.listen(c, on),
      close: async () => {},
    })
    // Uncompressed: a clone then starts without unpacking it.
    tarball = await pglite.dumpDataDir('none')
  } finally {
    await db.destroy()
    if (!pglite.closed) await pglite.close()
  }
  const bytes = new Uint8Array(await tarball.arrayBuffer())
  mkdirSync(PGLITE_TEMPLATES, { recursive: true })
  const partial = join(PGLITE_TEMPLATES, `${key}_${randomBytes(3).toString('hex')}.partial`)
  writeFileSync(partial, bytes)
  renameSync(partial, file)
  // Each is tens of megabytes.
  const files = readdirSync(PGLITE_TEMPLATES)
    .map((name) => ({ name, at: statSync(join(PGLITE_TEMPLATES, name), { throwIfNoEntry: false })?.mtimeMs ?? 0 }))
    .sort((a, b) => b.at - a.at)
  const keyOf = (name: string) => name.replace(/\.(tar|partial)$/, '')
  const gone = obsolete(
    files.map((f) => keyOf(f.name)),
    key,
  )
  for (const { name } of files) if (gone.includes(keyOf(name))) rmSync(join(PGLITE_TEMPLATES, name), { force: true })
  return new Blob([bytes])
}

async function asAdmin<T>(adminUrl: string, work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  try {
    return await work(admin)
  } finally {
    await admin.end()
  }
}

const urlOf = (adminUrl: string, name: string) => {
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return url.toString()
}

/**
 * The name of a seeded template database on the server of `adminUrl`, built when missing. It is built
 * under a name of its own and renamed into place; it then takes no connections, since PostgreSQL copies
 * a database only while nobody is connected to it. Two processes building at once: the second rename
 * finds the name taken and that copy is dropped.
 */
export async function postgresTemplate(adminUrl: string, key = templateKey()): Promise<string> {
  const name = `${POSTGRES_TEMPLATE_PREFIX}${key}`
  const exists = async () =>
    asAdmin(
      adminUrl,
      async (admin) => (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1,
    )
  if (await exists()) return name
  const building = `${name}_${randomBytes(3).toString('hex')}`
  await asAdmin(adminUrl, (admin) => admin.query(`create database ${building}`))
  const database = await openDatabase({ databaseUrl: urlOf(adminUrl, building) })
  try {
    await migrateAndSeed(database)
  } catch (error) {
    await database.close()
    await asAdmin(adminUrl, (admin) => admin.query(`drop database if exists ${building} with (force)`))
    throw error
  }
  await database.close()
  await asAdmin(adminUrl, async (admin) => {
    await admin.query(`alter database ${building} with allow_connections false`)
    try {
      await admin.query(`alter database ${building} rename to ${name}`)
    } catch (error) {
      // 42P04: another process put its template in place first.
      if ((error as { code?: string }).code !== '42P04') throw error
      await admin.query(`drop database if exists ${building} with (force)`)
    }
    // Database oids grow: the newest first.
    const { rows } = await admin.query<{ datname: string }>(
      'select datname from pg_database where starts_with(datname, $1) order by oid desc',
      [POSTGRES_TEMPLATE_PREFIX],
    )
    const keys = rows.map(({ datname }) => datname.slice(POSTGRES_TEMPLATE_PREFIX.length))
    for (const gone of obsolete(keys, key))
      await admin.query(`drop database if exists ${POSTGRES_TEMPLATE_PREFIX}${gone} with (force)`)
  })
  return name
}
