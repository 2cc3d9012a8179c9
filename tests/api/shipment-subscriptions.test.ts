import { type Selectable, sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import type { DB } from '../../server/db/schema.ts'
import { TRACKING_SAMPLES } from '../../server/db/seed/tracking.ts'
import { EVENT_NAMES } from '../../server/domain/letters/events.ts'
import { type NewTrackingEvent, recordTrackingEvents } from '../../server/domain/tracking/record.ts'
import { notifySubscribers } from '../../server/domain/tracking/subscriptions.ts'
import { withTenant } from '../../server/tenancy/scope.ts'
import { setupTestApp } from '../support/app.ts'
import { bearerCalls } from '../support/calls.ts'

/**
 * Shipment subscriptions (schemas/shipmentSubscription.yaml, server/domain/tracking, issue #22): a customer
 * subscribes their order (or one container of it) to its tracking milestones and hears of each new event by
 * the channels chosen, exactly once per event, whoever writes it; nobody else sees or subscribes to it.
 */
const test = setupTestApp()

const { call, ok } = bearerCalls(test)

interface Letter {
  id: number
  title: string
  content: string
  link: string
}

let demo = 0
const ids: Record<string, number> = {}
/** The seeded sea shipment of entadmin's company (containers CSQU3054383 and CSNU6120045) and its order. */
let shipment = 0
let order = 0
let orderNo = ''

beforeAll(async () => {
  const db = test.database.db
  demo = (await db.selectFrom('tenant').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()).id
  await withTenant(db, demo, async (trx) => {
    for (const name of ['entadmin', 'entop', 'nbclerk', 'opadmin'])
      ids[name] = (
        await trx.selectFrom('app_user').select('id').where('username', '=', name).executeTakeFirstOrThrow()
      ).id
    // entadmin reads English; entop keeps the tenant's default, Chinese.
    await trx
      .updateTable('app_user')
      .set({ language: 'en' })
      .where('id', '=', ids.entadmin as number)
      .execute()
    const { rows } = await sql<{ id: number; booking_order: number; order_no: string }>`
      select s.id, s.booking_order, o.order_no from shipment s join booking_order o on o.id = s.booking_order
      where s.containers @> ${JSON.stringify([{ containerNo: TRACKING_SAMPLES.container }])}::jsonb`.execute(trx)
    const row = rows[0]
    if (!row) throw new Error('the seed has no shipment of CSQU3054383 with an order')
    shipment = row.id
    order = row.booking_order
    orderNo = row.order_no
  })
})

const subscribe = (token: string, body: object, language = 'en_US') =>
  call('POST', '/api/shipmentSubscription/add', token, body, { language })

async function subscribed(token: string, body: object): Promise<{ id: number; version: number; status: string }> {
  const response = await subscribe(token, body)
  const json = response.json()
  expect(json.code, response.body.slice(0, 400)).toBe('0000')
  return json.content
}

const addEvent = async (payload: object) =>
  (await ok('POST', '/api/booking/tracking/event/add', await test.login('opadmin'), {
    shipment,
    eventClassifierCode: 'ACT',
    ...payload,
  })) as { id: number }

/** The shipment letters a user holds, oldest first. */
async function lettersOf(user: string): Promise<Letter[]> {
  const { rows } = await withTenant(test.database.db, demo, (trx) =>
    sql<Letter>`select id, title, content, link from letter
      where recipient = ${ids[user]} and event = 'shipmentEvent' order by id`.execute(trx),
  )
  return rows
}

async function mailsOf(user: string): Promise<{ to: string; subject: string; text: string; language: string }[]> {
  const { rows } = await withTenant(test.database.db, demo, (trx) =>
    sql<{ payload: { to: string; subject: string; text: string; language: string } }>`select payload from outbox
      where kind = 'mail' and payload->>'event' = 'shipmentEvent' and (payload->>'recipient')::int = ${ids[user]}
      order by id`.execute(trx),
  )
  return rows.map((row) => row.payload)
}

const arrival = {
  eventType: 'TRANSPORT',
  transportEventTypeCode: 'ARRI',
  unLocationCode: 'USLAX',
  vesselName: 'COSCO SHIPPING ARIES',
  carrierVoyageNumber: '052E',
  eventDateTime: '2026-12-30T22:00:00Z',
}
const equipment = (container: string, code = 'DISC') => ({
  eventType: 'EQUIPMENT',
  equipmentEventTypeCode: code,
  equipmentReference: container,
  emptyIndicatorCode: 'LADEN',
  unLocationCode: 'USLAX',
  eventDateTime: '2026-12-31T02:00:00Z',
})
const release = {
  eventType: 'SHIPMENT',
  shipmentEventTypeCode: 'RELS',
  documentTypeCode: 'CUS',
  unLocationCode: 'USLAX',
  eventDateTime: '2026-12-31T06:00:00Z',
}

describe('subscribing an order to its milestones', () => {
  it('tells the subscriber of an operator event once, in their language, naming the order, the event and the place', async () => {
    const entadmin = await test.login('entadmin')
    const subscription = await subscribed(entadmin, {
      order,
      eventTypes: ['TRANSPORT', 'EQUIPMENT'],
      channels: ['inApp'],
    })
    expect(subscription.status).toBe('active')

    const event = await addEvent(arrival)
    const letters = await lettersOf('entadmin')
    expect(letters).toHaveLength(1)
    expect(letters[0]?.title).toBe(`Order ${orderNo}: Arrived`)
    // 22:00 UTC is 06:00 the next day in Shanghai, the tenant's time zone.
    expect(letters[0]?.content).toBe(`Order ${orderNo}: Arrived at USLAX, 2026-12-31 06:00.`)
    expect(letters[0]?.link).toBe(`/orderDetails?id=${order}`)
    // In-app only: no mail.
    expect(await mailsOf('entadmin')).toEqual([])

    // The same event met again — a retry, a second writer, an import that reads it — tells nobody.
    const again = await withTenant(test.database.db, demo, async (trx) => {
      const stored = (await trx
        .selectFrom('tracking_event')
        .selectAll()
        .where('id', '=', event.id)
        .executeTakeFirstOrThrow()) as Selectable<DB['tracking_event']>
      return notifySubscribers(trx, demo, [stored], ids.opadmin as number)
    })
    expect(again).toEqual([])
    expect(await lettersOf('entadmin')).toHaveLength(1)

    // A SHIPMENT event is not among the types followed.
    await addEvent(release)
    expect(await lettersOf('entadmin')).toHaveLength(1)

    // Cancelled, it tells nobody.
    await ok('POST', '/api/shipmentSubscription/transition', entadmin, {
      id: subscription.id,
      version: subscription.version,
      transition: 'cancel',
    })
    await addEvent({ ...arrival, eventDateTime: '2026-12-31T01:00:00Z' })
    expect(await lettersOf('entadmin')).toHaveLength(1)
  })

  it('queues a mail when the subscription chose mail, and tells a correction as a correction', async () => {
    const entadmin = await test.login('entadmin')
    const before = (await lettersOf('entadmin')).length
    await subscribed(entadmin, { order, eventTypes: ['SHIPMENT'], eventCodes: ['RELS'], channels: ['mail'] })
    const released = await addEvent(release)
    const mails = await mailsOf('entadmin')
    expect(mails).toHaveLength(1)
    expect(mails[0]).toMatchObject({
      to: 'entadmin@demo.example',
      subject: `Order ${orderNo}: released`,
      language: 'en',
    })
    expect(mails[0]?.text).toContain('released at USLAX')
    // Mail only: no letter came of it.
    expect(await lettersOf('entadmin')).toHaveLength(before)

    // Another SHIPMENT code than the one chosen tells nobody.
    await addEvent({ ...release, shipmentEventTypeCode: 'HOLD' })
    expect(await mailsOf('entadmin')).toHaveLength(1)

    await addEvent({ ...release, correctsEvent: released.id, eventDateTime: '2026-12-31T07:00:00Z' })
    const corrected = await mailsOf('entadmin')
    expect(corrected).toHaveLength(2)
    expect(corrected[1]?.subject).toBe(`Order ${orderNo}: correction, released`)
    expect(corrected[1]?.text).toContain('an earlier event is corrected — released at USLAX, 2026-12-31 15:00.')
  })

  it("a subscription narrowed to one container ignores the other container's events", async () => {
    const entadmin = await test.login('entadmin')
    const before = (await lettersOf('entadmin')).length
    await subscribed(entadmin, {
      order,
      containerNo: 'CSNU6120045',
      eventTypes: ['EQUIPMENT', 'TRANSPORT'],
      channels: ['inApp'],
    })
    await addEvent(equipment('CSQU3054383'))
    expect(await lettersOf('entadmin')).toHaveLength(before)
    await addEvent(equipment('CSNU6120045'))
    const letters = await lettersOf('entadmin')
    expect(letters).toHaveLength(before + 1)
    expect(letters.at(-1)?.title).toBe(`Order ${orderNo}: Discharged`)
    expect(letters.at(-1)?.content).toContain(`Order ${orderNo} CSNU6120045: Discharged at USLAX`)
    // A vessel's event belongs to every container on it.
    await addEvent({ ...arrival, eventDateTime: '2026-12-31T09:00:00Z' })
    expect(await lettersOf('entadmin')).toHaveLength(before + 2)
  })

  it('one call records many events and tells each followed one once (the bulk import path)', async () => {
    const before = await lettersOf('entadmin')
    const mails = (await mailsOf('entadmin')).length
    const gateOut = (container: string): NewTrackingEvent => ({
      shipment,
      eventType: 'EQUIPMENT',
      eventClassifierCode: 'ACT',
      equipmentEventTypeCode: 'GTOT',
      equipmentReference: container,
      emptyIndicatorCode: 'LADEN',
      unLocationCode: 'USLAX',
      eventDateTime: '2026-12-31T10:00:00Z',
    })
    const stored = await withTenant(test.database.db, demo, (trx) =>
      recordTrackingEvents(
        trx,
        demo,
        [
          gateOut('CSQU3054383'),
          gateOut('CSNU6120045'),
          {
            shipment,
            eventType: 'SHIPMENT',
            eventClassifierCode: 'ACT',
            shipmentEventTypeCode: 'CMPL',
            documentTypeCode: 'CUS',
            eventDateTime: '2026-12-31T11:00:00Z',
          },
        ],
        { userId: ids.opadmin as number },
      ),
    )
    expect(stored).toHaveLength(3)
    // Only the container followed is told; the SHIPMENT CMPL is not the RELS the mail subscription follows.
    const after = await lettersOf('entadmin')
    expect(after).toHaveLength(before.length + 1)
    expect(after.at(-1)?.content).toContain('CSNU6120045')
    expect(await mailsOf('entadmin')).toHaveLength(mails)
  })
  it('queues a WeChat template message to a subscriber bound to the official account', async () => {
    const entadmin = await test.login('entadmin')
    await withTenant(test.database.db, demo, (trx) =>
      trx
        .updateTable('app_user')
        .set({ wechat_openid: 'o-entadmin-demo' })
        .where('id', '=', ids.entadmin as number)
        .execute(),
    )
    await subscribed(entadmin, { order, eventTypes: ['SHIPMENT'], eventCodes: ['ISSU'], channels: ['weChat'] })
    const letters = (await lettersOf('entadmin')).length
    await addEvent({ ...release, shipmentEventTypeCode: 'ISSU', documentTypeCode: 'TRD' })
    const { rows } = await withTenant(test.database.db, demo, (trx) =>
      sql<{ payload: { to: string; template: string; params: Record<string, string>; url: string } }>`
        select payload from outbox where kind = 'wechat' and payload->>'to' = 'o-entadmin-demo' order by id`.execute(
        trx,
      ),
    )
    expect(rows.map((r) => r.payload)).toEqual([
      {
        to: 'o-entadmin-demo',
        template: 'orderStatus',
        params: expect.objectContaining({ first: `Order ${orderNo}: issued`, keyword1: orderNo }),
        url: `/orderDetails?id=${order}`,
      },
    ])
    // WeChat only: no letter.
    expect(await lettersOf('entadmin')).toHaveLength(letters)
  })

  it("the user's receiving settings can turn a channel off for every subscription", async () => {
    const entadmin = await test.login('entadmin')
    const mails = (await mailsOf('entadmin')).length
    // /letterManage's row of the shipment event (its number in the catalogue): mail off.
    await ok('POST', '/api/b2b/letter/setting/save', entadmin, {
      id: EVENT_NAMES.indexOf('shipmentEvent') + 1,
      mail: false,
    })
    await addEvent({ ...release, eventDateTime: '2026-12-31T12:00:00Z' })
    expect(await mailsOf('entadmin')).toHaveLength(mails)
  })
})

describe('whose subscriptions', () => {
  it('another customer can neither subscribe to the order nor see the subscriptions', async () => {
    const nbclerk = await test.login('nbclerk')
    const refused = (await subscribe(nbclerk, { order, eventTypes: ['TRANSPORT'], channels: ['inApp'] })).json()
    expect(refused.code).toBe('validation')
    expect(refused.content.fieldErrors).toEqual([
      expect.objectContaining({ field: 'order', message: 'You can only subscribe to your own orders' }),
    ])
    // A colleague who sees only their own orders (data scope self) may not subscribe to entadmin's either.
    const entop = (
      await subscribe(await test.login('entop'), { order, eventTypes: ['TRANSPORT'], channels: ['inApp'] })
    ).json()
    expect(entop.content.fieldErrors[0].field).toBe('order')
    const zh = (await subscribe(nbclerk, { order, eventTypes: ['TRANSPORT'], channels: ['inApp'] }, 'zh_CN')).json()
    expect(zh.content.fieldErrors[0].message).toBe('只能订阅自己的订单')

    const entadmin = await test.login('entadmin')
    const own = await ok('POST', '/api/shipmentSubscription/list', entadmin, { pageNum: 1, pageSize: 50 })
    expect(own.total).toBeGreaterThan(0)
    for (const row of own.list as { createdBy: number }[]) expect(row.createdBy).toBe(ids.entadmin)

    // Not another company's user, nor a colleague of the same company: each sees only their own.
    const theirs = await ok('POST', '/api/shipmentSubscription/list', nbclerk, { pageNum: 1, pageSize: 50 })
    expect(theirs.total).toBe(0)
    const colleague = await ok('POST', '/api/shipmentSubscription/list', await test.login('entop'), {
      pageNum: 1,
      pageSize: 50,
    })
    for (const row of colleague.list as { createdBy: number }[]) expect(row.createdBy).toBe(ids.entop)
    const first = (own.list as { id: number }[])[0]?.id
    const detail = (await call('GET', `/api/shipmentSubscription/get?id=${first}`, nbclerk)).json()
    expect(detail.code).not.toBe('0000')

    // Another tenant's customer: nothing of demo's, and demo's order is not theirs to subscribe.
    const acme = await test.login('entadmin', 'acme.localhost')
    const acmeList = (
      await call(
        'POST',
        '/api/shipmentSubscription/list',
        acme,
        { pageNum: 1, pageSize: 50 },
        { host: 'acme.localhost' },
      )
    ).json()
    expect(acmeList.content.total).toBe(0)
    const acmeSubscribe = (
      await call(
        'POST',
        '/api/shipmentSubscription/add',
        acme,
        { order, eventTypes: ['TRANSPORT'], channels: ['inApp'] },
        { host: 'acme.localhost' },
      )
    ).json()
    expect(acmeSubscribe.code).toBe('validation')
    expect(acmeSubscribe.content.fieldErrors[0].field).toBe('order')
  })
})

describe("the order look-up of the subscription's form", () => {
  it("finds the caller's orders by number or id, and none of another company's", async () => {
    const lookup = async (token: string, query: string) =>
      (await ok('GET', `/api/b2b/basicData/order/fuzzyQuery?${query}`, token)) as {
        list: { value: string; label: string }[]
      }
    const entadmin = await test.login('entadmin')
    const byNumber = await lookup(entadmin, `keyword=${encodeURIComponent(orderNo)}`)
    expect(byNumber.list).toContainEqual(expect.objectContaining({ value: String(order), label: orderNo }))
    expect((await lookup(entadmin, `codes=${order}`)).list).toEqual([
      expect.objectContaining({ value: String(order), label: orderNo }),
    ])
    const nbclerk = await test.login('nbclerk')
    expect((await lookup(nbclerk, `codes=${order}`)).list).toEqual([])
    expect((await lookup(nbclerk, `keyword=${encodeURIComponent(orderNo)}`)).list).toEqual([])
    // The order desk holds no myOrders and no billManage: the look-up is the customer's and the bill maker's.
    const desk = (
      await call('GET', `/api/b2b/basicData/order/fuzzyQuery?codes=${order}`, await test.login('opcs'))
    ).json()
    expect(desk.code).toBe('220000')
    // The operation administrator makes bills (billManage): it finds the tenant's order for a new bill.
    expect((await lookup(await test.login('opadmin'), `codes=${order}`)).list).toEqual([
      expect.objectContaining({ value: String(order), label: orderNo }),
    ])
  })
})

describe('bad input', () => {
  it('is refused under its field, in English and in Chinese', async () => {
    const entadmin = await test.login('entadmin')
    const good = { order, eventTypes: ['EQUIPMENT'], channels: ['inApp'] }
    const cases: [Record<string, unknown>, string, string, string][] = [
      [{ eventTypes: [] }, 'eventTypes', 'At least 1 entries required', '至少需要 1 项'],
      [{ eventTypes: undefined }, 'eventTypes', 'Required', '此项为必填项'],
      [{ channels: [] }, 'channels', 'At least 1 entries required', '至少需要 1 项'],
      [{ order: undefined }, 'order', 'Required', '此项为必填项'],
      [
        { containerNo: 'CSQU3054384' },
        'containerNo',
        'Not a valid container number (4 letters + 7 digits with a correct check digit, e.g. CSQU3054383)',
        '箱号格式不正确（4 位字母 + 7 位数字，且校验位正确，例如 CSQU3054383）',
      ],
      [
        { containerNo: TRACKING_SAMPLES.arrivedContainer },
        'containerNo',
        "This container is not one of the order's shipment",
        '该箱号不属于此订单的运单',
      ],
      [
        { eventCodes: ['DEPA'] },
        'eventCodes',
        'Each event code must belong to an event type chosen',
        '每个事件代码都必须属于所选的事件类型',
      ],
    ]
    for (const [change, field, en, zh] of cases) {
      const body = { ...good, ...change }
      for (const [language, message] of [
        ['en_US', en],
        ['zh_CN', zh],
      ] as const) {
        const response = await subscribe(entadmin, body, language)
        const json = response.json()
        expect(response.statusCode, `${JSON.stringify(change)} ${response.body.slice(0, 300)}`).toBe(400)
        expect(json.code).toBe('validation')
        expect(
          (json.content.fieldErrors as { field: string; message: string }[]).find((f) => f.field === field)?.message,
          JSON.stringify(change),
        ).toBe(message)
      }
    }
    // An unknown channel and too many event types are refused too.
    const fax = (await subscribe(entadmin, { ...good, channels: ['fax'] })).json()
    expect(fax.code).toBe('validation')
    const many = (await subscribe(entadmin, { ...good, eventCodes: Array(29).fill('LOAD') })).json()
    expect(many.code).toBe('validation')
  })
})
