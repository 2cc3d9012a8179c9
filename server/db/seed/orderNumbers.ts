import { type Kysely, sql } from 'kysely'
import { counterKey, type NumberRule } from '../../domain/orders/numbering.ts'
import { withTenant } from '../../tenancy/scope.ts'
import type { DB } from '../schema.ts'

/**
 * The default order-number rule of the demo and acme tenants (mode 0: every transport mode), HY / AC +
 * YYMMDD + 4 digits, daily reset. The counters start after the seeded orders' numbers (./orders.ts
 * numbers them the same way), so a new order never repeats one of them.
 */
const RULES: Record<string, NumberRule> = {
  demo: { prefix: 'HY', datePattern: 'YYMMDD', sequenceLength: 4, reset: 'daily' },
  acme: { prefix: 'AC', datePattern: 'YYMMDD', sequenceLength: 4, reset: 'daily' },
}

export async function seedOrderNumberRules(db: Kysely<DB>): Promise<void> {
  const tenants = await db.selectFrom('tenant').select(['id', 'code']).where('code', 'in', Object.keys(RULES)).execute()
  for (const tenant of tenants) {
    const rule = RULES[tenant.code] as NumberRule
    await withTenant(db, tenant.id, async (trx) => {
      await sql`
        insert into order_number_rule
          (tenant_id, version, document, transport_mode, prefix, date_pattern, sequence_length, reset, enabled)
        values (${tenant.id}, 1, 'order', 0, ${rule.prefix}, ${rule.datePattern}, ${rule.sequenceLength}, ${rule.reset}, true)
      `.execute(trx)
      const { rows } = await sql<{ order_no: string }>`
        select order_no from booking_order where tenant_id = ${tenant.id} and order_no is not null`.execute(trx)
      const used = new Map<string, number>()
      const pattern = new RegExp(`^${rule.prefix}(\\d{2})(\\d{2})(\\d{2})(\\d{4})$`)
      for (const { order_no } of rows) {
        const match = pattern.exec(order_no)
        if (!match) continue
        const period = `20${match[1]}-${match[2]}-${match[3]}`
        used.set(period, Math.max(used.get(period) ?? 0, Number(match[4])))
      }
      for (const [period, value] of used)
        await sql`
          insert into order_number_counter (tenant_id, rule_key, period, value)
          values (${tenant.id}, ${counterKey(rule)}, ${period}, ${value})`.execute(trx)
    })
  }
}
