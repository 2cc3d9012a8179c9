import type { Kysely } from 'kysely'
import { enableTenantIsolation, runStatements } from './0001_core.ts'

/**
 * Order-number counters (issue #8): one row per tenant, counter key (prefix, date part and length of a
 * rule, server/domain/orders/numbering.ts) and period ('' for never, 2026, 2026-03, 2026-03-15). The
 * number is drawn with one `insert … on conflict … do update set value = value + 1 returning value` in
 * the creating transaction, so concurrent creations wait on the row and never share a value. The rules
 * themselves are an engine entity (schemas/orderNumberRule.yaml).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create table order_number_counter (
      tenant_id int not null references tenant(id),
      rule_key text not null,
      period text not null,
      value bigint not null,
      primary key (tenant_id, rule_key, period)
    );
  `,
  )
  await enableTenantIsolation(db, ['order_number_counter'])
}
