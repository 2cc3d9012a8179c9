import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { evaluateWatchesDaily } from '../../server/domain/watch/daily.ts'
import { setupTestApp } from '../support/app.ts'
import { inDays, now, today } from '../support/clock.ts'
import { type Cell, fclRate, fclRates, multipart } from '../support/workbook.ts'

/**
 * Price watches (schemas/priceWatch.yaml, /priceMonitor, server/domain/watch, issue #22): SPEC §5's rules per
 * field in the caller's language, SPEC §4's states on the tenant's day, and the alerts a rate import or edit
 * sends — one per change, none for the same rate again, none once cancelled.
 */
const test = setupTestApp()

const call = (method: 'GET' | 'POST', url: string, token: string, payload?: unknown, language = 'en_US') =>
  test.app.inject({
    method,
    url,
    headers: { host: 'localhost', authorization: `Bearer ${token}`, language },
    ...(payload === undefined ? {} : { payload: payload as object }),
  })

/** A good watch: Shanghai → Los Angeles, 40'HQ (45G1), on a carrier the demo seed quotes no rate for. */
const watch = (overrides: Record<string, unknown> = {}) => ({
  containerType: '45G1',
  carrier: 'MATS',
  minCbm: 20,
  targetPrice: '1500',
  pol: 'CNSHA',
  pod: 'USLAX',
  subscriptionType: 'targetReached',
  channel: 'mail',
  period: 30,
  startDate: today(),
  ...overrides,
})

async function create(token: string, body: object) {
  const response = await call('POST', '/api/priceWatch/add', token, body)
  const json = response.json()
  expect(json.code, response.body.slice(0, 400)).toBe('0000')
  return json.content as { id: number; version: number; status: string }
}

async function refused(body: object, language: string) {
  const response = await call('POST', '/api/priceWatch/add', await test.login('entadmin'), body, language)
  const json = response.json()
  return {
    status: response.statusCode,
    code: json.code as string,
    fields: ((json.content?.fieldErrors ?? []) as { field: string; message: string }[]).map((f) => [
      f.field,
      f.message,
    ]),
  }
}

/** An FCL rate valid from `from` days from today for 30 days (tests/support/workbook.ts fclRate). */
const fcl = (rateNo: string, carrier: string, price: number | string, from = -1): Cell[] =>
  fclRate(rateNo, carrier, price, inDays(from), inDays(30))

async function importRates(rows: Cell[][]) {
  const { payload, contentType } = multipart('rates.xlsx', fclRates(rows))
  const response = await test.app.inject({
    method: 'POST',
    url: '/api/price/rate/import',
    headers: {
      host: 'localhost',
      authorization: `Bearer ${await test.login('opadmin')}`,
      'content-type': contentType,
      language: 'en_US',
    },
    payload,
  })
  return response.json() as { code: string; content: { imported: number } }
}

/** The letters of the watch alerts a user holds, newest first (their own letter list, as the bell reads it). */
async function alerts(token: string) {
  const response = await call('POST', '/api/b2b/letter/list', token, { pageNum: 1, pageSize: 100 })
  const list = response.json().content.list as { title: string; content: string }[]
  return list.filter((l) => l.title === 'Price watch alert' || l.title === '价格监控提醒')
}

const mails = async () =>
  (
    await sql<{ payload: { to: string; subject: string; text: string; language: string } }>`
      select payload from outbox where kind = 'mail' and payload ->> 'subject' in ('Price watch alert', '价格监控提醒')
      order by id`.execute(test.database.db)
  ).rows.map((r) => r.payload)

describe('price watch rules (SPEC §5)', () => {
  it('names each broken rule under its field, in English and in Chinese', async () => {
    const cases: [Record<string, unknown>, string, string, string][] = [
      [{ targetPrice: '1500.1234' }, 'targetPrice', 'Invalid format', '格式不正确'],
      [{ targetPrice: '1000000' }, 'targetPrice', 'Must be at most 999999.999', '不能大于 999999.999'],
      [{ minPrice: '-1000000' }, 'minPrice', 'Must be at least -999999', '不能小于 -999999'],
      [
        { minPrice: '300', maxPrice: '200' },
        'maxPrice',
        'Max price must be greater than min price',
        '最高价格必须大于最低价格',
      ],
      [
        { pol: undefined, pod: undefined },
        'pol',
        'Enter a port of loading or a port of discharge',
        '请填写起运港或目的港',
      ],
      [{ period: 45 }, 'period', 'Must be one of: 30, 60, 90, 180, 360', '请从以下选项中选择：30, 60, 90, 180, 360'],
      [{ minCbm: undefined }, 'minCbm', 'Required', '此项为必填项'],
      [{ carrier: undefined }, 'carrier', 'Required', '此项为必填项'],
      [{ containerType: undefined }, 'containerType', 'Required', '此项为必填项'],
      [{ startDate: undefined }, 'startDate', 'Required', '此项为必填项'],
      [{ targetPrice: undefined }, 'targetPrice', 'Required', '此项为必填项'],
    ]
    for (const [change, field, en, zh] of cases) {
      const body = watch(change)
      const english = await refused(body, 'en_US')
      expect(english.status, JSON.stringify(change)).toBe(400)
      expect(english.code).toBe('validation')
      expect(english.fields, JSON.stringify(change)).toContainEqual([field, en])
      const chinese = await refused(body, 'zh_CN')
      expect(chinese.fields, JSON.stringify(change)).toContainEqual([field, zh])
    }
    // The edges SPEC names are accepted: −999999 and 999999.999, a POD alone.
    const token = await test.login('entadmin')
    await create(token, watch({ targetPrice: '-999999', minPrice: '-999999', maxPrice: '999999.999', pol: undefined }))
  })
})

describe('price watch states (SPEC §4) on the tenant day', () => {
  it('reads not started before its start date, in progress within its period, ended after it', async () => {
    const token = await test.login('entadmin')
    const later = await create(token, watch({ carrier: 'ANNU', startDate: inDays(2) }))
    const running = await create(token, watch({ carrier: 'ANNU', startDate: inDays(-29), period: 30 }))
    const over = await create(token, watch({ carrier: 'ANNU', startDate: inDays(-30), period: 30 }))
    const state = async (id: number) =>
      (await call('GET', `/api/priceWatch/get?id=${id}`, token)).json().content.status as string
    expect(await state(later.id)).toBe('notStarted')
    expect(await state(running.id)).toBe('inProgress')
    expect(await state(over.id)).toBe('ended')
    // Cancel is a transition; an ended watch cannot be cancelled (320001).
    const cancelled = await call('POST', '/api/priceWatch/transition', token, {
      id: later.id,
      version: later.version,
      transition: 'cancel',
    })
    expect(cancelled.json().code).toBe('0000')
    expect(await state(later.id)).toBe('cancelled')
    const refusedCancel = await call('POST', '/api/priceWatch/transition', token, {
      id: over.id,
      version: over.version,
      transition: 'cancel',
    })
    expect(refusedCancel.json().code).toBe('320001')
  })
})

describe('price watch alerts', () => {
  it('a rate import reaching the target sends one alert, by letter and mail; the same rate again sends none', async () => {
    const token = await test.login('entadmin')
    const before = (await alerts(token)).length
    const mailsBefore = (await mails()).length
    await create(token, watch({ carrier: 'MATS', targetPrice: '1500' }))
    // Above the target: nothing.
    expect((await importRates([fcl('PW-MATS-1', 'MATS', 1800)])).content.imported).toBe(1)
    expect((await alerts(token)).length).toBe(before)
    // At or below it: one alert.
    expect((await importRates([fcl('PW-MATS-2', 'MATS', 1450.5)])).content.imported).toBe(1)
    const told = await alerts(token)
    expect(told.length).toBe(before + 1)
    expect(told[0]?.content).toBe('MATS 45G1 CNSHA → USLAX 的价格已达到您的目标：1450.5 USD（运价 PW-MATS-2）。')
    const sent = await mails()
    expect(sent.length).toBe(mailsBefore + 1)
    // In the user's language (entadmin chose none: Chinese, the portal's default).
    expect(sent.at(-1)).toMatchObject({ to: 'entadmin@demo.example', subject: '价格监控提醒', language: 'zh' })
    // The same workbook again is refused as a duplicate rate and tells nobody; a rate at the same best price
    // (the first one stays the best) tells nobody either.
    await importRates([fcl('PW-MATS-2', 'MATS', 1450.5)])
    await importRates([fcl('PW-MATS-3', 'MATS', 1450.5)])
    expect((await alerts(token)).length).toBe(before + 1)
    expect((await mails()).length).toBe(mailsBefore + 1)
  })

  it('a price change watch is told of each new best price once, and of nothing once cancelled', async () => {
    const token = await test.login('entadmin')
    await importRates([fcl('PW-APLU-1', 'APLU', 2100)])
    const before = (await alerts(token)).length
    const created = await create(token, watch({ carrier: 'APLU', subscriptionType: 'priceChange', channel: 'inApp' }))
    // The watch starts from today's best price, without an alert.
    expect((await alerts(token)).length).toBe(before)
    await importRates([fcl('PW-APLU-2', 'APLU', 1990)])
    const told = await alerts(token)
    expect(told.length).toBe(before + 1)
    expect(told[0]?.content).toBe('APLU 45G1 CNSHA → USLAX 的价格已变为 1990 USD（运价 PW-APLU-2）。')
    // In-app only: no mail for it.
    expect((await mails()).some((m) => m.text.includes('PW-APLU'))).toBe(false)
    // A rate edit that changes the best price is a change too (the engine's afterUpdate).
    const operator = await test.login('opadmin')
    const rates = (
      await call('POST', '/api/price/rate/list', operator, { searchParams: { rateNo: 'PW-APLU-2' }, pageSize: 10 })
    ).json().content.list as Record<string, unknown>[]
    const rate = rates[0] as Record<string, unknown>
    const edited = await call('POST', '/api/price/rate/edit', operator, {
      ...rate,
      containerPrices: [{ containerType: '45G1', price: '1880' }],
    })
    expect(edited.json().code, edited.body.slice(0, 300)).toBe('0000')
    expect((await alerts(token)).length).toBe(before + 2)
    // Cancelled: silence.
    const current = (await call('GET', `/api/priceWatch/get?id=${created.id}`, token)).json().content
    const cancel = await call('POST', '/api/priceWatch/transition', token, {
      id: created.id,
      version: current.version,
      transition: 'cancel',
    })
    expect(cancel.json().code).toBe('0000')
    await importRates([fcl('PW-APLU-3', 'APLU', 1700)])
    expect((await alerts(token)).length).toBe(before + 2)
  })
})

describe('the daily look', () => {
  it('tells a watch of a rate that becomes valid overnight, once however often the look runs', async () => {
    const token = await test.login('entadmin')
    await create(token, watch({ carrier: 'SKLU', targetPrice: '1600' }))
    const before = (await alerts(token)).length
    // Valid from tomorrow: today's import tells nobody.
    expect((await importRates([fcl('PW-SKLU-1', 'SKLU', 1550, 1)])).content.imported).toBe(1)
    expect((await alerts(token)).length).toBe(before)
    const tomorrow = new Date(now().getTime() + 24 * 60 * 60 * 1000)
    expect(await evaluateWatchesDaily(test.database.db, test.database.api, tomorrow)).toBe(1)
    expect(await evaluateWatchesDaily(test.database.db, test.database.api, tomorrow)).toBe(0)
    const told = await alerts(token)
    expect(told.length).toBe(before + 1)
    expect(told[0]?.content).toBe('SKLU 45G1 CNSHA → USLAX 的价格已达到您的目标：1550 USD（运价 PW-SKLU-1）。')
  })
})

describe('price watch isolation', () => {
  it('a customer sees their own watches only; another tenant reaches none', async () => {
    const mine = await test.login('entadmin')
    const created = await create(mine, watch({ carrier: 'ACLU' }))
    const other = await test.login('nbclerk')
    const list = (await call('POST', '/api/priceWatch/list', other, { pageNum: 1, pageSize: 100 })).json()
    // nbclerk (another company) either lacks the permission or sees none of entadmin's rows.
    if (list.code === '0000')
      expect((list.content.list as { id: number }[]).some((row) => row.id === created.id)).toBe(false)
    else expect(list.code).toBe('220000')
    const acme = await test.app.inject({
      method: 'GET',
      url: `/api/priceWatch/get?id=${created.id}`,
      headers: { host: 'acme.localhost', authorization: `Bearer ${await test.login('entadmin', 'acme.localhost')}` },
    })
    expect(acme.json().code).toBe('404')
    const operatorList = await call('POST', '/api/priceWatch/list', await test.login('opadmin'), {})
    expect(operatorList.json().code).toBe('220000')
  })
})
