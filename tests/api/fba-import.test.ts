import { readFileSync } from 'node:fs'
import ExcelJS from 'exceljs'
import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { IMPORT_LIMITS } from '../../rules/fileLimits.ts'
import { setupTestApp } from '../support/app.ts'
import { administratorOf, bearerCalls } from '../support/calls.ts'
import type { ImportEnvelope } from '../support/workbook.ts'

/**
 * FBA orders from a workbook (issue #26): the orders on the first sheet, their boxes and products on sheets of
 * their own, each row naming its order by the customer reference — the engine's import with `sheets:`
 * (screens/fba.yaml). Every bad cell named by sheet and address in the caller's language, and nothing stored
 * unless every cell is good; the SKUs the enterprise's own; the template made from the YAML.
 */

const t = setupTestApp()
const { ok, upload, get } = bearerCalls(t)

const IMPORT = '/api/booking/fba/order/import'
const LIST = '/api/booking/fba/order/list'
const HAITONG = '宁波海通汽车零部件有限公司'

type Cell = string | number | null
const label = (language: string, namespace: string, key: string) =>
  (JSON.parse(readFileSync(`locales/${language}/${namespace}.json`, 'utf8')) as Record<string, string>)[key] as string

/** A workbook of named sheets, each rows as given (the first the header), written by exceljs. */
async function book(sheets: Record<string, Cell[][]>): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook()
  for (const [name, rows] of Object.entries(sheets)) workbook.addWorksheet(name).addRows(rows)
  return Buffer.from(await workbook.xlsx.writeBuffer())
}

const ORDER_HEADER = [
  'Your reference',
  'Platform',
  'Amazon shipment id',
  'Amazon warehouse',
  'Collection',
  'Delivery',
  'Customs declaration',
]
const BOX_HEADER = [
  'Your reference',
  'Box number',
  'Boxes',
  'Weight per box (kg)',
  'Length (cm)',
  'Width (cm)',
  'Height (cm)',
]
// Field names are headers too.
const PRODUCT_HEADER = [
  'customerReferenceNo',
  'boxNo',
  'sku',
  'hsCode',
  'nameCn',
  'nameEn',
  'quantity',
  'declaredPrice',
]

const orderRow = (reference: string, shipmentId = 'FBA15K7X2QZ9'): Cell[] => [
  reference,
  'amazon',
  shipmentId,
  'ONT8',
  1,
  1,
  1,
]
const productRow = (reference: string, boxNo: string, sku = 'MH-SILK-SCARF-NV'): Cell[] => [
  reference,
  boxNo,
  sku,
  '621410',
  '桑蚕丝方巾',
  'Silk scarf',
  120,
  6.5,
]

const goodBook = (a: string, b: string) =>
  book({
    Orders: [ORDER_HEADER, orderRow(a), orderRow(b, 'FBA15K7X2QZA')],
    Boxes: [
      BOX_HEADER,
      [a, 'IMP-001', 2, 12.5, 60, 40, 40],
      [a, 'IMP-002', 1, 21.35, 50, 40, 30],
      [b, 'IMP-101', 1, 8, 40, 30, 30],
      [a, 'IMP-003', 1, 8, 45.5, 35.5, 30.1],
    ],
    Products: [
      PRODUCT_HEADER,
      productRow(a, 'IMP-001'),
      productRow(a, 'IMP-003', 'MH-PILLOW-SET-2'),
      productRow(b, 'IMP-101'),
    ],
  })

let entadmin = ''

beforeAll(async () => {
  entadmin = await t.login('entadmin')
})

const send = async (token: string, bytes: Buffer, language = 'en_US') =>
  (await upload(IMPORT, token, { name: 'fba-orders.xlsx', bytes }, { language })).json() as Promise<ImportEnvelope>

const orders = async (token: string, reference: string) =>
  (
    (await ok('POST', LIST, token, { pageNum: 1, pageSize: 50, searchParams: { customerReferenceNo: reference } })) as {
      list: { id: number; customerReferenceNo: string }[]
    }
  ).list.filter((o) => o.customerReferenceNo === reference)

const storedCount = async () =>
  Number((await sql<{ n: string }>`select count(*) as n from fba_order`.execute(t.database.db)).rows[0]?.n)

describe('FBA order import', () => {
  it('creates each order of a good workbook with its boxes and products from their own sheets', async () => {
    const answer = await send(entadmin, await goodBook('IMP-PO-1', 'IMP-PO-2'))
    expect(answer.code, JSON.stringify(answer.content.problems)).toBe('0000')
    expect(answer.content).toEqual({ imported: 2, problems: [] })
    const [first] = await orders(entadmin, 'IMP-PO-1')
    const detail = await ok('GET', `/api/booking/fba/order/detail?id=${first?.id}`, entadmin)
    // The boxes in the sheet's order, IMP-PO-2's left out; the chargeable weights the server's.
    expect((detail.boxes as { boxNo: string; chargeableWeight: number }[]).map((b) => b.boxNo)).toEqual([
      'IMP-001',
      'IMP-002',
      'IMP-003',
    ])
    expect(detail.chargeableWeightTotal).toBe(61.453)
    // A money cell is the number Excel holds (6.5), kept as its decimal text.
    expect(
      (detail.products as { sku: string; declaredPrice: string }[]).map((p) => [p.sku, Number(p.declaredPrice)]),
    ).toEqual([
      ['MH-SILK-SCARF-NV', 6.5],
      ['MH-PILLOW-SET-2', 6.5],
    ])
    const [second] = await orders(entadmin, 'IMP-PO-2')
    const other = await ok('GET', `/api/booking/fba/order/detail?id=${second?.id}`, entadmin)
    expect((other.boxes as { boxNo: string }[]).map((b) => b.boxNo)).toEqual(['IMP-101'])
    expect(other.state).toBe('created')
  })

  it("names every bad cell by its sheet and address in the caller's language, and stores nothing", async () => {
    const before = await storedCount()
    const bytes = await book({
      Orders: [
        ORDER_HEADER,
        orderRow('BAD-PO-1', 'FBX123'),
        orderRow('BAD-PO-2'),
        // The same reference twice: which order would its boxes be?
        orderRow('BAD-PO-2'),
      ],
      Boxes: [
        BOX_HEADER,
        ['BAD-PO-1', 'BAD-001', 1, 'heavy', 60, 40, 40],
        ['BAD-PO-1', 'BAD 002', 1, 5, 60, 40, 40],
        ['BAD-PO-2', 'BAD-101', 0, 5, 60, 40, 40],
        // The same box number twice in one order (SPEC §5 via the YAML's uniqueItems), said at the second.
        ['BAD-PO-2', 'bad-101', 1, 5, 60, 40, 40],
      ],
      Products: [
        PRODUCT_HEADER,
        productRow('BAD-PO-1', 'BAD-001'),
        productRow('NOPE', 'BAD-101'),
        // A box its order does not have (the YAML's itemsIn), said at the product's box cell.
        productRow('BAD-PO-2', 'BAD-999'),
      ],
    })
    const answer = await send(entadmin, bytes, 'ja_JP')
    expect(answer.content.imported).toBe(0)
    const problems = answer.content.problems
    expect(problems.map((p) => p.cell)).toEqual([
      'Orders!C2',
      'Orders!A4',
      'Boxes!D2',
      'Boxes!B3',
      'Boxes!C4',
      'Boxes!B5',
      'Products!A3',
      'Products!B4',
    ])
    const at = (cell: string) => problems.find((p) => p.cell === cell)
    expect(at('Orders!C2')?.message).toBe(label('ja', 'fba', 'shipmentIdFormat'))
    expect(at('Boxes!B3')?.message).toBe(label('ja', 'fba', 'boxNoFormat'))
    expect(at('Boxes!B5')?.message).toBe(label('ja', 'fba', 'boxNoRepeated'))
    expect(at('Products!B4')?.message).toBe(label('ja', 'fba', 'productBoxUnknown'))
    expect(at('Products!A3')?.message).toBe(label('ja', 'import', 'keyUnknown').replace('{{value}}', 'NOPE'))
    expect(at('Orders!A4')?.message).toBe(
      label('ja', 'import', 'duplicateKey').replace('{{value}}', 'BAD-PO-2').replace('{{row}}', '3'),
    )
    // Every message is Japanese text, none a key.
    for (const problem of problems) {
      expect(problem.message).not.toMatch(/^[a-z]+\.[A-Za-z]+$/)
      expect(problem.message).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/)
    }
    expect(await storedCount()).toBe(before)
  })

  it('refuses an item sheet over the rows an import may hold, whole', async () => {
    const before = await storedCount()
    const boxes: Cell[][] = Array.from({ length: IMPORT_LIMITS.maxRows + 1 }, (_, i) => [
      'BIG-PO-1',
      `BIG-${i + 1}`,
      1,
      5,
      40,
      30,
      30,
    ])
    const answer = await send(
      entadmin,
      await book({
        Orders: [ORDER_HEADER, orderRow('BIG-PO-1')],
        Boxes: [BOX_HEADER, ...boxes],
        Products: [PRODUCT_HEADER, productRow('BIG-PO-1', 'BIG-1')],
      }),
    )
    expect(answer.content.imported).toBe(0)
    // The sheet is refused whole (its boxes read not at all: the order then has none, said too).
    expect(answer.content.problems.map((p) => [p.sheet, p.key, p.params])).toContainEqual([
      'Boxes',
      'import.tooManyRows',
      { limit: IMPORT_LIMITS.maxRows, rows: IMPORT_LIMITS.maxRows + 1 },
    ])
    expect(await storedCount()).toBe(before)
  })

  it("refuses another enterprise's SKU at its cell, and stores none of the workbook's orders", async () => {
    // Haitong takes up FBA and lists a product of its own.
    await sql`update company set fba_status = 1 where name = ${HAITONG}`.execute(t.database.db)
    const nbadmin = await administratorOf(t, HAITONG, 'nbimport')
    await ok('POST', '/api/booking/fba/product/add', nbadmin, {
      sku: 'NB-BRAKE-PAD-01',
      nameCn: '刹车片',
      nameEn: 'Brake pad',
    })
    const before = await storedCount()
    const bytes = await book({
      Orders: [ORDER_HEADER, orderRow('SKU-PO-1'), orderRow('SKU-PO-2')],
      Boxes: [BOX_HEADER, ['SKU-PO-1', 'SKU-001', 1, 5, 40, 30, 30], ['SKU-PO-2', 'SKU-101', 1, 5, 40, 30, 30]],
      Products: [
        PRODUCT_HEADER,
        productRow('SKU-PO-1', 'SKU-001'),
        productRow('SKU-PO-2', 'SKU-101', 'NB-BRAKE-PAD-01'),
      ],
    })
    const answer = await send(entadmin, bytes, 'zh_CN')
    expect(answer.content.imported).toBe(0)
    expect(answer.content.problems.map((p) => [p.cell, p.message])).toEqual([
      ['Products!C3', label('zh', 'fba', 'skuUnknown')],
    ])
    // The first order, good on its own, was rolled back with the second.
    expect(await storedCount()).toBe(before)
    expect(await orders(entadmin, 'SKU-PO-1')).toEqual([])
    // Haitong's own SKU is Haitong's to import.
    const theirs = await send(
      nbadmin,
      await book({
        Orders: [ORDER_HEADER, orderRow('NB-PO-1')],
        Boxes: [BOX_HEADER, ['NB-PO-1', 'NB-001', 1, 5, 40, 30, 30]],
        Products: [PRODUCT_HEADER, productRow('NB-PO-1', 'NB-001', 'NB-BRAKE-PAD-01')],
      }),
    )
    expect(theirs.content).toEqual({ imported: 1, problems: [] })
  })

  it("offers a template made from the YAML, labelled in the caller's language, that imports as it is", async () => {
    const reply = await get(IMPORT, entadmin, { language: 'zh_CN' })
    expect(reply.statusCode).toBe(200)
    const workbook = new ExcelJS.Workbook()
    await workbook.xlsx.load(reply.rawPayload as unknown as ArrayBuffer)
    const names = workbook.worksheets.map((w) => w.name)
    expect(names).toEqual(['fbaOrder', label('zh', 'fba', 'boxes'), label('zh', 'fba', 'products'), 'help'])
    const headerOf = (index: number) =>
      ((workbook.worksheets[index]?.getRow(1).values ?? []) as unknown[]).filter((v) => v !== undefined)
    expect(headerOf(0)).toContain(label('zh', 'fba', 'customerReferenceNo'))
    expect(headerOf(0)).not.toContain(label('zh', 'fba', 'boxes'))
    expect(headerOf(1)).toEqual([
      label('zh', 'fba', 'customerReferenceNo'),
      label('zh', 'fba', 'boxNo'),
      label('zh', 'fba', 'boxQuantity'),
      label('zh', 'fba', 'boxWeight'),
      label('zh', 'fba', 'length'),
      label('zh', 'fba', 'width'),
      label('zh', 'fba', 'height'),
    ])
    // The example order as it stands, sent back in Chinese, is one good order.
    const answer = await send(entadmin, reply.rawPayload, 'zh_CN')
    expect(answer.content).toEqual({ imported: 1, problems: [] })
  })
})
