import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { HISTORY_DAYS, RAW_DAYS } from '../../server/db/seed/analytics.ts'
import { dailyRows, dailyTotals } from '../../server/domain/analytics/rollup.ts'
import { loadManifest } from '../../server/manifest.ts'
import { withTenant } from '../../server/tenancy/scope.ts'
import { setupTestApp } from '../support/app.ts'
import { inDays, now, today } from '../support/clock.ts'

/**
 * The seeded analytics history (server/db/seed/analytics.ts): 360 tenant-local days up to today, raw page visits
 * for the last few days whose roll-ups are exactly what the raw rows give, every metric of the nine screens, the
 * weekday/weekend shape, amounts per currency — and each tenant's history its own.
 */
const test = setupTestApp()
let demo = 0
let acme = 0
beforeAll(async () => {
  const { rows } = await sql<{ id: number; code: string }>`select id, code from tenant`.execute(test.database.db)
  demo = rows.find((r) => r.code === 'demo')?.id as number
  acme = rows.find((r) => r.code === 'acme')?.id as number
})

interface Count {
  day: string
  dim1: string
  dim2: string
  events: number
  actors: number
}
const sortKey = (r: Count) => `${r.day}|${r.dim1}|${r.dim2}`
const byKey = (a: Count, b: Count) => (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0)

/** What the raw page visits of a tenant give, grouped by its (Shanghai) day — computed here, not by the seed's SQL. */
async function fromRaw(tenantId: number) {
  return withTenant(test.database.api, tenantId, async (trx) => {
    const { rows } = await sql<{
      created_at: Date
      page_name: string
      page_route: string
      visitor: string
      user_type: number | null
    }>`
      select created_at, page_name, page_route, visitor, user_type from page_visit`.execute(trx)
    const views = new Map<string, { events: number; actors: Set<string> }>()
    const visitors = new Map<string, Set<string>>()
    // The day's distinct visitors across every page, and per page across its routes (the day's totals).
    const perDay = new Map<string, Set<string>>()
    const perPage = new Map<string, Set<string>>()
    const fmt = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' })
    for (const r of rows) {
      const day = fmt.format(new Date(r.created_at))
      const key = `${day}|${r.page_name}|${r.page_route}`
      const v = views.get(key) ?? { events: 0, actors: new Set<string>() }
      v.events++
      v.actors.add(r.visitor)
      views.set(key, v)
      const vkey = `${day}|${r.user_type ?? '0'}|`
      visitors.set(vkey, (visitors.get(vkey) ?? new Set()).add(r.visitor))
      perDay.set(day, (perDay.get(day) ?? new Set()).add(r.visitor))
      perPage.set(`${day}|${r.page_name}`, (perPage.get(`${day}|${r.page_name}`) ?? new Set()).add(r.visitor))
    }
    const split = (key: string) => key.split('|') as [string, string, string]
    return {
      rows,
      pageView: [...views].map(([key, v]) => {
        const [day, dim1, dim2] = split(key)
        return { day, dim1, dim2, events: v.events, actors: v.actors.size }
      }),
      visitor: [...visitors].map(([key, v]) => {
        const [day, dim1, dim2] = split(key)
        return { day, dim1, dim2, events: v.size, actors: v.size }
      }),
      perDay: [...perDay].map(([day, v]) => `${day}||${v.size}`).sort(),
      perPage: [...perPage].map(([key, v]) => `${key}|${v.size}`).sort(),
    }
  })
}

const counts = (rows: Count[]) =>
  rows.map(({ day, dim1, dim2, events, actors }) => ({ day, dim1, dim2, events, actors }))

describe('the seeded analytics history', () => {
  it('keeps raw visits for the last days only, up to now, and their roll-ups equal what the raw rows give', async () => {
    const raw = await fromRaw(demo)
    expect(raw.rows.length).toBeGreaterThan(500)
    const times = raw.rows.map((r) => new Date(r.created_at).getTime())
    expect(Math.max(...times)).toBeLessThanOrEqual(now().getTime())
    const days = new Set(raw.pageView.map((r) => r.day))
    expect([...days].sort()[0]).toBe(inDays(-(RAW_DAYS - 1)))
    expect(days.size).toBeLessThanOrEqual(RAW_DAYS)
    const from = inDays(-(RAW_DAYS - 1))
    const rolled = await withTenant(test.database.api, demo, async (trx) => ({
      pageView: await dailyRows(trx, demo, 'pageView', from, today()),
      visitor: await dailyRows(trx, demo, 'visitor', from, today()),
    }))
    expect(counts(rolled.pageView).sort(byKey)).toEqual(raw.pageView.sort(byKey))
    expect(counts(rolled.visitor).sort(byKey)).toEqual(raw.visitor.sort(byKey))
    // Some visitors are signed in (a user type), most are not ('0').
    expect(new Set(raw.visitor.map((r) => r.dim1)).has('0')).toBe(true)
    expect(raw.visitor.some((r) => r.dim1 !== '0')).toBe(true)
    // The actor rows are the cookies counted: a returning visitor today is not counted twice.
    const actors = await withTenant(test.database.api, demo, async (trx) => {
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from analytics_daily_actor
        where metric = 'pageView' and day >= ${from}::date`.execute(trx)
      return rows[0]?.n
    })
    expect(actors).toBe(raw.pageView.reduce((sum, r) => sum + r.actors, 0))
  })

  it('keeps each day’s distinct actors across dimensions equal to what the raw rows and the actors give', async () => {
    const raw = await fromRaw(demo)
    const from = inDays(-(RAW_DAYS - 1))
    const keys = (rows: { day: string; dim1: string; actors: number }[]) =>
      rows.map((r) => `${r.day}|${r.dim1}|${r.actors}`).sort()
    const totals = await withTenant(test.database.api, demo, async (trx) => ({
      perDay: keys(await dailyTotals(trx, demo, 'pageView', from, today(), 'day')),
      perPage: keys(await dailyTotals(trx, demo, 'pageView', from, today(), 'dim1')),
      visitors: keys(await dailyTotals(trx, demo, 'visitor', from, today(), 'day')),
    }))
    expect(totals.perDay).toEqual(raw.perDay)
    expect(totals.perPage).toEqual(raw.perPage)
    expect(totals.visitors).toEqual(raw.perDay)
    // A visitor who viewed two pages is one visitor of the day: the day's total is less than the pages' sum.
    const pagesSum = new Map<string, number>()
    for (const r of raw.pageView) pagesSum.set(r.day, (pagesSum.get(r.day) ?? 0) + r.actors)
    expect(
      raw.perDay.every((key) => Number(key.split('|')[2]) < (pagesSum.get(key.split('|')[0] as string) ?? 0)),
    ).toBe(true)
    // The event metrics of every seeded day: the day's total is its distinct actors over every row, never more
    // than the rows' sum.
    for (const metric of ['order', 'login', 'rateQuery', 'register'] as const) {
      const { counted, summed, kept } = await withTenant(test.database.api, demo, async (trx) => {
        const { rows } = await sql<{ key: string }>`
          select to_char(day, 'YYYY-MM-DD') || '||' || count(distinct actor) as key from analytics_daily_actor
          where metric = ${metric} group by day`.execute(trx)
        const rolled = await dailyRows(trx, demo, metric, inDays(-(HISTORY_DAYS - 1)), today())
        const sums = new Map<string, number>()
        for (const r of rolled) sums.set(r.day, (sums.get(r.day) ?? 0) + r.actors)
        const days = await dailyTotals(trx, demo, metric, inDays(-(HISTORY_DAYS - 1)), today(), 'day')
        return {
          counted: rows.map((r) => r.key).sort(),
          summed: sums,
          kept: days,
        }
      })
      expect(kept.map((r) => `${r.day}||${r.actors}`).sort()).toEqual(counted)
      expect(kept.length).toBeGreaterThan(300)
      expect(kept.every((r) => r.actors <= (summed.get(r.day) ?? 0))).toBe(true)
    }
  })

  it('covers 360 days of every metric, of real route names, busier on weekdays, amounts per currency', async () => {
    const from = inDays(-(HISTORY_DAYS - 1))
    const rows = await withTenant(test.database.api, demo, async (trx) => {
      const { rows } = await sql<{ metric: string; first: string; last: string; days: number }>`
        select metric, to_char(min(day), 'YYYY-MM-DD') as first, to_char(max(day), 'YYYY-MM-DD') as last,
          count(distinct day)::int as days
        from analytics_daily group by metric order by metric`.execute(trx)
      return rows
    })
    const metric = (name: string) => rows.find((r) => r.metric === name)
    for (const name of ['pageView', 'visitor', 'login', 'rateQuery', 'order', 'orderAmount', 'register'])
      expect(metric(name)?.first, name).toBe(from)
    expect(metric('pageView')).toMatchObject({ last: today(), days: HISTORY_DAYS })
    expect(metric('order')?.days).toBeGreaterThan(HISTORY_DAYS * 0.9)

    const routes = new Map(loadManifest().screens.map((s) => [s.name, s.route]))
    const pages = await withTenant(test.database.api, demo, (trx) => dailyRows(trx, demo, 'pageView', from, today()))
    for (const p of pages) expect(routes.get(p.dim1), p.dim1).toBe(p.dim2)
    const weekday = new Map<boolean, number[]>()
    const perDay = new Map<string, number>()
    for (const p of pages) perDay.set(p.day, (perDay.get(p.day) ?? 0) + p.events)
    for (const [day, n] of perDay) {
      if (day === today()) continue
      const weekend = [0, 6].includes(new Date(`${day}T00:00:00Z`).getUTCDay())
      weekday.set(weekend, [...(weekday.get(weekend) ?? []), n])
    }
    const mean = (xs: number[] = []) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length)
    expect(mean(weekday.get(false))).toBeGreaterThan(2 * mean(weekday.get(true)))

    // Orders per mode equal the order amounts' events per mode; amounts are kept per currency, never summed across.
    const [orders, amounts] = await withTenant(test.database.api, demo, async (trx) => [
      await dailyRows(trx, demo, 'order', from, today()),
      await dailyRows(trx, demo, 'orderAmount', from, today()),
    ])
    const sumBy = (xs: typeof orders, key: (r: (typeof orders)[number]) => string) =>
      xs.reduce((m, r) => m.set(key(r), (m.get(key(r)) ?? 0) + r.events), new Map<string, number>())
    expect(sumBy(amounts, (r) => r.dim2)).toEqual(sumBy(orders, (r) => r.dim1))
    expect(new Set(amounts.map((r) => r.dim1))).toEqual(new Set(['USD', 'EUR', 'CNY']))
    for (const r of amounts) expect(r.amount).toBeGreaterThan(0)
    for (const r of orders) expect(r.dim2).toMatch(/^[A-Z]{3,5}-[A-Z]{3,5}$/)
  })

  it('gives acme a smaller history of its own, and neither tenant sees the other’s', async () => {
    const totals = async (tenantId: number, asked: number) =>
      withTenant(test.database.api, tenantId, async (trx) => {
        const { rows } = await sql<{ n: number; visits: number; other: number }>`
          select (select coalesce(sum(events), 0)::int from analytics_daily where metric = 'pageView') as n,
            (select count(*)::int from page_visit) as visits,
            (select count(*)::int from analytics_daily where tenant_id = ${asked}) as other`.execute(trx)
        return rows[0] as { n: number; visits: number; other: number }
      })
    const ofDemo = await totals(demo, acme)
    const ofAcme = await totals(acme, demo)
    expect(ofAcme.n).toBeGreaterThan(0)
    expect(ofAcme.n).toBeLessThan(ofDemo.n / 3)
    expect(ofAcme.visits).toBeGreaterThan(0)
    // Asked by id, the other tenant's rows are not there.
    expect(ofDemo.other).toBe(0)
    expect(ofAcme.other).toBe(0)
    const acmeRaw = await fromRaw(acme)
    const acmeRolled = await withTenant(test.database.api, acme, (trx) =>
      dailyRows(trx, acme, 'pageView', inDays(-(RAW_DAYS - 1)), today()),
    )
    expect(counts(acmeRolled).sort(byKey)).toEqual(acmeRaw.pageView.sort(byKey))
    // acme's pages are its own mix: it has pages demo's visitors never see there, and lanes of its own.
    const lanes = await withTenant(test.database.api, acme, (trx) =>
      dailyRows(trx, acme, 'order', inDays(-(HISTORY_DAYS - 1)), today()),
    )
    expect(lanes.some((r) => r.dim2.startsWith('SZX-'))).toBe(true)
  })
})
