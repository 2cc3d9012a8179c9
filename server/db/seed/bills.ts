import { type Kysely, sql } from 'kysely'
import { addDays, DEFAULT_TIME_ZONE, dayIn } from '../../../rules/calendar.ts'
import { sessionForUser } from '../../auth/accounts.ts'
import { domainRegistry } from '../../domain/index.ts'
import { createEngineApi } from '../../engine/index.ts'
import type { Manifest } from '../../manifest.ts'
import { now } from '../../tenancy/clock.ts'
import { withTenant } from '../../tenancy/scope.ts'
import type { DB } from '../schema.ts'

/**
 * The demo tenant's bills (issue #24): one receivable bill per booked order, made by the operator through the
 * engine (the create of /billManage) from the order's charge lines in USD and CNY, dated back so the ageing
 * buckets all have something (12, 45, 70 and 100 days), printed and confirmed but for the newest; and one payable
 * bill in JPY (the Tokyo agent's handling). The accepted orders stay unbilled, for the operator to bill. The
 * seeded confirmations write no letter (the bell's tests count the seeded plan of ./letters.ts).
 */

/** Days before today of the receivable bills, in order, and how far each has gone. */
const PLAN = [
  { age: 100, state: 'confirmed' },
  { age: 70, state: 'confirmed' },
  { age: 45, state: 'confirmed' },
  { age: 12, state: 'printed' },
  { age: 4, state: 'notPrinted' },
] as const

export async function seedBills(db: Kysely<DB>, manifest: Manifest): Promise<void> {
  const domain = domainRegistry()
  const registry = { ...domain, effects: new Map([...domain.effects, ['notify', async () => {}]]) }
  const engine = createEngineApi(manifest, { registry })
  const tenant = await db.selectFrom('tenant').select(['id']).where('code', '=', 'demo').executeTakeFirst()
  if (!tenant) return
  const today = dayIn(now(), DEFAULT_TIME_ZONE)
  await withTenant(db, tenant.id, async (trx) => {
    const operator = {
      tenantId: tenant.id,
      session: await sessionForUser(trx, tenant.id, 'opadmin'),
      language: 'en' as const,
    }
    const { rows } = await sql<{ id: number }>`
      select o.id from booking_order o
      where o.tenant_id = ${tenant.id} and o.state = 'booked'
        and exists (select 1 from order_charge c where c.tenant_id = o.tenant_id and c."order" = o.id)
      order by o.id limit ${PLAN.length}`.execute(trx)
    const advance = async (bill: Record<string, unknown>, state: string) => {
      let current = bill
      for (const transition of state === 'confirmed' ? ['print', 'confirm'] : state === 'printed' ? ['print'] : [])
        current = await engine.transition(trx, 'bill.transition', operator, {
          id: current.id,
          version: current.version,
          transition,
        })
      return current
    }
    for (const [i, order] of rows.entries()) {
      const plan = PLAN[i] as (typeof PLAN)[number]
      const bill = await engine.create(trx, 'POST /booking/billing/add', operator, {
        order: order.id,
        billingType: 'receivable',
        inputDate: addDays(today, -plan.age),
        remarks: 'Payable within 30 days of the bill date',
      })
      await advance(bill, plan.state)
    }
    const first = rows[0]
    if (first) {
      const payable = await engine.create(trx, 'POST /booking/billing/add', operator, {
        order: first.id,
        billingType: 'payable',
        inputDate: addDays(today, -20),
        lines: [
          {
            chargeName: 'Destination handling (Tokyo agent)',
            unit: 'B/L',
            quantity: 1,
            unitPrice: '38500',
            currency: 'JPY',
            taxRate: 10,
          },
          { chargeName: 'Delivery order fee', unit: 'B/L', quantity: 1, unitPrice: '6000', currency: 'JPY' },
        ],
        remarks: 'Agent rebate settled against the next invoice',
      })
      await advance(payable, 'confirmed')
    }
  })
}
