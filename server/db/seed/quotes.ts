import { type Kysely, sql } from 'kysely'
import { withTenant } from '../../tenancy/scope.ts'
import type { DB } from '../schema.ts'

/**
 * The demo tenant's quote configuration (/palletInquiryConfiguration): sea inquiries get an automatic quote
 * from the cheapest matching rate, air inquiries are quoted by hand, so the demo shows both kinds. The
 * minimum amounts are what the low-fee warning compares a quote's total with (server/domain/quotes/totals.ts).
 */
const CONFIG = [
  {
    transportMode: 1,
    autoQuote: true,
    markupPercent: '5.00',
    validDays: 14,
    minimumAmount: '300.000',
    currency: 'USD',
    contactName: 'Lily Chen',
    contactEmail: 'sea.quotes@demo-logistics.com',
    contactPhone: '+86 21 6888 0101',
  },
  {
    transportMode: 2,
    autoQuote: false,
    markupPercent: '8.00',
    validDays: 7,
    minimumAmount: '150.000',
    currency: 'USD',
    contactName: 'Kevin Wu',
    contactEmail: 'air.quotes@demo-logistics.com',
    contactPhone: '+86 21 6888 0102',
  },
]

export async function seedQuoteConfig(db: Kysely<DB>): Promise<void> {
  const tenant = await db.selectFrom('tenant').select('id').where('code', '=', 'demo').executeTakeFirst()
  if (!tenant) return
  await withTenant(db, tenant.id, async (trx) => {
    for (const c of CONFIG)
      await sql`
        insert into quote_config (tenant_id, version, transport_mode, auto_quote, markup_percent, valid_days,
          minimum_amount, currency, contact_name, contact_email, contact_phone, enabled)
        values (${tenant.id}, 1, ${c.transportMode}, ${c.autoQuote}, ${c.markupPercent}, ${c.validDays},
          ${c.minimumAmount}, ${c.currency}, ${c.contactName}, ${c.contactEmail}, ${c.contactPhone}, true)`.execute(trx)
  })
}
