import { createHash } from 'node:crypto'
import pg from 'pg'

/**
 * A pg client that keeps its parameterised statements prepared on its connection, so PostgreSQL parses
 * each distinct SQL text once per connection instead of on every call, and after five calls plans it
 * once (`plan_cache_mode` auto) where a generic plan is as good as a custom one. On the order list, detail
 * and tracking calls, parsing and planning were most of the database's time (docs/PERFORMANCE.md).
 *
 * Statements are named by a hash of their text (the same text always gets the same name), and a
 * connection keeps at most STATEMENTS_PER_CONNECTION of them, the least recently used deallocated first:
 * the engine writes one text per shape of query (the number of `in (…)` values, the filters sent), so the
 * set is large but bounded. Statements without parameters (begin, commit) go as they are.
 *
 * A `begin` is held back and goes with the transaction's first statement: in the same message when that
 * statement has no parameters (withTenant's settings, server/tenancy/scope.ts), so opening a tenant's
 * transaction is one round trip, not two; just before it otherwise. Every engine call pays for this
 * (docs/PERFORMANCE.md, issue #19: the order detail made six round trips to its baseline's four).
 */
export const STATEMENTS_PER_CONNECTION = 400

type QueryConfig = { text: string; values?: unknown[]; name?: string }

/** What a held-back `begin` answers: what PostgreSQL would, no rows. */
const HELD_BEGIN = { command: 'BEGIN', rowCount: null, oid: null, rows: [], fields: [] }

export class PreparingClient extends pg.Client {
  /** Names this connection prepared, least recently used first (a Map keeps insertion order). */
  readonly #prepared = new Map<string, string>()
  readonly #limit: number

  /** `maxPreparedStatements` (a pool passes its options on) bounds the statements kept; tests set it low. */
  constructor(config?: pg.ClientConfig & { maxPreparedStatements?: number }) {
    super(config)
    this.#limit = config?.maxPreparedStatements ?? STATEMENTS_PER_CONNECTION
  }

  /** A `begin` asked for and not sent yet. */
  #beginHeld = false

  // biome-ignore lint/suspicious/noExplicitAny: pg's query() is overloaded; this forwards every form.
  override query(config: any, values?: any, callback?: any): any {
    const promised = typeof config === 'string' && typeof callback !== 'function'
    const parameterised = promised && Array.isArray(values) && values.length > 0
    if (promised && !parameterised && /^\s*begin\s*$/i.test(config) && !this.#beginHeld) {
      this.#beginHeld = true
      return Promise.resolve(HELD_BEGIN)
    }
    if (this.#beginHeld) {
      this.#beginHeld = false
      // Two statements in one simple-protocol message answer a result each: the caller asked for the second.
      if (promised && !parameterised)
        return super
          .query(`begin; ${config}`)
          .then((results: pg.QueryResult | pg.QueryResult[]) =>
            Array.isArray(results) ? results[results.length - 1] : results,
          )
      // A callback's query (pg's own forms): the begin goes first in the queue; its failure is the next one's.
      if (!promised) super.query('begin').catch(() => {})
      else return super.query('begin').then(() => this.query(config, values))
    }
    if (parameterised) return super.query(this.#named({ text: config, values }))
    return super.query(config, values, callback)
  }

  #named(config: QueryConfig): QueryConfig {
    let name = this.#prepared.get(config.text)
    if (name) this.#prepared.delete(config.text)
    else {
      name = `wb_${createHash('sha1').update(config.text).digest('hex')}`
      if (this.#prepared.size >= this.#limit) this.#forgetOldest()
    }
    this.#prepared.set(config.text, name)
    return { ...config, name }
  }

  /**
   * Deallocates the least recently used statement; queued before the next query, so it runs in order.
   * Only a statement the server confirmed is deallocated: in a transaction, deallocating an unknown name
   * would abort it.
   */
  #forgetOldest(): void {
    const [text, name] = this.#prepared.entries().next().value as [string, string]
    this.#prepared.delete(text)
    const parsed = (this as unknown as { connection: { parsedStatements: Record<string, string> } }).connection
      .parsedStatements
    if (parsed[name] === undefined) return
    delete parsed[name]
    super.query(`deallocate "${name}"`).catch(() => {})
  }
}
