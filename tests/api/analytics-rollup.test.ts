import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { actorDaysFrom, DEFAULT_ACTOR_DAYS } from '../../server/domain/analytics/prune.ts'
import { dailyRows, dailyTotals, tally } from '../../server/domain/analytics/rollup.ts'
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

  it('keep a day’s distinct actors across every dimension value, and per dim1 value, each actor once', async () => {
    const day = new Date('2026-12-30T04:00:00Z')
    await withTenant(test.database.api, demo, async (trx) => {
      // One customer orders FCL on two lanes and AIR; another AIR: two ordering customers that day.
      await tally(trx, demo, { metric: 'order', at: day, dim1: 'FCL', dim2: 'X-Y', actor: 'company:9001' })
      await tally(trx, demo, { metric: 'order', at: day, dim1: 'FCL', dim2: 'X-Z', actor: 'company:9001' })
      await tally(trx, demo, { metric: 'order', at: day, dim1: 'AIR', dim2: 'X-Y', actor: 'company:9001' })
      await tally(trx, demo, { metric: 'order', at: day, dim1: 'AIR', dim2: 'X-Y', actor: 'company:9002' })
      // An event without an actor counts no one.
      await tally(trx, demo, { metric: 'order', at: day, dim1: 'LCL', dim2: 'X-Y' })
    })
    const { rows, all, perMode, air } = await withTenant(test.database.api, demo, async (trx) => {
      // The seeded history has customers of its own that day: ours are counted as what they add.
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from analytics_daily_actor
        where metric = 'order' and day = '2026-12-30' and actor like 'company:900_'`.execute(trx)
      return {
        rows: rows[0]?.n,
        all: await dailyTotals(trx, demo, 'order', '2026-12-30', '2026-12-30', 'day'),
        perMode: await dailyTotals(trx, demo, 'order', '2026-12-30', '2026-12-30', 'dim1'),
        air: await dailyTotals(trx, demo, 'order', '2026-12-30', '2026-12-30', 'dim1', 'AIR'),
      }
    })
    // Four (row, actor) pairs under the rows, yet two customers of the day.
    expect(rows).toBe(4)
    const seeded = await withTenant(test.database.api, demo, async (trx) => {
      const { rows } = await sql<{ day: number; fcl: number; air: number; lcl: number }>`
        select count(distinct actor)::int as day,
          count(distinct actor) filter (where dim1 = 'FCL')::int as fcl,
          count(distinct actor) filter (where dim1 = 'AIR')::int as air,
          count(distinct actor) filter (where dim1 = 'LCL')::int as lcl
        from analytics_daily_actor where metric = 'order' and day = '2026-12-30' and actor not like 'company:900_'`.execute(
        trx,
      )
      return rows[0] as { day: number; fcl: number; air: number; lcl: number }
    })
    expect(all.map((r) => r.actors)).toEqual([seeded.day + 2])
    const mode = (key: string) => perMode.find((r) => r.dim1 === key)?.actors ?? 0
    expect([mode('FCL'), mode('AIR'), mode('LCL')]).toEqual([seeded.fcl + 1, seeded.air + 2, seeded.lcl])
    expect(air.map((r) => [r.dim1, r.actors])).toEqual([['AIR', seeded.air + 2]])
  })

  it('keep at least today’s and yesterday’s actor rows, however ANALYTICS_ACTOR_DAYS is set', () => {
    expect(actorDaysFrom({})).toBe(DEFAULT_ACTOR_DAYS)
    expect(DEFAULT_ACTOR_DAYS).toBe(2)
    expect(actorDaysFrom({ ANALYTICS_ACTOR_DAYS: '7' })).toBe(7)
    expect(actorDaysFrom({ ANALYTICS_ACTOR_DAYS: '1' })).toBe(2)
    expect(actorDaysFrom({ ANALYTICS_ACTOR_DAYS: 'week' })).toBe(2)
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
    const totals = await withTenant(test.database.api, acme, (trx) =>
      dailyTotals(trx, demo, 'order', '2026-12-01', '2027-01-31', 'day'),
    )
    expect(totals).toEqual([])
    await expect(
      withTenant(test.database.api, acme, (trx) => tally(trx, demo, { metric: 'login', actor: 'user:1' })),
    ).rejects.toThrow()
  })
})
