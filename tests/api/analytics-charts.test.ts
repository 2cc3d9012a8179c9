import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { pruneAnalyticsActors } from '../../server/domain/analytics/prune.ts'
import { tally } from '../../server/domain/analytics/rollup.ts'
import { withTenant } from '../../server/tenancy/scope.ts'
import { setupTestApp } from '../support/app.ts'
import { caller } from '../support/calls.ts'
import { inDays, today } from '../support/clock.ts'
import { readXlsx, XLSX_MIME } from '../support/xlsx.ts'

/**
 * The chart calls of issue #28 (screens/analytics.yaml, kind: chart; server/domain/analytics/charts.ts): one
 * generic handler answers each chart from the daily roll-ups — every day of the window in the tenant's zone
 * (zeros too), a series per measure or per dimension value, currencies never added together — under the
 * screen's permission, and UserBehavior's export is the same table as .xlsx.
 */
const test = setupTestApp()
const call = caller(test)
let demo = 0
let acme = 0
let opadmin = ''

interface Series {
  key: string
  label: string
  values: number[]
  total: number
}
interface Chart {
  days: string[]
  series: Series[]
  beginDate: string
  endDate: string
}

/**
 * An instant on a tenant-local day at a Shanghai time. The API legs run at 23:30 and at 00:30 (scripts/test.js),
 * so today's instants are taken between 00:00 and 00:30: before now on both clocks, and yesterday in UTC.
 */
const at = (days: number, time: string) => new Date(`${inDays(days)}T${time}:00+08:00`)

async function chart(url: string, token = opadmin, options: { host?: string; language?: string } = {}) {
  const response = await call('GET', `/api/b2b/count/${url}`, token, undefined, options)
  return { response, body: response.json() as { code: string; message: string; content: Chart } }
}

beforeAll(async () => {
  const { rows } = await sql<{ id: number; code: string }>`select id, code from tenant`.execute(test.database.db)
  demo = rows.find((r) => r.code === 'demo')?.id as number
  acme = rows.find((r) => r.code === 'acme')?.id as number
  // Signed in first: the sign-in counts as a login, before the roll-ups are emptied.
  opadmin = await test.login('opadmin')
  // This file's database is its own copy: the seeded year of history (tests/api/analytics-seed.test.ts) is taken
  // away so each figure below is exactly what this file tallied.
  for (const table of [
    'analytics_daily_actor',
    'analytics_daily',
    'analytics_daily_total_actor',
    'analytics_daily_total',
  ])
    await sql`delete from ${sql.table(table)}`.execute(test.database.db)
  await withTenant(test.database.api, demo, async (trx) => {
    // Today: two FCL orders and one AIR, by two customers — at 00:05–00:20 in Shanghai, today there though
    // yesterday in UTC.
    await tally(trx, demo, { metric: 'order', at: at(0, '00:20'), dim1: 'FCL', actor: 'company:1' })
    await tally(trx, demo, { metric: 'order', at: at(0, '00:05'), dim1: 'FCL', actor: 'company:2' })
    await tally(trx, demo, { metric: 'order', at: at(0, '00:15'), dim1: 'AIR', actor: 'company:1' })
    // Yesterday one LCL; 40 days ago one FCL (outside 30 days, inside 60).
    await tally(trx, demo, { metric: 'order', at: at(-1, '12:00'), dim1: 'LCL', actor: 'company:1' })
    await tally(trx, demo, { metric: 'order', at: at(-40, '12:00'), dim1: 'FCL', actor: 'company:3' })
    // Five days ago one customer ordered AIR and LCL: one ordering customer that day, as the FCL/AIR one today.
    await tally(trx, demo, { metric: 'order', at: at(-5, '09:00'), dim1: 'AIR', actor: 'company:4' })
    await tally(trx, demo, { metric: 'order', at: at(-5, '10:00'), dim1: 'LCL', actor: 'company:4' })
    // Amounts in two currencies, never added together.
    await tally(trx, demo, {
      metric: 'orderAmount',
      at: at(0, '00:20'),
      dim1: 'USD',
      actor: 'company:1',
      amount: 1200.5,
    })
    await tally(trx, demo, { metric: 'orderAmount', at: at(0, '00:15'), dim1: 'CNY', actor: 'company:1', amount: 800 })
    await tally(trx, demo, { metric: 'orderAmount', at: at(0, '00:12'), dim1: 'USD', actor: 'company:2', amount: 99.5 })
    // Registrations and sign-ins: one actor counted once a day however often.
    await tally(trx, demo, { metric: 'register', at: at(0, '00:20'), dim1: 'mobile', actor: 'user:50' })
    await tally(trx, demo, { metric: 'login', at: at(0, '00:20'), dim1: 'password', actor: 'user:50' })
    await tally(trx, demo, { metric: 'login', at: at(0, '00:15'), dim1: 'password', actor: 'user:50' })
    await tally(trx, demo, { metric: 'login', at: at(0, '00:12'), dim1: 'code', actor: 'user:51' })
    // Page views of two pages.
    for (let i = 0; i < 3; i++)
      await tally(trx, demo, {
        metric: 'pageView',
        at: at(0, '00:20'),
        dim1: 'rates',
        dim2: '/freightRate',
        actor: 'v1',
      })
    await tally(trx, demo, { metric: 'pageView', at: at(-1, '11:00'), dim1: 'orders', dim2: '/orderList', actor: 'v2' })
  })
  // Another tenant's orders today: never in demo's figures.
  await withTenant(test.database.api, acme, async (trx) => {
    for (let i = 0; i < 5; i++) await tally(trx, acme, { metric: 'order', at: at(0, '00:20'), dim1: 'FCL', actor: 'x' })
  })
})

const valueOn = (answer: Chart, key: string, day: string) =>
  answer.series.find((s) => s.key === key)?.values[answer.days.indexOf(day)]

describe('chart calls', () => {
  it('answer every day of the 30-day window in the tenant’s zone, a series per mode, zeros filled in', async () => {
    const { response, body } = await chart('selectOrderCount', opadmin, { language: 'en_US' })
    expect(response.statusCode).toBe(200)
    const answer = body.content
    expect(answer.days).toHaveLength(30)
    expect(answer.days[0]).toBe(inDays(-29))
    expect(answer.days.at(-1)).toBe(today())
    expect(answer.beginDate).toBe(inDays(-29))
    expect(answer.series.map((s) => [s.key, s.label, s.total])).toEqual([
      ['AIR', 'Air', 2],
      ['FCL', 'FCL', 2],
      ['LCL', 'LCL', 2],
    ])
    expect(valueOn(answer, 'FCL', today())).toBe(2)
    expect(valueOn(answer, 'LCL', inDays(-1))).toBe(1)
    expect(valueOn(answer, 'LCL', today())).toBe(0)
    // Acme's five orders today are not demo's.
    expect(answer.series.reduce((sum, s) => sum + (s.values.at(-1) ?? 0), 0)).toBe(3)
  })

  it('take a wider window and a chosen range', async () => {
    const sixty = (await chart('selectOrderCount?window=60')).body.content
    expect(sixty.days).toHaveLength(60)
    expect(valueOn(sixty, 'FCL', inDays(-40))).toBe(1)
    expect(sixty.series.find((s) => s.key === 'FCL')?.total).toBe(3)
    expect(sixty.series.map((s) => s.key).sort()).toEqual(['AIR', 'FCL', 'LCL'])
    const range = (await chart(`selectOrderCount?beginDate=${inDays(-45)}&endDate=${inDays(-1)}`)).body.content
    expect(range.days).toHaveLength(45)
    expect(range.days[0]).toBe(inDays(-45))
    expect(range.series.map((s) => [s.key, s.total])).toEqual([
      ['LCL', 2],
      ['AIR', 1],
      ['FCL', 1],
    ])
  })

  it('keep currencies apart', async () => {
    const answer = (await chart('selectOrderAmount')).body.content
    expect(answer.series.map((s) => [s.key, s.total])).toEqual([
      ['USD', 1300],
      ['CNY', 800],
    ])
    expect(valueOn(answer, 'USD', today())).toBe(1300)
  })

  it('draw two measures in one chart, each actor once a day', async () => {
    const answer = (await chart('selectLoginAndRegisterUserUV', opadmin, { language: 'en_US' })).body.content
    expect(answer.series.map((s) => [s.key, s.label, s.values.at(-1)])).toEqual([
      ['register', 'Users registered', 1],
      ['login', 'Users signed in', 2],
    ])
    // Distinct ordering customers today: two, though three orders.
    const clients = (await chart('orderClientUV')).body.content
    expect(clients.series[0]?.values.at(-1)).toBe(2)
    // Five days ago, one customer under two modes: one, not the sum of the two rows' actors.
    expect(valueOn(clients, 'order', inDays(-5))).toBe(1)
    // Yesterday company:1 again: a customer counts once a day, on each day it ordered (2 + 1 + 1 in 30 days).
    expect(clients.series[0]?.total).toBe(4)
    // No rate search counted: the series is there, all zeros.
    const queries = (await chart('getAnalyticsData')).body.content
    expect(queries.series).toHaveLength(1)
    expect(queries.series[0]?.total).toBe(0)
  })

  it('filter page views by page', async () => {
    const all = (await chart('PagePv')).body.content
    expect(all.series.map((s) => [s.key, s.total])).toEqual([
      ['rates', 3],
      ['orders', 1],
    ])
    const one = (await chart('PagePv?filter=orders')).body.content
    expect(one.series.map((s) => [s.key, s.total])).toEqual([['orders', 1]])
  })

  it('refuse a window not offered and a range too long, in the caller’s language', async () => {
    const window = await chart('selectOrderCount?window=45', opadmin, { language: 'zh_CN' })
    expect(window.response.statusCode).toBe(400)
    expect(window.body.code).not.toBe('0000')
    const zhText = JSON.stringify(window.body)
    const en = await chart('selectOrderCount?window=45', opadmin, { language: 'en_US' })
    expect(en.body.code).toBe(window.body.code)
    expect(JSON.stringify(en.body)).not.toBe(zhText)
    expect(JSON.stringify(en.body)).toContain('window')
    const long = await chart(`selectOrderCount?beginDate=${inDays(-400)}&endDate=${today()}`, opadmin, {
      language: 'en_US',
    })
    expect(long.body.code).not.toBe('0000')
    expect(JSON.stringify(long.body)).toContain('366')
    const backwards = await chart(`selectOrderCount?beginDate=${today()}&endDate=${inDays(-3)}`)
    expect(backwards.body.code).not.toBe('0000')
  })

  it('refuse a user without the screen’s permission, and a caller not signed in', async () => {
    const entadmin = await test.login('entadmin')
    const refused = await chart('selectOrderCount', entadmin)
    expect(refused.body.code).not.toBe('0000')
    expect(refused.body.content).toBeFalsy()
    const anonymous = await call('GET', '/api/b2b/count/selectOrderCount', null)
    expect(anonymous.statusCode).toBe(401)
  })

  it('answer acme’s own figures on acme’s host', async () => {
    const acmeAdmin = await test.login('opadmin', 'acme.localhost')
    const answer = (await chart('selectOrderCount', acmeAdmin, { host: 'acme.localhost' })).body.content
    expect(answer.series.map((s) => [s.key, s.total])).toEqual([['FCL', 5]])
  })

  it('export UserBehavior’s table as .xlsx on SPEC §7’s POST, the same figures as the call', async () => {
    const exported = async (query: string, body: object) => {
      const figures = (await chart(`PagePv?${query}`, opadmin, { language: 'en_US' })).body.content
      const file = await call('POST', '/api/b2b/count/export/exportPvList', opadmin, body, { language: 'en_US' })
      expect(file.statusCode, file.body.slice(0, 300)).toBe(200)
      expect(file.headers['content-type']).toContain(XLSX_MIME)
      expect(file.headers['content-disposition']).toBe(`attachment; filename="userBehavior-${figures.endDate}.xlsx"`)
      const sheet = await readXlsx(file.rawPayload)
      expect(sheet.headers).toEqual(['Day', ...figures.series.map((s) => s.label)])
      expect(sheet.rows).toHaveLength(figures.days.length + 1)
      const read = sheet.rows.map((row) => row.map((cell) => cell.value))
      expect(read.slice(0, -1)).toEqual(figures.days.map((day, i) => [day, ...figures.series.map((s) => s.values[i])]))
      expect(read.at(-1)).toEqual(['Total', ...figures.series.map((s) => s.total)])
      return read
    }
    const window = await exported('window=90', { window: '90' })
    expect(window).toHaveLength(90 + 1)
    expect(window.at(-1)?.slice(1)).toEqual([3, 1])
    // A chosen range and the page filter travel in the body too.
    const range = await exported(`beginDate=${inDays(-6)}&endDate=${today()}&filter=orders`, {
      beginDate: inDays(-6),
      endDate: today(),
      filter: 'orders',
    })
    expect(range.map((row) => row[0])).toEqual([...Array.from({ length: 7 }, (_, i) => inDays(i - 6)), 'Total'])
    expect(range.at(-1)).toEqual(['Total', 1])
    // The export is a POST only now: the GET of the address is no route.
    expect((await call('GET', '/api/b2b/count/export/exportPvList?window=90', opadmin)).statusCode).toBe(404)
  })

  it('refuse a bad export body with a 400 in the caller’s language, and a caller without the permission', async () => {
    const post = (body: unknown, language = 'en_US', token = opadmin) =>
      test.app.inject({
        method: 'POST',
        url: '/api/b2b/count/export/exportPvList',
        headers: {
          host: 'localhost',
          resource: '1',
          cookie: `b2b_token=${token}`,
          language,
          'content-type': 'application/json',
        },
        payload: typeof body === 'string' ? body : JSON.stringify(body),
      })
    type Refusal = {
      code: string
      message: string
      content: { fieldErrors: { field: string; key: string; message: string }[] }
    }
    const refused = async (body: unknown, language = 'en_US') => {
      const response = await post(body, language)
      expect(response.statusCode, response.body.slice(0, 300)).toBe(400)
      expect(response.headers['content-type']).toContain('application/json')
      return response.json() as Refusal
    }
    const fields = (refusal: Refusal) => refusal.content.fieldErrors.map((e) => [e.field, e.key])
    // A window not offered: the enum's message, in English and in Spanish.
    const en = await refused({ window: '45' })
    expect(fields(en)).toEqual([['window', 'validation.enum']])
    expect(en.content.fieldErrors[0]?.message).toMatch(/^Must be one of: 30, 60, 90/)
    // The window is text, as the address carries it: a number is refused, not taken for another window.
    expect(fields(await refused({ window: 90 }))).toContainEqual(['window', 'validation.type_string'])
    const es = await refused({ window: '45' }, 'es_ES')
    expect(es.content.fieldErrors[0]?.message).toMatch(/^Debe ser uno de los siguientes: 30, 60, 90/)
    // A range over 366 days, one end only, an end before the beginning.
    const long = await refused({ beginDate: inDays(-400), endDate: today() })
    expect(long.content.fieldErrors).toEqual([
      { field: 'endDate', key: 'validation.dateSpan', message: 'At most 366 days' },
    ])
    expect(fields(await refused({ beginDate: inDays(-3) }))).toEqual([['endDate', 'validation.required']])
    expect(fields(await refused({ beginDate: today(), endDate: inDays(-3) }))).toEqual([
      ['endDate', 'analytics.ruleEndAfterBegin'],
    ])
    // Bounded: a filter over 200 characters, a field the query does not have, a date that is no date.
    expect(fields(await refused({ window: '30', filter: 'x'.repeat(201) }))).toEqual([
      ['filter', 'validation.maxLength'],
    ])
    expect(fields(await refused({ window: '30', rows: 100000 }))).toEqual([['rows', 'validation.unknownField']])
    expect(fields(await refused({ beginDate: 'soon', endDate: today() }))).toContainEqual([
      'beginDate',
      'validation.format_date',
    ])
    // Not an object, and not JSON at all: still a 400, not a 500.
    expect((await post([{ window: '30' }])).statusCode).toBe(400)
    expect((await post('{"window":')).statusCode).toBe(400)
    // Without UserBehavior's permission: refused before the body is read; signed out: 401.
    const entadmin = await test.login('entadmin')
    const denied = await post({ window: '30' }, 'en_US', entadmin)
    expect(denied.statusCode).toBe(403)
    expect(denied.headers['content-type']).toContain('application/json')
    const anonymous = await call('POST', '/api/b2b/count/export/exportPvList', null, { window: '30' })
    expect(anonymous.statusCode).toBe(401)
  })

  it('show the same figures after the actor rows of closed days are pruned, and still count an actor once today', async () => {
    const asked = [
      'selectOrderCount',
      'selectOrderAmount',
      'selectLoginAndRegisterUserUV',
      'orderClientUV',
      'getAnalyticsData',
      'PagePv',
      'PagePv?filter=orders',
    ].map((url) => `${url}${url.includes('?') ? '&' : '?'}beginDate=${inDays(-365)}&endDate=${today()}`)
    const answers = async () => Promise.all(asked.map(async (url) => (await chart(url)).body.content))
    const before = await answers()
    const actorDays = async (table: string) => {
      const { rows } = await sql<{ day: string }>`
        select distinct to_char(day, 'YYYY-MM-DD') as day from ${sql.table(table)} where tenant_id = ${demo}
        order by 1`.execute(test.database.db)
      return rows.map((r) => r.day)
    }
    expect(await actorDays('analytics_daily_actor')).toContain(inDays(-40))
    expect(await pruneAnalyticsActors(test.database.db, test.database.api)).toBeGreaterThan(0)
    // Only today's and yesterday's actor rows are left (the default of ANALYTICS_ACTOR_DAYS), in both tables.
    expect(await actorDays('analytics_daily_actor')).toEqual([inDays(-1), today()])
    expect(await actorDays('analytics_daily_total_actor')).toEqual([inDays(-1), today()])
    expect(await answers()).toEqual(before)
    // A second prune finds nothing; a customer counted today under FCL orders AIR again: still two today.
    expect(await pruneAnalyticsActors(test.database.db, test.database.api)).toBe(0)
    await withTenant(test.database.api, demo, (trx) =>
      tally(trx, demo, { metric: 'order', at: at(0, '00:25'), dim1: 'AIR', actor: 'company:2' }),
    )
    const clients = (await chart('orderClientUV')).body.content
    expect(clients.series[0]?.values.at(-1)).toBe(2)
  })
})
