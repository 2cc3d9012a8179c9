import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { isoContainer } from '../../rules/formats.ts'
import { setupTestApp } from '../support/app.ts'

/**
 * B/L instructions (schemas/blInstruction.yaml, /cargoFeedList, /cargoFeedSubmission/:mode, issue #23): each
 * SPEC §5 B/L rule refused in the caller's language (zh-CN and en), the confirm status moved by operators only,
 * a confirmed instruction read-only until reopened, one instruction per confirmed FCL order the caller sees,
 * the HS code look-up, and the tenant and company walls.
 */
const test = setupTestApp()

const call = (method: 'GET' | 'POST', url: string, token: string, payload?: unknown, language = 'en_US') =>
  test.app.inject({
    method,
    url,
    headers: { host: 'localhost', authorization: `Bearer ${token}`, language },
    ...(payload === undefined ? {} : { payload: payload as object }),
  })

/** The demo tenant's confirmed FCL orders without an instruction yet (the seed leaves the newer ones free). */
async function freeOrders(tenant = 'demo'): Promise<number[]> {
  const { rows } = await sql<{ id: number }>`
    select o.id from booking_order o join tenant t on t.id = o.tenant_id
    where t.code = ${tenant} and o.container_load_type = 'FCL' and o.state in ('accepted', 'booked')
      and not exists (select 1 from bl_instruction b where b.order = o.id)
    order by o.id`.execute(test.database.db)
  return rows.map((r) => r.id)
}

const container = (overrides: Record<string, unknown> = {}) => ({
  containerNo: 'CSQU3054383',
  sealNo: 'CN1234567',
  size: '40',
  type: 'HQ',
  quantity: 700,
  grossWeight: 10500.5,
  volume: 30.125,
  marks: 'N/M',
  description: 'COTTON T-SHIRTS\nKNITTED',
  ...overrides,
})

/** A good instruction: two 40' high cubes of T-shirts, Shanghai → Los Angeles; the totals are the sums. */
const instruction = (order: number, overrides: Record<string, unknown> = {}) => ({
  order,
  blNo: 'COSU6371843210',
  bizNo: 'HZMH-2026-0412',
  originalCount: 3,
  copyCount: 3,
  blWay: 'general',
  shipper: 'HANGZHOU MINGHUI TEXTILE IMP & EXP\nNO. 318 QIUTAO NORTH ROAD\nHANGZHOU 310020 CHINA',
  consignee: 'PACIFIC HOME GOODS INC.\n1200 HARBOR BLVD\nLONG BEACH CA 90802 USA',
  notifyParty: 'SAME AS CONSIGNEE',
  placeOfReceiptCode: 'CNHGH',
  placeOfReceiptName: 'HANGZHOU',
  portOfLoadingCode: 'CNSHA',
  portOfLoadingName: 'SHANGHAI',
  portOfDischargeCode: 'USLAX',
  portOfDischargeName: 'LOS ANGELES',
  placeOfDeliveryCode: 'USLAX',
  placeOfDeliveryName: 'LOS ANGELES',
  carrier: 'COSU',
  vessel: 'COSCO SHIPPING ARIES',
  voyage: '062E',
  transportClause: 'CY-CY',
  remarks: 'FREIGHT PREPAID',
  quantity: 1200,
  packageType: 'CT',
  grossWeight: 18500.5,
  volume: 56.125,
  containers: [
    container(),
    container({ containerNo: 'MSKU9070323', quantity: 500, grossWeight: 8000, volume: 26, description: 'T-SHIRTS' }),
  ],
  goodsNameEn: 'COTTON T-SHIRTS',
  goodsNameCn: '棉制针织T恤衫',
  hsCode: '610910',
  woodPackagingType: 'none',
  ...overrides,
})

async function submit(token: string, body: object, language = 'en_US') {
  const response = await call('POST', '/api/booking/blSubmission/submit', token, body, language)
  const json = response.json()
  return {
    status: response.statusCode,
    code: json.code as string,
    content: json.content,
    fields: ((json.content?.fieldErrors ?? []) as { field: string; message: string }[]).map((f) => [
      f.field,
      f.message,
    ]),
  }
}

describe('B/L instructions', () => {
  it('refuses each SPEC §5 B/L rule with its message, in English and in Chinese', async () => {
    const token = await test.login('entadmin')
    const [order] = (await freeOrders()) as [number]
    const twoContainers = instruction(order).containers
    const cases: [Record<string, unknown>, string, string, string][] = [
      [{ quantity: 1201 }, 'quantity', 'The total pieces must equal', '件数合计必须等于各集装箱件数之和'],
      [
        { grossWeight: 18500.25 },
        'grossWeight',
        'The total gross weight must equal',
        '毛重合计必须等于各集装箱毛重之和',
      ],
      [{ volume: 56.124 }, 'volume', 'The total volume must equal', '体积合计必须等于各集装箱体积之和'],
      [
        { containers: [container({ containerNo: 'CSQU3054384' }), twoContainers[1]] },
        'containers[0].containerNo',
        'check digit',
        '校验位',
      ],
      [
        { containers: [container(), container({ quantity: 500, grossWeight: 8000, volume: 26 })] },
        'containers',
        'The same container cannot be added twice',
        '同一箱号不能重复添加',
      ],
      [{ blNo: undefined }, 'blNo', 'Cannot submit without a B/L number', '没有提单号不能提交'],
      [{ blNo: '' }, 'blNo', 'Cannot submit without a B/L number', '没有提单号不能提交'],
      [
        { containers: [container({ description: 'A\nB\nC\nD\nE\nF\nG' }), twoContainers[1]] },
        'containers[0].description',
        'over 6 lines',
        '超过6行',
      ],
      [{ packageType: 'CS' }, 'woodPackagingType', 'must match the B/L', '必须与提单包装一致'],
      [{ woodPackagingType: 'treated' }, 'woodPackagingType', 'must match the B/L', '必须与提单包装一致'],
      [{ shipper: 'A\nB\nC\nD\nE\nF\nG\nH' }, 'shipper', '35', '35'],
      [{ consignee: 'X'.repeat(36) }, 'consignee', '35', '35'],
      [{ containers: [] }, 'containers', 'at least one container', '至少添加一个集装箱'],
      [
        { containers: [container({ quantity: 12.5 }), twoContainers[1]] },
        'containers[0].quantity',
        'whole number',
        '整数',
      ],
      [{ grossWeight: 0 }, 'grossWeight', 'greater than 0', '大于 0'],
      [{ dgClass: '3' }, 'unNo', 'UN number', '联合国编号'],
      [
        { hsCode: '610999' },
        'hsCode',
        'does not begin with a subheading of the Harmonized System',
        '不是协调制度目录中的子目',
      ],
    ]
    for (const [change, field, en, zh] of cases) {
      const body = instruction(order, change)
      const english = await submit(token, body, 'en_US')
      expect(english.status, JSON.stringify(change)).toBe(400)
      expect(english.code, JSON.stringify(change)).toBe('validation')
      // The field's messages (a total of 0 is both not above 0 and not the sum): one of them is the rule's.
      const said = english.fields.filter(([f]) => f === field).map(([, message]) => message)
      expect(
        said.some((message) => message?.includes(en)),
        `${JSON.stringify(change)} → ${JSON.stringify(english.fields)}`,
      ).toBe(true)
      const chinese = await submit(token, body, 'zh_CN')
      const saidZh = chinese.fields.filter(([f]) => f === field).map(([, message]) => message)
      expect(
        saidZh.some((message) => message?.includes(zh)),
        `${JSON.stringify(change)} → ${JSON.stringify(chinese.fields)}`,
      ).toBe(true)
    }
    // None of them stored anything: the order is still free.
    expect(await freeOrders()).toContain(order)
  })

  it('stores a good instruction for a confirmed FCL order, one per order, with the order’s customer', async () => {
    const token = await test.login('entadmin')
    const [order] = (await freeOrders()) as [number]
    const created = await submit(token, instruction(order))
    expect(created.code, JSON.stringify(created.content).slice(0, 400)).toBe('0000')
    expect(created.content.confirmStatus).toBe('unconfirmed')
    expect(created.content.customerCompany).toBeGreaterThan(0)
    // The order and the HS code read as their names.
    expect(created.content.labels.order).toMatch(/^HY/)
    expect(created.content.labels.hsCode).toContain('T-shirts')
    // A second instruction for the same order is refused.
    const again = await submit(token, instruction(order, { blNo: 'COSU6371849999' }))
    expect(again.code).toBe('400003')
  })

  it('refuses an order that is not a confirmed FCL order of the caller', async () => {
    const token = await test.login('entadmin')
    const { rows } = await sql<{ id: number; why: string }>`
      select distinct on (why) o.id, case when o.container_load_type <> 'FCL' then 'lcl' else o.state end as why
      from booking_order o join tenant t on t.id = o.tenant_id
      where t.code = 'demo' and (o.container_load_type <> 'FCL' or o.state in ('submitted', 'draft'))
      order by why, o.id`.execute(test.database.db)
    expect(rows.length).toBeGreaterThanOrEqual(2)
    for (const { id } of rows) {
      const refused = await submit(token, instruction(id))
      expect(refused.fields).toContainEqual(['order', 'B/L instructions are for confirmed FCL orders you can see'])
    }
    // acme's confirmed FCL order reads to a demo customer exactly like a missing one.
    const [acmeOrder] = await freeOrders('acme')
    const { rows: any } = await sql<{ id: number }>`
      select o.id from booking_order o join tenant t on t.id = o.tenant_id
      where t.code = 'acme' and o.container_load_type = 'FCL' and o.state in ('accepted', 'booked') order by o.id limit 1`.execute(
      test.database.db,
    )
    const foreign = acmeOrder ?? (any[0]?.id as number)
    const crossTenant = await submit(token, instruction(foreign))
    expect(crossTenant.fields).toContainEqual(['order', 'B/L instructions are for confirmed FCL orders you can see'])
  })

  it('lets operators confirm, reopen and finish; a confirmed instruction is read-only for the customer', async () => {
    const customer = await test.login('entadmin')
    const operator = await test.login('opadmin')
    const [, order] = (await freeOrders()) as [number, number]
    const created = await submit(customer, instruction(order, { blNo: 'COSU6371850000' }))
    expect(created.code).toBe('0000')
    let { id, version } = created.content as { id: number; version: number }

    // The customer edits while unconfirmed.
    const edited = await call('POST', '/api/booking/blSubmission/edit', customer, {
      id,
      version,
      remarks: 'FREIGHT COLLECT',
    })
    expect(edited.json().code).toBe('0000')
    version = edited.json().content.version

    // The customer cannot confirm their own instruction.
    const own = await call('POST', '/api/blInstruction/transition', customer, { id, version, transition: 'confirm' })
    expect(own.json().code).toBe('220000')

    const confirmed = await call('POST', '/api/blInstruction/transition', operator, {
      id,
      version,
      transition: 'confirm',
    })
    expect(confirmed.json().code).toBe('0000')
    expect(confirmed.json().content.confirmStatus).toBe('confirmed')
    version = confirmed.json().content.version
    // The customer hears of it (issue #22's letters), in their language: a letter opening the instruction.
    const { rows: told } = await sql<{ title: string; link: string }>`
      select l.title, l.link from letter l join app_user u on u.id = l.recipient and u.tenant_id = l.tenant_id
      where u.username = 'entadmin' and l.event = 'blConfirmed' order by l.id desc limit 1`.execute(test.database.db)
    expect(told[0]).toEqual({
      title: '提单补料 COSU6371850000 已确认',
      link: `/cargoFeedSubmission/view?id=${id}`,
    })

    // Confirmed: read-only for the customer (SPEC §8 320001, the state refuses the change).
    const locked = await call('POST', '/api/booking/blSubmission/edit', customer, { id, version, remarks: 'CHANGED' })
    expect(locked.json().code).toBe('320001')

    // Reopened by the operator, the customer edits again.
    const reopened = await call('POST', '/api/blInstruction/transition', operator, {
      id,
      version,
      transition: 'reopen',
    })
    expect(reopened.json().content.confirmStatus).toBe('unconfirmed')
    version = reopened.json().content.version
    const again = await call('POST', '/api/booking/blSubmission/edit', customer, { id, version, remarks: 'CHANGED' })
    expect(again.json().code).toBe('0000')
    version = again.json().content.version
    // Its order cannot be moved to another.
    const [, , other] = await freeOrders()
    if (other) {
      const moved = await call('POST', '/api/booking/blSubmission/edit', customer, { id, version, order: other })
      expect(moved.json().content.fieldErrors).toContainEqual(
        expect.objectContaining({ field: 'order', message: 'The order of an instruction cannot be changed' }),
      )
    }

    // Confirmed again and finished; finished cannot go back.
    const c2 = await call('POST', '/api/blInstruction/transition', operator, { id, version, transition: 'confirm' })
    version = c2.json().content.version
    const finished = await call('POST', '/api/blInstruction/transition', operator, {
      id,
      version,
      transition: 'finish',
    })
    expect(finished.json().content.confirmStatus).toBe('finished')
    version = finished.json().content.version
    const back = await call('POST', '/api/blInstruction/transition', operator, { id, version, transition: 'reopen' })
    expect(back.json().code).toBe('320001')

    // Its history says who did what.
    const detail = await call('GET', `/api/booking/blSubmission/detail?id=${id}`, customer)
    const history = detail.json().content.history as { transition: string | null }[]
    expect(history.map((h) => h.transition).filter(Boolean)).toEqual(['finish', 'confirm', 'reopen', 'confirm'])
  })

  it('lists a customer their company’s instructions and an operator the tenant’s, never another tenant’s', async () => {
    const list = async (token: string, host = 'localhost', searchParams: Record<string, unknown> = {}) => {
      const response = await test.app.inject({
        method: 'POST',
        url: '/api/booking/blSubmission/list',
        headers: { host, authorization: `Bearer ${token}`, language: 'en_US' },
        payload: { searchParams, pageNum: 1, pageSize: 50 },
      })
      return response.json().content as { list: { blNo: string; confirmStatus: string }[]; total: number }
    }
    const demoCustomer = await list(await test.login('entadmin'))
    const demoOperator = await list(await test.login('opadmin'))
    // The seed: unconfirmed, confirmed and finished instructions, every container number with a valid check digit.
    expect(new Set(demoOperator.list.map((r) => r.confirmStatus))).toEqual(
      new Set(['unconfirmed', 'confirmed', 'finished']),
    )
    expect(demoCustomer.total).toBe(demoOperator.total)
    const acmeOperator = await list(await test.login('opadmin', 'acme.localhost'), 'acme.localhost')
    expect(acmeOperator.total).toBeGreaterThan(0)
    const demoNumbers = new Set(demoOperator.list.map((r) => r.blNo))
    for (const row of acmeOperator.list) expect(demoNumbers.has(row.blNo)).toBe(false)
    // A demo token on the acme host is not a session there.
    const crossed = await test.app.inject({
      method: 'POST',
      url: '/api/booking/blSubmission/list',
      headers: { host: 'acme.localhost', authorization: `Bearer ${await test.login('entadmin')}` },
      payload: { searchParams: {}, pageNum: 1, pageSize: 10 },
    })
    expect(crossed.json().code).not.toBe('0000')
    // Search by state.
    const confirmed = await list(await test.login('opadmin'), 'localhost', { confirmStatus: ['confirmed'] })
    expect(confirmed.list.every((r) => r.confirmStatus === 'confirmed')).toBe(true)

    const { rows } = await sql<{ containers: { containerNo: string }[] }>`
      select containers from bl_instruction`.execute(test.database.db)
    const numbers = rows.flatMap((r) => r.containers.map((c) => c.containerNo))
    expect(numbers.length).toBeGreaterThan(3)
    for (const number of numbers) expect(isoContainer(number), number).toBe(true)
  })

  it('starts a new instruction with what its confirmed FCL order knows, for whoever may see the order', async () => {
    const [order] = (await freeOrders()).slice(-1)
    // The order made to carry what a booking may: a marked, described, HS-coded cargo in two container lines.
    await sql`update booking_order set hs_code = '6109100010', goods_description = ${'COTTON T-SHIRTS\nKNITTED'},
      marks = 'N/M', package_type = 'CARTONS',
      containers = ${JSON.stringify([
        { containerType: '45G1', quantity: 2, grossWeight: 12000.001 },
        { containerType: '22G1', quantity: 1 },
      ])}::jsonb
      where id = ${order}`.execute(test.database.db)
    const { rows } = await sql<Record<string, string | number | null>>`
      select o.pol, o.pod, o.carrier, o.vessel, o.voyage, o.shipper, o.consignee, o.boxes, o.gross_weight, o.volume,
        upper(l.name_en) as pol_name, upper(d.name_en) as pod_name
      from booking_order o join ref_port l on l.code = o.pol join ref_port d on d.code = o.pod
      where o.id = ${order}`.execute(test.database.db)
    const row = rows[0] as Record<string, string | number | null>
    const prefill = async (token: string, query = `order=${order}`, host = 'localhost') => {
      const response = await test.app.inject({
        method: 'GET',
        url: `/api/booking/blSubmission/prefill?${query}`,
        headers: { host, authorization: `Bearer ${token}`, language: 'en_US' },
      })
      return { status: response.statusCode, code: response.json().code as string, content: response.json().content }
    }
    const customer = await prefill(await test.login('entadmin'))
    expect(customer.code).toBe('0000')
    expect(row.pol_name).toMatch(/^[A-Z]/)
    expect(customer.content).toMatchObject({
      order,
      vessel: row.vessel,
      voyage: row.voyage,
      carrier: row.carrier,
      placeOfReceiptCode: row.pol,
      placeOfReceiptName: row.pol_name,
      portOfLoadingCode: row.pol,
      portOfLoadingName: row.pol_name,
      portOfDischargeCode: row.pod,
      portOfDischargeName: row.pod_name,
      placeOfDeliveryCode: row.pod,
      placeOfDeliveryName: row.pod_name,
      shipper: row.shipper,
      consignee: row.consignee,
      transportClause: 'CY-CY',
      quantity: row.boxes,
      packageType: 'CT',
      woodPackagingType: 'none',
      grossWeight: Number(row.gross_weight),
      volume: Number(row.volume),
      goodsNameEn: 'COTTON T-SHIRTS',
      // A China customs code whose first six digits are the subheading 610910.
      hsCode: '6109100010',
    })
    // The containers by type and count: two 40' high cubes sharing their line's weight exactly, one 20' box.
    expect(customer.content.containers).toEqual([
      { size: '40', type: 'HQ', grossWeight: 6000, marks: 'N/M', description: 'COTTON T-SHIRTS\nKNITTED' },
      { size: '40', type: 'HQ', grossWeight: 6000.001, marks: 'N/M', description: 'COTTON T-SHIRTS\nKNITTED' },
      { size: '20', type: 'GP', marks: 'N/M', description: 'COTTON T-SHIRTS\nKNITTED' },
    ])
    // What only the B/L knows is left to the customer.
    for (const field of ['originalCount', 'copyCount', 'goodsNameCn', 'dgClass', 'unNo'])
      expect(customer.content, field).not.toHaveProperty(field)
    // The tenant's operators see the same; an HS code whose subheading is not on the list is left out.
    await sql`update booking_order set hs_code = '6109990000' where id = ${order}`.execute(test.database.db)
    const operator = await prefill(await test.login('opadmin'))
    expect(operator.code).toBe('0000')
    expect(operator.content.vessel).toBe(row.vessel)
    expect(operator.content).not.toHaveProperty('hsCode')

    // Another company's order, another tenant's, an order not a confirmed FCL one: not found, as if missing.
    const second = await sql<{ id: number }>`
      select u.company_id as id from app_user u join tenant t on t.id = u.tenant_id
      where t.code = 'demo' and u.username = 'nbclerk'`.execute(test.database.db)
    const owner = await sql<{ customer_company: number }>`
      select customer_company from booking_order where id = ${order}`.execute(test.database.db)
    await sql`update booking_order set customer_company = ${second.rows[0]?.id} where id = ${order}`.execute(
      test.database.db,
    )
    const otherCompany = await prefill(await test.login('entadmin'))
    await sql`update booking_order set customer_company = ${owner.rows[0]?.customer_company}
      where id = ${order}`.execute(test.database.db)
    expect([otherCompany.status, otherCompany.code]).toEqual([404, '404'])
    const { rows: acme } = await sql<{ id: number }>`
      select o.id from booking_order o join tenant t on t.id = o.tenant_id
      where t.code = 'acme' and o.container_load_type = 'FCL' and o.state in ('accepted', 'booked')
      order by o.id limit 1`.execute(test.database.db)
    const crossTenant = await prefill(await test.login('entadmin'), `order=${acme[0]?.id}`)
    expect([crossTenant.status, crossTenant.code]).toEqual([404, '404'])
    const { rows: lcl } = await sql<{ id: number }>`
      select o.id from booking_order o join tenant t on t.id = o.tenant_id
      where t.code = 'demo' and o.container_load_type = 'LCL' order by o.id limit 1`.execute(test.database.db)
    const notFcl = await prefill(await test.login('opadmin'), `order=${lcl[0]?.id}`)
    expect([notFcl.status, notFcl.code]).toEqual([404, '404'])
    const noOrder = await prefill(await test.login('entadmin'), 'order=x')
    expect(noOrder.code).toBe('validation')
  })

  it('takes a China customs or US code beginning with a listed subheading (SPEC §9), refusing others in the caller’s language', async () => {
    const token = await test.login('entadmin')
    const [order] = await freeOrders()
    // A 9-digit code and one whose subheading 6109.99 the Harmonized System does not have: refused, nothing stored.
    const format = await submit(token, instruction(order as number, { hsCode: '610910001' }), 'zh_CN')
    expect(format.fields).toContainEqual([
      'hsCode',
      'HS编码为6位数字（子目），或8位、10位数字（以子目开头的中国海关编码或美国HTS编码）',
    ])
    const unknown = await submit(token, instruction(order as number, { hsCode: '6109990000' }), 'en_US')
    expect(unknown.fields).toEqual([
      [
        'hsCode',
        'This HS code does not begin with a subheading of the Harmonized System list: choose a 6-digit subheading, or a customs or US code beginning with one',
      ],
    ])
    const unknownZh = await submit(token, instruction(order as number, { hsCode: '6109990000' }), 'zh_CN')
    expect(unknownZh.fields).toEqual([
      ['hsCode', '该HS编码的前6位不是协调制度目录中的子目：请选择6位子目，或以子目开头的海关编码或美国编码'],
    ])
    const { rows: none } = await sql`select 1 from bl_instruction where "order" = ${order}`.execute(test.database.db)
    expect(none).toHaveLength(0)
    // China customs' 10 digits for cotton T-shirts, knitted: stored as given.
    const stored = await submit(token, instruction(order as number, { blNo: 'COSU6371851111', hsCode: '6109100010' }))
    expect(stored.code).toBe('0000')
    expect(stored.content.hsCode).toBe('6109100010')
    // The look-up offers a national code as itself, described by its subheading, and names it again by ?codes=.
    const lookUp = async (query: string) =>
      (
        await test.app.inject({
          method: 'GET',
          url: `/api/booking/public/api/basic/getCommodityCodes?${query}`,
          headers: { host: 'localhost' },
        })
      ).json().content.list as { value: string; label: string }[]
    const typed = await lookUp('keyword=61091000')
    expect(typed.map((o) => o.value)).toEqual(['61091000'])
    expect(typed[0]?.label).toMatch(/^61091000 — T-shirts/)
    expect((await lookUp('codes=6109100010,610910')).map((o) => o.value)).toEqual(['6109100010', '610910'])
    expect(await lookUp('keyword=6109990000')).toEqual([])
  })

  it('looks up HS codes (SPEC §7 getCommodityCodes) by code prefix or description, bounded', async () => {
    const byCode = await test.app.inject({
      method: 'GET',
      url: '/api/booking/public/api/basic/getCommodityCodes?keyword=6109',
      headers: { host: 'localhost' },
    })
    const codes = byCode.json().content.list as { value: string; label: string }[]
    expect(codes.map((c) => c.value)).toEqual(['610910', '610990'])
    const byText = await test.app.inject({
      method: 'GET',
      url: '/api/booking/public/api/basic/getCommodityCodes?keyword=headphones',
      headers: { host: 'localhost' },
    })
    expect(byText.json().content.list.map((c: { value: string }) => c.value)).toContain('851830')
    const many = await test.app.inject({
      method: 'GET',
      url: '/api/booking/public/api/basic/getCommodityCodes?keyword=of&limit=50',
      headers: { host: 'localhost' },
    })
    expect(many.json().content.list).toHaveLength(50)
    // The B/L order look-up: only the customer's confirmed FCL orders.
    const orders = await call('GET', '/api/b2b/basicData/blOrder/fuzzyQuery?keyword=HY', await test.login('entadmin'))
    const options = orders.json().content.list as { value: string }[]
    const { rows } = await sql<{ id: number }>`
      select o.id from booking_order o join tenant t on t.id = o.tenant_id
      where t.code = 'demo' and o.container_load_type = 'FCL' and o.state in ('accepted', 'booked')`.execute(
      test.database.db,
    )
    expect(new Set(options.map((o) => Number(o.value)))).toEqual(new Set(rows.map((r) => r.id)))
  })
})
