import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { setupTestApp } from '../support/app.ts'
import { inDays, today } from '../support/clock.ts'
import { fclRate, fclRates, multipart } from '../support/workbook.ts'

/**
 * A price-watch alert goes to the address the user chose for price alerts (POST
 * /b2b/user/change/pricePushEmail, issue #22), and to the account's own e-mail while none is chosen.
 */
const test = setupTestApp()

const call = (url: string, token: string, payload: object) =>
  test.app.inject({
    method: 'POST',
    url,
    headers: { host: 'localhost', authorization: `Bearer ${token}`, language: 'en_US' },
    payload,
  })

async function importRate(rateNo: string, carrier: string, price: number) {
  const { payload, contentType } = multipart(
    'rates.xlsx',
    fclRates([fclRate(rateNo, carrier, price, inDays(-1), inDays(30))]),
  )
  const response = await test.app.inject({
    method: 'POST',
    url: '/api/price/rate/import',
    headers: { host: 'localhost', authorization: `Bearer ${await test.login('opadmin')}`, 'content-type': contentType },
    payload,
  })
  expect(response.json().content.imported, response.body.slice(0, 300)).toBe(1)
}

const alertMails = async () =>
  (
    await sql<{ to: string }>`
      select payload ->> 'to' as to from outbox where kind = 'mail'
        and payload ->> 'subject' in ('Price watch alert', '价格监控提醒') order by id`.execute(test.database.db)
  ).rows.map((r) => r.to)

async function watchFor(token: string, carrier: string) {
  const response = await call('/api/priceWatch/add', token, {
    containerType: '45G1',
    carrier,
    minCbm: 20,
    targetPrice: '1500',
    pol: 'CNSHA',
    pod: 'USLAX',
    subscriptionType: 'targetReached',
    channel: 'mail',
    period: 30,
    startDate: today(),
  })
  expect(response.json().code, response.body.slice(0, 300)).toBe('0000')
}

describe('price-watch alerts by mail', () => {
  it("go to the account's e-mail, then to the address chosen for price alerts", async () => {
    const token = await test.login('entadmin')
    await watchFor(token, 'MATS')
    await importRate('PA-MATS-1', 'MATS', 1400)
    expect((await alertMails()).at(-1)).toBe('entadmin@demo.example')

    const chosen = await call('/api/b2b/user/change/pricePushEmail', token, {
      pricePushEmail: 'pricing@minghui.example',
    })
    expect(chosen.json().code).toBe('0000')
    await watchFor(token, 'ZIMU')
    const before = (await alertMails()).length
    await importRate('PA-ZIMU-1', 'ZIMU', 1300)
    const sent = await alertMails()
    expect(sent.length).toBe(before + 1)
    expect(sent.at(-1)).toBe('pricing@minghui.example')
  })
})
