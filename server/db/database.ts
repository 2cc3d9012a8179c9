import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { Kysely, PGliteDialect, PostgresDialect } from 'kysely'
import pg from 'pg'
import { lockDataDir } from './lock.ts'
import { PreparingClient } from './prepared.ts'
import { guardedDialect } from './requestTransaction.ts'
import { apiUrlFrom, currentRole, ensureApiRole, unsafeBecause } from './roles.ts'
import type { DB } from './schema.ts'

export type DatabaseKind = 'pglite' | 'postgres'

export interface Database {
  /** The owner's connection: migrations, table sync, seeding, operators' scripts and tests' inspection. */
  db: Kysely<DB>
  /** What the API serves requests with. On PostgreSQL a role row-level security binds; on PGlite the same as `db`. */
  api: Kysely<DB>
  kind: DatabaseKind
  /**
   * LISTEN on a channel: `onPayload` gets every NOTIFY's payload sent on it after it answers (by any process on
   * the same PostgreSQL; on PGlite, by this one). Answers a function that stops listening. The chat's fan-out
   * between processes (server/realtime/chatHub.ts, docs/DECISIONS.md).
   */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>
  close(): Promise<void>
}

export interface DatabaseOptions {
  /** Embedded PGlite data lives in `<dataDir>/pglite`; ignored when `databaseUrl` is set. */
  dataDir?: string
  /** `memory://` keeps PGlite in memory (tests); otherwise the API's PostgreSQL connection string. */
  databaseUrl?: string
  /** PostgreSQL: the owner's connection string for migrations; defaults to `databaseUrl`. */
  ownerUrl?: string
  /** `memory://` only: start from this PGlite data directory (a `dumpDataDir()` tarball) instead of an empty one. */
  loadDataDir?: Blob
}

/**
 * A pool whose connections may die (a database restart, an administrator's terminate, a dropped test
 * database) without taking the process down. pg emits 'error' on the pool for an idle connection, and on the
 * client itself for one a request holds (inside a transaction, between two statements); an unhandled 'error'
 * event would crash the process — found by the scale-out test's PostgreSQL restart under load (issue #29). The
 * request holding it fails with its next statement (an error answer, its transaction rolled back by the server);
 * the pool drops the broken connection, and the next query opens a fresh one.
 */
function pool(connectionString: string, max: number): pg.Pool {
  const created = new pg.Pool({ connectionString, max, Client: PreparingClient })
  const lost = (error: Error) => {
    if ((error as { code?: string }).code !== '57P01') console.error(`database connection lost: ${error.message}`)
  }
  created.on('error', lost)
  created.on('connect', (client) => client.on('error', lost))
  return created
}

/**
 * A connection of its own that LISTENs (a pooled one would be handed to queries): it reconnects after a
 * second when the connection is lost, and a NOTIFY sent while it was away is missed — which is why the chat's
 * sockets resume from their last message id (server/realtime/chatHub.ts) rather than trust every event.
 */
async function listenOnPostgres(
  url: string,
  channel: string,
  onPayload: (payload: string) => void,
): Promise<() => Promise<void>> {
  let client: pg.Client | undefined
  let stopped = false
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url })
    next.on('notification', (message) => {
      if (message.channel === channel && message.payload !== undefined) onPayload(message.payload)
    })
    next.on('error', () => {})
    next.on('end', () => {
      if (!stopped) setTimeout(() => void connect().catch(() => {}), 1000).unref()
    })
    await next.connect()
    await next.query(`listen ${pg.escapeIdentifier(channel)}`)
    client = next
  }
  await connect()
  return async () => {
    stopped = true
    await client?.end().catch(() => {})
  }
}

/**
 * Opens the database. The API connection is made later by `connectApi`, once migrations have created
 * the roles it needs.
 */
export async function openDatabase({
  dataDir,
  databaseUrl,
  ownerUrl,
  loadDataDir,
}: DatabaseOptions): Promise<Database> {
  if (databaseUrl && databaseUrl !== 'memory://') {
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: pool(ownerUrl ?? databaseUrl, 2) }) })
    const database: Database & { apiUrl: string; separateOwner: boolean } = {
      db,
      api: db,
      kind: 'postgres',
      apiUrl: databaseUrl,
      separateOwner: !!ownerUrl && ownerUrl !== databaseUrl,
      listen: (channel, onPayload) => listenOnPostgres(ownerUrl ?? databaseUrl, channel, onPayload),
      async close() {
        if (database.api !== db) await database.api.destroy()
        await db.destroy()
      },
    }
    return database
  }
  if (!databaseUrl && !dataDir) throw new Error('openDatabase needs a dataDir or a databaseUrl')
  const unlock = databaseUrl ? () => {} : lockDataDir(dataDir as string)
  try {
    const pglite = databaseUrl ? new PGlite({ loadDataDir }) : new PGlite(join(dataDir as string, 'pglite'))
    await pglite.waitReady
    const db = new Kysely<DB>({ dialect: guardedDialect(new PGliteDialect({ pglite })) })
    return {
      db,
      // One process, one user: requests switch to the row-level-security role per transaction (withTenant).
      api: db,
      kind: 'pglite',
      async listen(channel, onPayload) {
        return pglite.listen(channel, onPayload)
      },
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

/**
 * On PostgreSQL, connects the API as a role that is neither superuser nor BYPASSRLS and owns no tables,
 * and refuses to go on otherwise (docs/SECURITY.md). With only a superuser `DATABASE_URL` (a developer's
 * server, CI), the API connects as the `waybill_api` role this creates.
 */
export async function connectApi(database: Database): Promise<void> {
  if (database.kind !== 'postgres') return
  const { apiUrl, separateOwner } = database as Database & { apiUrl: string; separateOwner: boolean }
  let url = apiUrl
  if (!separateOwner) {
    const owner = await currentRole(database.db as never)
    if (owner.superuser) {
      await ensureApiRole(database.db as never)
      url = apiUrlFrom(apiUrl)
    }
  }
  const api = new Kysely<DB>({
    // A request's session holds its transaction for the handler (./requestTransaction.ts).
    dialect: guardedDialect(new PostgresDialect({ pool: pool(url, Number(process.env.DB_POOL_SIZE ?? 10)) })),
  })
  const problem = unsafeBecause(await currentRole(api as never))
  if (problem) {
    await api.destroy()
    throw new UnsafeDatabaseRoleError(problem)
  }
  database.api = api
}

export class UnsafeDatabaseRoleError extends Error {
  constructor(problem: string) {
    super(
      `Refusing to serve: ${problem}. Connect the API as a role without superuser, BYPASSRLS or table ownership ` +
        '(DATABASE_URL), and run migrations as the owner (DATABASE_OWNER_URL). See docs/SECURITY.md.',
    )
  }
}
