import { type Kysely, sql } from 'kysely'

/**
 * Number rules per document (issue #24): orders, bills and invoices each have the tenant's rules
 * (schemas/orderNumberRule.yaml `document`), so the rule's key is (document, transport mode), not the mode alone.
 * The engine makes the new unique index from the manifest after the migrations (server/engine/storage.ts, which
 * only adds); this drops the one on the mode alone where an earlier version made it. Rows from before have no
 * document and are order rules (server/domain/orders/numbering.ts reads a missing one as `order`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists order_number_rule_tenant_id_transport_mode_key`.execute(db)
}
