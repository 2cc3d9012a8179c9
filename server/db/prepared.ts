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
 * set is large but bounded. Statements without parameters (begin, commit, set local role) go as they are.
 */
export const STATEMENTS_PER_CONNECTION = 400

type QueryConfig = { text: string; values?: unknown[]; name?: string }

export class PreparingClient extends pg.Client {
  /** Names this connection prepared, least recently used first (a Map keeps insertion order). */
  readonly #prepared = new Map<string, string>()
  readonly #limit: number

  /** `maxPreparedStatements` (a pool passes its options on) bounds the statements kept; tests set it low. */
  constructor(config?: pg.ClientConfig & { maxPreparedStatements?: number }) {
    super(config)
    this.#limit = config?.maxPreparedStatements ?? STATEMENTS_PER_CONNECTION
  }

  // biome-ignore lint/suspicious/noExplicitAny: pg's query() is overloaded; this forwards every form.
  override query(config: any, values?: any, callback?: any): any {
    if (typeof config === 'string' && Array.isArray(values) && values.length > 0 && typeof callback !== 'function')
      return super.query(this.#named({ text: config, values }))
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
