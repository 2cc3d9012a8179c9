import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { setupTestApp } from '../support/app.ts'
import { administratorOf, bearerCalls } from '../support/calls.ts'
import { today } from '../support/clock.ts'
import { png } from '../support/images.ts'
import { workbook } from '../support/workbook.ts'

/**
 * FBA orders (issue #26 part 2): an enterprise's order of boxes and products with SPEC §5's rules, the chargeable
 * weight the server works out from the tenant's ecommerceEqWeight, the FBA number rule, the state machine of
 * SPEC §4 with the seller's cancel and the operators' moves, the tab counts, and the tenant, company and FBA walls.
 */

const t = setupTestApp()
const { answer, ok, get, upload } = bearerCalls(t)

const LIST = '/api/booking/fba/order/list'
const ADD = '/api/booking/fba/order/add'
const UPDATE = '/api/booking/fba/order/update'
const DETAIL = '/api/booking/fba/order/detail'
const OPERATOR_LIST = '/api/booking/fba/order/operator/list'
const TRANSITION = '/api/fbaOrder/transition'
const HAITONG = '宁波海通汽车零部件有限公司'

type Row = Record<string, unknown> & { id: number; version: number }

const fieldErrors = (body: { content?: { fieldErrors?: { field: string; key: string }[] } }) =>
  (body.content?.fieldErrors ?? []).map((e) => `${e.field}: ${e.key}`)

const box = (boxNo: string, weight: number, length: number, width: number, height: number, quantity = 1) => ({
  boxNo,
  quantity,
  weight,
  length,
  width,
  height,
})
const product = (boxNo: string, sku = 'MH-SILK-SCARF-NV') => ({
  boxNo,
  sku,
  hsCode: '621410',
  nameCn: '桑蚕丝方巾 藏青',
  nameEn: 'Mulberry silk square scarf, navy',
  brand: 'Minghui',
  quantity: 120,
  declaredPrice: '6.50',
  salesLink: 'https://www.amazon.com/dp/B0C7K4M2XQ',
})

/** A valid order of three boxes and two products. */
const order = (extra: Record<string, unknown> = {}) => ({
  customerReferenceNo: 'MH-PO-2612-07',
  platformSource: 'amazon',
  shipmentId: 'FBA15K7X2QZ9',
  referenceId: '3X7K9QPA',
  storeId: 'MINGHUI-US',
  collectionType: 1,
  deliveryType: 1,
  customsType: 1,
  insuranceCurrency: 'USD',
  insuranceAmount: '2000.00',
  warehouseCode: 'ONT8',
  boxes: [box('MH-001', 12.5, 60, 40, 40, 2), box('MH-002', 21.35, 50, 40, 30), box('MH-003', 8, 45.5, 35.5, 30.1)],
  products: [product('MH-001'), product('MH-003', 'MH-PILLOW-SET-2')],
  ...extra,
})

let opadmin = ''
let entadmin = ''
let entop = ''

beforeAll(async () => {
  ;[opadmin, entadmin, entop] = await Promise.all([t.login('opadmin'), t.login('entadmin'), t.login('entop')])
})

const list = async (url: string, token: string, searchParams: Record<string, unknown> = {}) =>
  (await ok('POST', url, token, { pageNum: 1, pageSize: 50, searchParams })) as {
    list: Row[]
    total: number
    tabs: Record<
      'all' | 'created' | 'inbound' | 'outbound' | 'shipped' | 'arrived' | 'delivered' | 'cancelled' | 'problem',
      number
    > &
      Record<string, number>
  }

const move = (token: string, row: Row, transition: string) =>
  answer('POST', TRANSITION, token, { id: row.id, version: row.version, transition })

describe('FBA order', () => {
  it('is created with its boxes and products, numbered, each box charged by the server', async () => {
    const made = await ok('POST', ADD, entadmin, {
      ...order(),
      // Whatever the caller says of the weights is the server's to work out.
      chargeableWeightTotal: 1,
    })
    expect(made.state).toBe('created')
    // The default rule: FBA + the tenant's day (YYMMDD, on the server's clock) + a daily sequence.
    expect(made.orderNo).toMatch(new RegExp(`^FBA${today().slice(2).replaceAll('-', '')}\\d{4}$`))
    // 60×40×40/6000 = 16 > 12.5; 21.35 > 50×40×30/6000 = 10; 45.5×35.5×30.1/6000 = 8.103 > 8.
    expect((made.boxes as Row[]).map((b) => b.chargeableWeight)).toEqual([16, 21.35, 8.103])
    // 2 × 16 + 21.35 + 8.103
    expect(made.chargeableWeightTotal).toBe(61.453)
    const detail = await ok('GET', `${DETAIL}?id=${made.id}`, entadmin)
    expect(detail.chargeableWeightTotal).toBe(61.453)
    expect((detail.products as Row[]).map((p) => p.sku)).toEqual(['MH-SILK-SCARF-NV', 'MH-PILLOW-SET-2'])
  })

  it("charges by the tenant's own e-commerce divisor, and again on every edit", async () => {
    const db = t.database.db
    await sql`update tenant set settings = settings || '{"ecommerceEqWeight": 5000}'::jsonb where code = 'demo'`.execute(
      db,
    )
    try {
      const made = await ok(
        'POST',
        ADD,
        entadmin,
        order({ boxes: [box('MH-001', 12.5, 60, 40, 40)], products: [product('MH-001')] }),
      )
      // 60×40×40/5000 = 19.2
      expect(made.chargeableWeightTotal).toBe(19.2)
      const edited = await ok('POST', UPDATE, entadmin, {
        id: made.id,
        version: made.version,
        boxes: [box('MH-001', 25, 60, 40, 40, 3)],
      })
      expect((edited.boxes as Row[])[0]?.chargeableWeight).toBe(25)
      expect(edited.chargeableWeightTotal).toBe(75)
    } finally {
      await sql`update tenant set settings = settings || '{"ecommerceEqWeight": 6000}'::jsonb where code = 'demo'`.execute(
        db,
      )
    }
  })

  it('is numbered by the tenant rule for FBA orders when it has one', async () => {
    await ok('POST', '/api/b2b/orderNo/rule/add', opadmin, {
      document: 'fba',
      transportMode: 0,
      prefix: 'MHF',
      datePattern: 'YYMM',
      sequenceLength: 4,
      reset: 'monthly',
      enabled: true,
    })
    const month = today().slice(2, 7).replace('-', '')
    const made = await ok('POST', ADD, entadmin, order())
    expect(made.orderNo).toBe(`MHF${month}0001`)
    const next = await ok('POST', ADD, entadmin, order())
    expect(next.orderNo).toBe(`MHF${month}0002`)
  })

  it("refuses each of SPEC §5's rules at its field, in the user's language", async () => {
    const refused = async (body: Record<string, unknown>, language?: string) => {
      const res = await answer('POST', ADD, entadmin, body, language ? { language } : undefined)
      expect(res.code).toBe('validation')
      return res as { content: { fieldErrors: { field: string; key: string; message: string }[] } }
    }
    // No boxes: then the products' boxes are not the order's either.
    expect(fieldErrors(await refused(order({ boxes: [] })))).toEqual([
      'products[0].boxNo: fba.productBoxUnknown',
      'products[1].boxNo: fba.productBoxUnknown',
      'boxes: fba.atLeastOneBox',
    ])
    expect(fieldErrors(await refused(order({ products: [] })))).toEqual(['products: fba.atLeastOneProduct'])
    // At the offending row's box number, so the form shows it in that row's cell.
    const unknownBox = await refused(order({ products: [product('MH-001'), product('MH-009')] }))
    expect(fieldErrors(unknownBox)).toEqual(['products[1].boxNo: fba.productBoxUnknown'])
    expect(unknownBox.content.fieldErrors[0]?.message).toBe('A product names a box that is not in the box list')
    const inChinese = await refused(order({ products: [product('MH-009')] }), 'zh_CN')
    expect(inChinese.content.fieldErrors[0]?.message).toBe('产品的箱号不在箱子列表中')
    expect(fieldErrors(await refused(order({ files: [{ file: '6f1c2a9e-3b7d-4e21-9a55-0c8e4f2b7d10' }] })))).toEqual([
      'files[0].fileType: validation.required',
    ])
    expect(fieldErrors(await refused(order({ shipmentId: 'FBX15K7X2QZ9', referenceId: 'abc' })))).toEqual([
      'shipmentId: fba.shipmentIdFormat',
      'referenceId: fba.referenceIdFormat',
    ])
    expect(
      fieldErrors(
        await refused(
          order({ boxes: [box('MH-001', 1, 1, 1, 1), box('mh-001', 1, 1, 1, 1)], products: [product('MH-001')] }),
        ),
      ),
    ).toEqual(['boxes: fba.boxNoRepeated'])
    // The server's own checks: the SKU is one of the enterprise's products, the HS code on the list, the warehouse Amazon's.
    expect(
      fieldErrors(
        await refused(
          order({
            warehouseCode: 'XXX9',
            products: [product('MH-001', 'NOT-OURS'), { ...product('MH-003'), hsCode: '990000' }],
          }),
        ),
      ),
    ).toEqual(['warehouseCode: validation.unknownReference'])
    expect(
      fieldErrors(
        await refused(order({ products: [product('MH-001', 'NOT-OURS'), { ...product('MH-003'), hsCode: '990000' }] })),
      ),
    ).toEqual(['products[0].sku: fba.skuUnknown', 'products[1].hsCode: validation.unknownReference'])
    // Bounded: 201 boxes are too many, and a sales link is a link.
    const many = Array.from({ length: 201 }, (_, i) => box(`B-${i}`, 1, 10, 10, 10))
    expect(fieldErrors(await refused(order({ boxes: many })))).toContain('boxes: validation.maxItems')
    expect(
      fieldErrors(await refused(order({ products: [{ ...product('MH-001'), salesLink: 'not a link' }] }))),
    ).toEqual(['products[0].salesLink: validation.format_url'])
  })
})

describe('FBA order states and tabs', () => {
  it("moves along the operators' transitions; the seller cancels only while created; the tabs follow", async () => {
    const before = await list(LIST, entadmin)
    expect(before.tabs.all).toBe(before.total)
    // The demo enterprise's seeded orders, one per stage at least.
    for (const state of ['created', 'inbound', 'shipped', 'delivered']) expect(before.tabs[state]).toBeGreaterThan(0)
    expect(Object.keys(before.tabs)).toEqual([
      'all',
      'created',
      'inbound',
      'outbound',
      'shipped',
      'arrived',
      'delivered',
      'cancelled',
      'problem',
    ])

    let row = (await ok('POST', ADD, entadmin, order())) as Row
    const made = await list(LIST, entadmin)
    expect(made.tabs.created).toBe(before.tabs.created + 1)
    expect(made.tabs.all).toBe(before.tabs.all + 1)
    // A tab's own filter leaves the counts alone; the list is of that state only.
    const createdOnly = await list(LIST, entadmin, { state: ['created'] })
    expect(createdOnly.tabs).toEqual(made.tabs)
    expect(createdOnly.list.every((r) => r.state === 'created')).toBe(true)
    expect(createdOnly.total).toBe(made.tabs.created)

    // The seller cannot move it; the operator can.
    expect((await move(entadmin, row, 'receive')).code).toBe('220000')
    const received = await move(opadmin, row, 'receive')
    expect(received.code).toBe('0000')
    row = received.content as Row
    expect(row.state).toBe('inbound')
    // Once inbound, the seller's cancel is refused and the order no longer edited.
    expect((await move(entadmin, row, 'cancel')).code).toBe('320001')
    expect((await answer('POST', UPDATE, entadmin, { id: row.id, version: row.version, remarks: 'late' })).code).toBe(
      '320001',
    )
    const inbound = await list(LIST, entadmin)
    expect(inbound.tabs.created).toBe(before.tabs.created)
    expect(inbound.tabs.inbound).toBe(before.tabs.inbound + 1)

    for (const [transition, state] of [
      ['dispatch', 'outbound'],
      ['ship', 'shipped'],
      ['markProblem', 'problem'],
      ['resolve', 'inbound'],
      ['dispatch', 'outbound'],
      ['ship', 'shipped'],
      ['arrive', 'arrived'],
      ['deliver', 'delivered'],
    ] as const) {
      const moved = await move(opadmin, row, transition)
      expect(moved.code, transition).toBe('0000')
      row = moved.content as Row
      expect(row.state).toBe(state)
    }
    // A state it does not leave from: refused.
    expect((await move(opadmin, row, 'receive')).code).toBe('320001')
    expect((await list(LIST, entadmin)).tabs.delivered).toBe(before.tabs.delivered + 1)

    // The seller's cancel of a created order.
    const another = (await ok('POST', ADD, entadmin, order())) as Row
    const cancelled = await move(entadmin, another, 'cancel')
    expect(cancelled.code).toBe('0000')
    expect((cancelled.content as Row).state).toBe('cancelled')
    expect((await list(LIST, entadmin)).tabs.cancelled).toBe(before.tabs.cancelled + 1)
  })

  it("gives the operator the tenant's counts from the row tally, equal to the rows", async () => {
    const operator = await list(OPERATOR_LIST, opadmin)
    expect(operator.tabs.all).toBe(operator.total)
    const { rows } = await sql<{ state: string; n: number }>`
      select state, count(*)::int as n from fba_order
      where tenant_id = (select id from tenant where code = 'demo') group by state`.execute(t.database.db)
    for (const { state, n } of rows) expect(operator.tabs[state], state).toBe(n)
    // Narrowed by another filter, counted from the rows under it.
    const ont8 = await list(OPERATOR_LIST, opadmin, { warehouseCode: 'ONT8' })
    expect(ont8.tabs.all).toBe(ont8.total)
    expect(ont8.list.every((r) => r.warehouseCode === 'ONT8')).toBe(true)
    expect(ont8.tabs.all).toBeLessThan(operator.tabs.all as number)
  })
})

describe('FBA order walls', () => {
  it("keeps a colleague's and another enterprise's orders apart, and an enterprise without FBA out", async () => {
    const mine = (await ok('POST', ADD, entadmin, order())) as Row
    // The colleague of a self-scoped role sees only their own; the administrator all of the company's.
    const entopSees = await list(LIST, entop)
    expect(entopSees.list.map((r) => r.id)).not.toContain(mine.id)
    expect((await answer('GET', `${DETAIL}?id=${mine.id}`, entop)).code).toBe('404')

    // Haitong has no FBA: refused with 360005 whatever it asks, and cannot see Minghui's order.
    const nbadmin = await administratorOf(t, HAITONG, 'nbfba')
    expect((await answer('POST', LIST, nbadmin, { pageNum: 1, pageSize: 10, searchParams: {} })).code).toBe('360005')
    expect((await answer('POST', ADD, nbadmin, order())).code).toBe('360005')
    expect((await answer('GET', `${DETAIL}?id=${mine.id}`, nbadmin)).code).toBe('360005')
    // Nor may it move one.
    expect((await move(nbadmin, mine, 'cancel')).code).not.toBe('0000')

    // A customer calls no operator endpoint.
    expect((await answer('POST', OPERATOR_LIST, entadmin, { pageNum: 1, pageSize: 10, searchParams: {} })).code).toBe(
      '220000',
    )
  })

  it("keeps another tenant's users out: acme's operator and its FBA customer see none of demo's orders", async () => {
    const mine = (await ok('POST', ADD, entadmin, order())) as Row
    const host = { host: 'acme.localhost' }
    const [operator, customer] = await Promise.all([
      t.login('opadmin', 'acme.localhost'),
      t.login('entadmin', 'acme.localhost'),
    ])
    const theirs = await ok('POST', OPERATOR_LIST, operator, { pageNum: 1, pageSize: 50, searchParams: {} }, host)
    expect((theirs.list as Row[]).map((r) => r.id)).not.toContain(mine.id)
    expect(
      (await answer('GET', `/api/booking/fba/order/operator/detail?id=${mine.id}`, operator, undefined, host)).code,
    ).toBe('404')
    expect((await answer('GET', `${DETAIL}?id=${mine.id}`, customer, undefined, host)).code).toBe('404')
    expect(
      (await answer('POST', TRANSITION, operator, { id: mine.id, version: mine.version, transition: 'receive' }, host))
        .code,
    ).toBe('404')
  })
})

describe('FBA order files', () => {
  const FILE_UPLOAD = '/api/b2b/file/upload?entity=fbaOrder&field=files.file'
  const download = (uuid: string, token: string, options?: { host: string }) =>
    get(`/api/b2b/file/download?uuid=${uuid}`, token, options)

  it("carry their bytes, bounded by type and size, read by the order's enterprise and the operators only", async () => {
    const bytes = workbook(
      [
        ['Box', 'SKU', 'Quantity'],
        ['MH-001', 'MH-SILK-SCARF-NV', 120],
      ],
      'Packing list',
    )
    const stored = await upload(FILE_UPLOAD, entadmin, { name: 'packing-list.xlsx', bytes })
    expect(stored.json().code).toBe('0000')
    const file = stored.json().content as { uuid: string; name: string }
    expect(file.name).toBe('packing-list.xlsx')
    // A program is no document, whatever its name; more than 5 MB is refused before it is stored.
    const program = await upload(FILE_UPLOAD, entadmin, { name: 'invoice.pdf', bytes: Buffer.from('MZ\x90\x00binary') })
    expect(program.json().code).toBe('validation')
    const huge = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(5 * 1024 * 1024 + 1, 32)])
    expect((await upload(FILE_UPLOAD, entadmin, { name: 'scan.pdf', bytes: huge })).json().code).toBe('413')

    const made = (await ok(
      'POST',
      ADD,
      entadmin,
      order({ files: [{ fileType: 'packingList', file: file.uuid }] }),
    )) as Row
    const detail = (await ok('GET', `${DETAIL}?id=${made.id}`, entadmin)) as Row
    expect(detail.files).toEqual([{ fileType: 'packingList', file: file.uuid }])

    // The enterprise and the forwarder's operators read the bytes; another enterprise and another tenant do not.
    for (const reader of [entadmin, entop, opadmin]) {
      const got = await download(file.uuid, reader)
      expect(got.statusCode).toBe(200)
      expect(Buffer.compare(got.rawPayload, bytes)).toBe(0)
    }
    const nbadmin = await administratorOf(t, HAITONG, 'nbfiles')
    expect((await download(file.uuid, nbadmin)).json().code).toBe('404')
    const acme = await t.login('opadmin', 'acme.localhost')
    expect((await download(file.uuid, acme, { host: 'acme.localhost' })).json().code).toBe('404')

    // Naming a file the seller may not read (another enterprise's upload) is refused at its row.
    const theirs = await upload('/api/b2b/file/upload?entity=userProfile&field=avatar', nbadmin, {
      name: 'avatar.png',
      bytes: png(40, 40),
    })
    expect(theirs.json().code).toBe('0000')
    const foreign = (theirs.json().content as { uuid: string }).uuid
    const refused = await answer(
      'POST',
      ADD,
      entadmin,
      order({
        files: [
          { fileType: 'packingList', file: file.uuid },
          { fileType: 'other', file: foreign },
        ],
      }),
    )
    expect(fieldErrors(refused)).toEqual(['files[1].file: validation.unknownReference'])
  })
})

describe('FBA SKU picker', () => {
  const PICKER = '/api/booking/fba/product/fuzzyQuery'
  type Option = { value: string; label: string; fields?: Record<string, string> }

  it("offers the enterprise's own products with what a pick fills, by SKU, name or codes, behind the FBA gate", async () => {
    const bySku = (await ok('GET', `${PICKER}?keyword=mh-silk`, entadmin)) as { list: Option[] }
    const scarf = bySku.list.find((o) => o.value === 'MH-SILK-SCARF-NV')
    expect(scarf?.fields).toEqual({
      brand: expect.any(String),
      nameCn: expect.any(String),
      nameEn: expect.any(String),
      price: expect.stringMatching(/^\d+(\.\d+)?$/),
    })
    expect(bySku.list.every((o) => o.value.startsWith('MH-SILK'))).toBe(true)
    // The whole list is the company's products, no other enterprise's.
    const all = (await ok('GET', `${PICKER}?limit=50`, entadmin)) as { list: Option[] }
    const { rows } = await sql<{ sku: string }>`select sku from fba_product
      where company = (select company_id from app_user where username = 'entadmin' and tenant_id = (select id from tenant where code = 'demo')) order by sku`.execute(
      t.database.db,
    )
    expect(all.list.map((o) => o.value)).toEqual(rows.map((r) => r.sku).slice(0, 50))
    const byCode = (await ok('GET', `${PICKER}?codes=MH-SILK-SCARF-NV`, entadmin)) as { list: Option[] }
    expect(byCode.list.map((o) => o.value)).toEqual(['MH-SILK-SCARF-NV'])
    // In Chinese the label carries the Chinese name.
    const zh = (await ok('GET', `${PICKER}?codes=MH-SILK-SCARF-NV`, entadmin, undefined, { language: 'zh_CN' })) as {
      list: Option[]
    }
    expect(zh.list[0]?.label).toBe(`MH-SILK-SCARF-NV — ${scarf?.fields?.nameCn}`)

    const nbadmin = await administratorOf(t, HAITONG, 'nbpicker')
    expect((await answer('GET', `${PICKER}?keyword=MH`, nbadmin)).code).toBe('360005')
    expect((await answer('GET', `${PICKER}?limit=500`, entadmin)).code).toBe('validation')
  })
})
