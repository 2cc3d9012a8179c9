import { Kysely, PostgresDialect, sql } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Database } from '../../server/db/database.ts'
import { PreparingClient } from '../../server/db/prepared.ts'
import { freshDatabase } from '../support/database.ts'
import { describeOnPostgres } from '../support/only-on.ts'

/**
 * Prepared statements on PostgreSQL (server/db/prepared.ts): a parameterised statement is parsed once per
 * connection and reused; the least recently used are deallocated past the limit, inside a transaction
 * too, without aborting it. PGlite runs in the process and prepares nothing: its connection is left as is.
 */

const prepared = async (on: Kysely<unknown>) =>
  (
    await sql<{
      statement: string
    }>`select statement from pg_prepared_statements where name like 'wb\\_%' order by statement`.execute(on)
  ).rows.map((r) => r.statement)

describeOnPostgres('prepared statements', () => {
  let database: Database
  let db: Kysely<unknown>

  beforeAll(async () => {
    database = await freshDatabase()
    const url = new URL(process.env.DATABASE_URL as string)
    const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(database.db)
    url.pathname = `/${rows[0]?.name}`
    db = new Kysely({
      dialect: new PostgresDialect({
        pool: new pg.Pool({
          connectionString: url.toString(),
          max: 1,
          Client: PreparingClient,
          maxPreparedStatements: 3,
        } as never),
      }),
    })
  })
  afterAll(async () => {
    await db?.destroy()
    await database?.close()
  })

  it('parses a statement once per connection and answers it like any other', async () => {
    for (const n of [1, 2, 3]) {
      const { rows } = await sql<{ next: number }>`select ${n}::int + 1 as next`.execute(db)
      expect(rows[0]?.next).toBe(n + 1)
    }
    expect(await prepared(db)).toEqual(['select $1::int + 1 as next'])
  })

  it('keeps the most recently used past the limit, deallocating inside a transaction without aborting it', async () => {
    const answers = await db.transaction().execute(async (trx) => {
      const out: number[] = []
      for (const n of [1, 2, 3, 4, 5]) {
        const { rows } = await sql<{ v: number }>`select ${n}::int * ${sql.raw(String(n))} as v`.execute(trx)
        out.push(rows[0]?.v as number)
      }
      // The first of them was deallocated: asked again, it is prepared anew.
      const { rows } = await sql<{ v: number }>`select ${7}::int * 1 as v`.execute(trx)
      out.push(rows[0]?.v as number)
      return out
    })
    expect(answers).toEqual([1, 4, 9, 16, 25, 7])
    // Three kept: the newest, the one asked again among them.
    expect(await prepared(db)).toEqual([
      'select $1::int * 1 as v',
      'select $1::int * 4 as v',
      'select $1::int * 5 as v',
    ])
  })

  it('sends a transaction’s begin with its first statement, which runs inside the transaction', async () => {
    const inside = await db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ v: string }>`select set_config('waybill.probe', 'set', true) as v`.execute(trx)
      const again = await sql<{ v: string }>`select current_setting('waybill.probe') as v`.execute(trx)
      return [rows[0]?.v, again.rows[0]?.v]
    })
    expect(inside).toEqual(['set', 'set'])
    // Set locally, so gone with the transaction: the first statement was in it, not before it.
    const { rows } = await sql<{ v: string | null }>`select current_setting('waybill.probe', true) as v`.execute(db)
    expect(rows[0]?.v ?? '').toBe('')
    // A transaction whose first statement fails is rolled back, and the connection serves the next one.
    await expect(db.transaction().execute(async (trx) => sql`select 1 / 0`.execute(trx))).rejects.toThrow(
      /division by zero/,
    )
    const { rows: after } = await sql<{ n: number }>`select ${2}::int as n`.execute(db)
    expect(after[0]?.n).toBe(2)
  })
})
