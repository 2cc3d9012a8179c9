import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { dailyRows, tally } from '../../server/domain/analytics/rollup.ts'
import { withTenant } from '../../server/tenancy/scope.ts'
import { setupTestApp } from '../support/app.ts'

/**
 * Issue #28's daily roll-ups (server/domain/analytics/rollup.ts): each event adds itself to its tenant-local day in
 * its own transaction — events counted, actors counted once a day, amounts summed per dimension — and a tenant's
 * transaction can neither read nor write another tenant's rows.
 */
const test = setupTestApp()
let demo = 0
let acme = 0
beforeAll(async () => {
  const { rows } = await sql<{ id: number; code: string }>`select id, code from tenant`.execute(test.database.db)
  demo = rows.find((r) => r.code === 'demo')?.id as number
  acme = rows.find((r) => r.code === 'acme')?.id as number
})

describe('the analytics roll-ups', () => {
  it('count events, each actor once a day, and sum amounts per dimension; days are the tenant’s', async () => {
    // 23:30 on 31 December in Shanghai is still the 31st there, though 15:30 UTC; 00:30 the next day is the 1st.
    const late = new Date('2026-12-31T15:30:00Z')
    const early = new Date('2026-12-31T16:30:00Z')
    await withTenant(test.database.api, demo, async (trx) => {
      await tally(trx, demo, { metric: 'pageView', at: late, dim1: 'rates', dim2: '/freightRate', actor: 'v1' })
      await tally(trx, demo, { metric: 'pageView', at: late, dim1: 'rates', dim2: '/freightRate', actor: 'v1' })
      await tally(trx, demo, { metric: 'pageView', at: late, dim1: 'rates', dim2: '/freightRate', actor: 'v2' })
      await tally(trx, demo, { metric: 'pageView', at: early, dim1: 'rates', dim2: '/freightRate', actor: 'v1' })
      await tally(trx, demo, { metric: 'orderAmount', at: late, dim1: 'USD', actor: 'company:1', amount: 1200.5 })
      await tally(trx, demo, { metric: 'orderAmount', at: late, dim1: 'CNY', actor: 'company:1', amount: 800 })
      await tally(trx, demo, { metric: 'orderAmount', at: late, dim1: 'USD', actor: 'company:2', amount: 99.5 })
    })
    const rows = await withTenant(test.database.api, demo, (trx) =>
      dailyRows(trx, demo, 'pageView', '2026-12-31', '2027-01-01'),
    )
    // The seeded history (server/db/seed/analytics.ts) has rows of its own on these days: only this page's are read.
    const ours = rows.filter((r) => r.dim1 === 'rates')
    expect(ours.map(({ day, events, actors }) => ({ day, events, actors }))).toEqual([
      { day: '2026-12-31', events: 3, actors: 2 },
      { day: '2027-01-01', events: 1, actors: 1 },
    ])
    const amounts = await withTenant(test.database.api, demo, (trx) =>
      dailyRows(trx, demo, 'orderAmount', '2026-12-31', '2026-12-31'),
    )
    // The seeded amounts name a mode (dim2); these name none.
    const noMode = amounts.filter((r) => r.dim2 === '')
    expect(noMode.map(({ dim1, amount, actors }) => ({ dim1, amount, actors }))).toEqual([
      { dim1: 'CNY', amount: 800, actors: 1 },
      { dim1: 'USD', amount: 1300, actors: 2 },
    ])
  })

  it('keeps tenants apart', async () => {
    await withTenant(test.database.api, acme, (trx) =>
      tally(trx, acme, { metric: 'login', dim1: 'password', actor: 'user:1' }),
    )
    // Asked for under acme's transaction, demo's rows are invisible whatever the query says.
    const seen = await withTenant(test.database.api, acme, (trx) =>
      dailyRows(trx, demo, 'pageView', '2026-12-01', '2027-01-31'),
    )
    expect(seen).toEqual([])
    await expect(
      withTenant(test.database.api, acme, (trx) => tally(trx, demo, { metric: 'login', actor: 'user:1' })),
    ).rejects.toThrow()
  })
})
