import * as zlib from 'node:zlib'
import { deflateSync } from 'node:zlib'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { blDraftPdf } from '../../server/domain/blDraft/pdf.ts'
import { saveFile } from '../../server/files/store.ts'
import { withTenant } from '../../server/tenancy/scope.ts'
import { setupTestApp } from '../support/app.ts'
import { BL_INSTRUCTIONS } from '../support/bl-instructions.ts'
import { bearerCalls, type SeededOrder, seededInstructions, seededOrders } from '../support/calls.ts'
import { pdfText } from '../support/pdf-text.ts'

/**
 * The draft B/L PDF (issue #23): the order's B/L fields in the tenant's name, logo and colour, marked DRAFT,
 * labelled in the reader's language. The text is read back out of the PDF (tests/support/pdf-text.ts).
 */

const test = setupTestApp()

const DRAFT = '/api/booking/order/blDraftPdf'
const BL_DRAFT = '/api/booking/blSubmission/blDraftPdf'

const { get } = bearerCalls(test)

/** The orders that have a B/L instruction, with its id (read as the database owner). */
async function instructionsByOrder(): Promise<Map<number, number>> {
  return new Map((await seededInstructions(test)).map((i) => [i.orderId, i.id]))
}

/** The fill colour operator pdfkit writes for a #rrggbb colour (each channel over 255, in RGB space). */
function fillOf(hex: string): string {
  const channel = (i: number) => String(Number.parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) / 255)
  return `${channel(0)} ${channel(1)} ${channel(2)} scn`
}

/** A real 2 × 2 PNG (red), so pdfkit can draw it. */
function png(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
    const length = Buffer.alloc(4)
    length.writeUInt32BE(data.length)
    const crc = Buffer.alloc(4)
    crc.writeUInt32BE(zlib.crc32(body))
    return Buffer.concat([length, body, crc])
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(2, 0)
  header.writeUInt32BE(2, 4)
  header.set([8, 2, 0, 0, 0], 8)
  const row = Buffer.from([0, 255, 0, 0, 255, 0, 0])
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat([row, row]))),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

/** Every content stream of the PDF, inflated, as text (for drawing operators such as colours). */
function contentStreams(pdf: Buffer): string {
  const source = pdf.toString('latin1')
  return [...source.matchAll(/stream\r?\n([\s\S]*?)endstream/g)]
    .map((m) => {
      try {
        return zlib.inflateSync(Buffer.from(m[1] ?? '', 'latin1')).toString('latin1')
      } catch {
        return ''
      }
    })
    .join('\n')
}

describe('draft B/L PDF', () => {
  it("draws a booked order's B/L fields in the tenant's name and colour, marked DRAFT", async () => {
    const token = await test.login('opadmin')
    // An order without a B/L instruction: the draft is the order's own B/L fields.
    const withInstruction = await instructionsByOrder()
    const order = (await seededOrders(test)).find(
      (o) => o.tenant === 'demo' && o.state === 'booked' && o.loadType === 'FCL' && !withInstruction.has(o.id),
    )
    expect(order).toBeDefined()
    const { id, orderNo } = order as SeededOrder
    const detail = (await get(`/api/booking/order/getOrderDetail?id=${id}`, token)).json().content
    const response = await get(`${DRAFT}?id=${id}`, token)
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe('application/pdf')
    expect(response.headers['content-disposition']).toBe(`attachment; filename="${orderNo}-draft-bl.pdf"`)
    const bytes = response.rawPayload
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-')
    const text = pdfText(bytes)
    for (const expected of [
      'Huayuan Logistics',
      'BILL OF LADING',
      'DRAFT',
      'Shipper',
      'Consignee',
      'Notify party',
      ...detail.shipper.split('\n'),
      ...detail.consignee.split('\n'),
      'SAME AS CONSIGNEE',
      `${detail.vessel} / ${detail.voyage}`,
      detail.hbl,
      detail.businessRefNo,
      `${detail.labels.pol} / ${detail.pol}`,
      `${detail.labels.pod} / ${detail.pod}`,
      detail.containers[0].containerType,
      detail.etd,
      'FREIGHT',
    ])
      expect(text, expected).toContain(expected)
    // The watermark and the title bar in the demo tenant's theme colour (#409eff).
    expect(contentStreams(bytes)).toContain(fillOf('#409eff'))
    // The Chinese-capable font is embedded (a subset), not left to the reader's machine.
    expect(bytes.toString('latin1')).toContain('NotoSansHans')
  })

  it("labels the draft in the reader's language; another tenant's draft is in its own name and colour", async () => {
    const orders = await seededOrders(test)
    const demo = orders.find((o) => o.tenant === 'demo' && o.loadType === 'FCL') as SeededOrder
    const zh = await get(`${DRAFT}?id=${demo.id}`, await test.login('opadmin'), { language: 'zh_CN' })
    const zhText = pdfText(zh.rawPayload)
    for (const expected of [
      '华远国际物流',
      '提单',
      '草稿',
      '发货人',
      '收货人',
      '通知人',
      '船名 / 航次',
      '装货港',
      '箱号',
    ])
      expect(zhText, expected).toContain(expected)
    const acme = orders.find((o) => o.tenant === 'acme' && o.loadType === 'FCL') as SeededOrder
    const acmeDraft = await get(`${DRAFT}?id=${acme.id}`, await test.login('opadmin', 'acme.localhost'), {
      host: 'acme.localhost',
    })
    expect(acmeDraft.statusCode).toBe(200)
    expect(pdfText(acmeDraft.rawPayload)).toContain('Acme Logistics')
    expect(contentStreams(acmeDraft.rawPayload)).toContain(fillOf('#0f7b6c'))
  })

  it("draws the tenant's uploaded logo", async () => {
    const tenant = await test.database.db
      .selectFrom('tenant')
      .select('id')
      .where('code', '=', 'demo')
      .executeTakeFirstOrThrow()
    const logo = await withTenant(test.database.db, tenant.id, (trx) =>
      saveFile(trx, {
        tenantId: tenant.id,
        userId: null,
        companyId: null,
        visibility: 'public',
        entity: 'siteSettings',
        field: 'logoList',
        name: 'logo.png',
        contentType: 'image/png',
        bytes: png(),
      }),
    )
    await sql`update tenant set settings = jsonb_set(settings, '{logoList}', ${JSON.stringify([{ url: logo.uuid }])}::jsonb)
              where id = ${tenant.id}`.execute(test.database.db)
    // 127.0.0.1 is the demo tenant too, read afresh (the tenant of a host is cached for 30 seconds).
    const token = await test.login('opadmin', '127.0.0.1')
    const order = (await seededOrders(test)).find((o) => o.tenant === 'demo') as SeededOrder
    const response = await get(`${DRAFT}?id=${order.id}`, token, { host: '127.0.0.1' })
    expect(response.statusCode).toBe(200)
    expect(response.rawPayload.toString('latin1')).toMatch(/\/Subtype \/Image/)
  })

  it("answers the customer's own order and no other tenant's", async () => {
    const orders = await seededOrders(test)
    const own = orders.find((o) => o.tenant === 'demo') as SeededOrder
    const other = orders.find((o) => o.tenant === 'acme') as SeededOrder
    const customer = await test.login('entadmin')
    expect((await get(`${DRAFT}?id=${own.id}`, customer)).statusCode).toBe(200)
    expect((await get(`${DRAFT}?id=${other.id}`, customer)).statusCode).toBe(404)
    expect((await get(`${DRAFT}?id=${own.id}`, null)).statusCode).toBe(401)
  })

  it("draws the order's B/L instruction: its B/L number, container numbers and seals, places and goods", async () => {
    const instructions = await instructionsByOrder()
    const orders = (await seededOrders(test)).filter((o) => instructions.has(o.id))
    expect(new Set(orders.map((o) => o.tenant))).toEqual(new Set(['demo', 'acme']))
    const tokens = { demo: await test.login('opadmin'), acme: await test.login('opadmin', 'acme.localhost') }
    for (const order of orders) {
      const host = order.tenant === 'acme' ? 'acme.localhost' : 'localhost'
      const token = order.tenant === 'acme' ? tokens.acme : tokens.demo
      const id = instructions.get(order.id) as number
      const bl = (await get(`/api/booking/blSubmission/detail?id=${id}`, token, { host })).json().content
      const response = await get(`${DRAFT}?id=${order.id}`, token, { host })
      expect(response.statusCode, order.orderNo).toBe(200)
      const text = pdfText(response.rawPayload)
      for (const expected of [
        bl.blNo,
        bl.bizNo,
        ...bl.containers.flatMap((c: { containerNo: string; sealNo: string }) => [c.containerNo, c.sealNo]),
        // 40' high cube, as its ISO 6346 size-type.
        '45G1',
        bl.placeOfReceiptName,
        bl.placeOfDeliveryName,
        bl.goodsNameCn,
        bl.goodsNameEn,
        bl.hsCode,
      ])
        expect(text, `${order.orderNo}: ${expected}`).toContain(expected)
      // From the B/L editor, by the instruction's id: the same draft.
      const fromEditor = await get(`${BL_DRAFT}?id=${id}`, token, { host })
      expect(fromEditor.statusCode).toBe(200)
      expect(fromEditor.headers['content-disposition']).toBe(`attachment; filename="${order.orderNo}-draft-bl.pdf"`)
      expect(pdfText(fromEditor.rawPayload)).toEqual(text)
    }
    // Another tenant's instruction is missing.
    const acme = orders.find((o) => o.tenant === 'acme') as SeededOrder
    const other = await get(`${BL_DRAFT}?id=${instructions.get(acme.id)}`, await test.login('entadmin'))
    expect(other.statusCode).toBe(404)
  })

  it('lays out a full instruction: every container, seal, mark and both goods names', async () => {
    for (const { instruction } of BL_INSTRUCTIONS) {
      const text = pdfText(
        await blDraftPdf(instruction, { name: 'Huayuan Logistics', color: '#409eff', logo: null }, 'en'),
      )
      for (const container of instruction.containers) {
        expect(text).toContain(container.number)
        expect(text).toContain(container.seal)
        for (const line of container.marks.split('\n')) expect(text).toContain(line)
      }
      expect(text).toContain(instruction.goodsNameCn)
      expect(text).toContain(instruction.goodsNameEn.split('\n')[0])
      expect(text).toContain(instruction.blNo)
      if (instruction.unNo) expect(text).toContain(`UN ${instruction.unNo}`)
    }
  })
})
