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
 * The demo tenants' operating orders (issue #23): one job file per confirmed seeded order, opened by the
 * operator through the engine (the create of /operatorOperatingOrderList), so the customer, the audit and
 * the state are the API's own. The booked orders' job files are approved and keep their order's past
 * schedule; the accepted ones await approval with sailings ahead, one of them tomorrow — inside the tenant's
 * 24-hour edit limit, so it can no longer be modified. The review receivers are named after the seed, so the
 * seeded job files write no letter (the bell's tests count the seeded plan of ./letters.ts).
 */

const CHANNELS = ['direct', 'online', 'agent'] as const
/** Days from today of the pending job files' ETDs, in order: the last one is past the 24-hour limit. */
const PENDING_ETD = [9, 14, 1]
const day = (offset: number) => addDays(dayIn(now(), DEFAULT_TIME_ZONE), offset)

interface ConfirmedOrder {
  id: number
  state: string
  job_no: string
  business_ref_no: string | null
  mbl: string | null
  hbl: string | null
  etd: string
  eta: string | null
  pol: string
  pod: string
  container_load_type: string
  containers: { containerType: string; quantity: number }[] | null
}

export async function seedOperatingOrders(db: Kysely<DB>, manifest: Manifest): Promise<void> {
  const domain = domainRegistry()
  const registry = { ...domain, effects: new Map([...domain.effects, ['notify', async () => {}]]) }
  const engine = createEngineApi(manifest, { registry })
  for (const code of ['demo', 'acme']) {
    const tenant = await db.selectFrom('tenant').select(['id', 'settings']).where('code', '=', code).executeTakeFirst()
    if (!tenant) continue
    const receivers = await withTenant(db, tenant.id, async (trx) => {
      const operator = {
        tenantId: tenant.id,
        session: await sessionForUser(trx, tenant.id, 'opadmin'),
        language: 'en' as const,
      }
      const { rows } = await sql<ConfirmedOrder>`
        select id, state, job_no, business_ref_no, mbl, hbl, to_char(etd, 'YYYY-MM-DD') as etd,
          to_char(eta, 'YYYY-MM-DD') as eta, pol, pod, container_load_type, containers
        from booking_order
        where tenant_id = ${tenant.id} and state in ('accepted', 'booked') and job_no is not null
        order by id`.execute(trx)
      let pending = 0
      for (const [i, order] of rows.entries()) {
        const booked = order.state === 'booked'
        const shift = booked ? 0 : (PENDING_ETD[pending++ % PENDING_ETD.length] as number)
        const etd = booked ? order.etd : day(shift)
        const transit = order.eta ? (Date.parse(order.eta) - Date.parse(order.etd)) / 86_400_000 : 20
        const job = await engine.create(trx, 'POST /booking/cargo/job/add', operator, {
          order: order.id,
          jobNo: order.job_no,
          customerRefNo: order.business_ref_no,
          mbl: order.mbl,
          hbl: order.hbl,
          etd,
          eta: addDays(etd, transit),
          pol: order.pol,
          pod: order.pod,
          containerLoadType: order.container_load_type,
          lob: 'seaExport',
          salesChannel: CHANNELS[i % CHANNELS.length],
          channelNo: `CH-${code.toUpperCase()}-${String(101 + i)}`,
          bookingState: booked ? 1 : 0,
          usages: order.containers ?? [],
        })
        if (booked)
          await engine.transition(trx, 'operatingOrder.transition', operator, {
            id: job.id,
            version: job.version,
            transition: 'approve',
            remark: 'Checked against the carrier booking confirmation',
          })
      }
      const staff = await trx
        .selectFrom('app_user')
        .select('id')
        .where('tenant_id', '=', tenant.id)
        .where('username', 'in', ['opadmin', 'opcs'])
        .orderBy('id')
        .execute()
      return staff.map((user) => user.id)
    })
    const settings = (tenant.settings ?? {}) as Record<string, unknown>
    await db
      .updateTable('tenant')
      .set({ settings: JSON.stringify({ ...settings, operatingOrderReviewReceiver: receivers }) })
      .where('id', '=', tenant.id)
      .execute()
  }
}
