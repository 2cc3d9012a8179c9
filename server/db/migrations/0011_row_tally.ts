import type { Kysely } from 'kysely'
import { enableTenantIsolation, runStatements } from './0001_core.ts'

/**
 * How many rows each tenant has of each engine table, by state (issue #9): the total a list answers
 * without counting a large tenant's rows on every page. Kept by statement-level triggers the table sync
 * installs on every engine table (server/engine/tally.ts), in the transaction of the change, so it is exact;
 * `state` is '' for a table without a state machine.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create table row_tally (
      tenant_id int not null references tenant(id),
      table_name text not null,
      state text not null,
      n bigint not null,
      primary key (tenant_id, table_name, state)
    );
  `,
  )
  await enableTenantIsolation(db, ['row_tally'])
}
