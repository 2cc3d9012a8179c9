import { AsyncLocalStorage } from 'node:async_hooks'
import type { ControlledTransaction, DatabaseConnection, Dialect, Driver, Kysely, TransactionSettings } from 'kysely'
import type { DB } from './schema.ts'

/**
 * The request's transaction (issue #29, speed): a signed-in call used to read its session in a round trip of
 * its own and then open its transaction (begin, the tenant's settings) — the session now opens the transaction
 * and reads itself in its first statement (server/auth/session.ts), and the handler's first `withTenant` for the
 * same database and tenant takes that transaction over instead of opening another: one transaction, one round
 * trip fewer on every signed-in call.
 *
 * A transaction held open between the request's hooks and its handler holds a connection — PGlite's only one,
 * which every other request waits for. So it is held only while nothing else can wait on it:
 * - it is opened only once the request's body has arrived (a slow upload never holds it, server/app.ts);
 * - the handler runs in this request's scope (`inRequestScope`): any other connection it asks for — a query
 *   outside `withTenant`, another tenant's transaction — first releases the held one (`guardedDialect`), so a
 *   request can never wait on itself;
 * - work that waits on something other than the database (hashing a password) releases it first
 *   (`releaseRequestTransaction`);
 * - whatever the handler did not take is released when the request ends, answered or not.
 * A released transaction is committed: it holds nothing but the session's read and, at most once a minute, its
 * touch (server/auth/session.ts).
 */
export class HeldTransaction {
  #trx: ControlledTransaction<DB> | undefined
  #released: Promise<void> | undefined

  constructor(
    readonly db: Kysely<DB>,
    readonly tenantId: number,
    trx: ControlledTransaction<DB>,
  ) {
    this.#trx = trx
  }

  /** The open transaction, handed over once: its taker commits or rolls it back. */
  take(db: Kysely<DB>, tenantId: number): ControlledTransaction<DB> | undefined {
    if (db !== this.db || tenantId !== this.tenantId) return undefined
    const trx = this.#trx
    this.#trx = undefined
    return trx
  }

  /** Whether nobody took it and it is still open. */
  get open(): boolean {
    return this.#trx !== undefined
  }

  /** Commits it if nobody took it (idempotent; a failed commit is logged by nobody: the work in it was a read). */
  release(): Promise<void> {
    const trx = this.#trx
    this.#trx = undefined
    if (!trx) return this.#released ?? Promise.resolve()
    this.#released = trx
      .commit()
      .execute()
      .catch(() => trx.rollback().execute())
      .catch(() => {})
    return this.#released
  }
}

/**
 * Rolls back a transaction whose work failed, quietly: the work's error is what the caller reports, and a rollback
 * that fails too (the connection broke, which is often why the work failed) has nothing to add to it.
 */
export async function rollBackQuietly(trx: ControlledTransaction<DB>): Promise<void> {
  await trx
    .rollback()
    .execute()
    .catch(() => {})
}

const scope = new AsyncLocalStorage<HeldTransaction>()
const heldBy = new WeakMap<object, HeldTransaction>()

/** Keeps `held` as `owner`'s (the request's) until it is taken or released. */
export function holdFor(owner: object, held: HeldTransaction): void {
  heldBy.set(owner, held)
}

/** The transaction `owner` holds, if any (taken or not). */
export function heldOf(owner: object): HeldTransaction | undefined {
  return heldBy.get(owner)
}

/** Runs `work` (the handler) where `withTenant` and the guarded driver see the request's transaction. */
export function inRequestScope<T>(held: HeldTransaction | undefined, work: () => T): T {
  return held ? scope.run(held, work) : work()
}

/** The request's transaction for this database and tenant, if it is still open in this scope: it is yours now. */
export function takeRequestTransaction(db: Kysely<DB>, tenantId: number): ControlledTransaction<DB> | undefined {
  return scope.getStore()?.take(db, tenantId)
}

/** Releases the request's transaction of this scope if nobody took it: before work that does not need it. */
export async function releaseRequestTransaction(): Promise<void> {
  const held = scope.getStore()
  if (held?.open) await held.release()
}

/**
 * A dialect whose driver releases the request's untaken transaction before it hands out another connection in
 * the request's scope: on PGlite (one connection) that connection is the held one, on PostgreSQL a pool of N
 * would otherwise deadlock with N requests each holding one and asking for a second.
 */
export function guardedDialect(dialect: Dialect): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createDriver: () => new GuardedDriver(dialect.createDriver()),
  }
}

class GuardedDriver implements Driver {
  constructor(private readonly inner: Driver) {}
  init(...args: Parameters<Driver['init']>) {
    return this.inner.init(...args)
  }
  async acquireConnection(...args: Parameters<Driver['acquireConnection']>): Promise<DatabaseConnection> {
    await releaseRequestTransaction()
    return this.inner.acquireConnection(...args)
  }
  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    return this.inner.beginTransaction(connection, settings)
  }
  commitTransaction(connection: DatabaseConnection) {
    return this.inner.commitTransaction(connection)
  }
  rollbackTransaction(connection: DatabaseConnection) {
    return this.inner.rollbackTransaction(connection)
  }
  releaseConnection(connection: DatabaseConnection) {
    return this.inner.releaseConnection(connection)
  }
  destroy() {
    return this.inner.destroy()
  }
  savepoint(...args: Parameters<NonNullable<Driver['savepoint']>>) {
    return (this.inner.savepoint as NonNullable<Driver['savepoint']>).apply(this.inner, args)
  }
  rollbackToSavepoint(...args: Parameters<NonNullable<Driver['rollbackToSavepoint']>>) {
    return (this.inner.rollbackToSavepoint as NonNullable<Driver['rollbackToSavepoint']>).apply(this.inner, args)
  }
  releaseSavepoint(...args: Parameters<NonNullable<Driver['releaseSavepoint']>>) {
    return (this.inner.releaseSavepoint as NonNullable<Driver['releaseSavepoint']>).apply(this.inner, args)
  }
}
