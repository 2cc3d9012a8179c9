import { beforeAll, describe, expect, it } from 'vitest'
import { setupTestApp } from '../support/app.ts'
import { bearerCalls } from '../support/calls.ts'
import { decodeCode128, pdfImages } from '../support/pdfImages.ts'

/**
 * The carton labels of an FBA order (issue #26): a PDF page per box whose Code 128 barcode a scanner reads as the
 * box number — read back here with ZXing from the PDF's own images — for the order's enterprise and the
 * forwarder's operators, and for nobody else.
 */

const t = setupTestApp()
const { answer, ok, get } = bearerCalls(t)

const ADD = '/api/booking/fba/order/add'
const LABELS = '/api/booking/fba/order/cartonLabels'

const box = (boxNo: string, weight: number) => ({ boxNo, quantity: 1, weight, length: 60, width: 40, height: 40 })
const product = (boxNo: string) => ({
  boxNo,
  sku: 'MH-SILK-SCARF-NV',
  hsCode: '621410',
  nameCn: '桑蚕丝方巾 藏青',
  nameEn: 'Mulberry silk square scarf, navy',
  quantity: 120,
  declaredPrice: '6.50',
})
const order = {
  customerReferenceNo: 'MH-PO-2612-11',
  platformSource: 'amazon',
  shipmentId: 'FBA15K7X2QZ9',
  collectionType: 1,
  deliveryType: 1,
  customsType: 1,
  warehouseCode: 'ONT8',
  boxes: [box('MH-2612-001', 12.5), box('MH-2612-002', 9.75), box('MH-2612-003', 7)],
  products: [product('MH-2612-001'), product('MH-2612-003')],
}

let entadmin = ''
let entop = ''
let opadmin = ''
let made: { id: number; orderNo: string }

beforeAll(async () => {
  ;[entadmin, entop, opadmin] = await Promise.all([t.login('entadmin'), t.login('entop'), t.login('opadmin')])
  made = await ok('POST', ADD, entadmin, order)
})

describe('FBA carton labels', () => {
  it('are a PDF with one barcode per box that decodes to the box number', async () => {
    const reply = await get(`${LABELS}?id=${made.id}`, entadmin)
    expect(reply.statusCode).toBe(200)
    expect(reply.headers['content-type']).toBe('application/pdf')
    expect(reply.headers['content-disposition']).toBe(`attachment; filename="${made.orderNo}-carton-labels.pdf"`)
    const pdf = reply.rawPayload
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-')
    // One 4 × 6 in page per box.
    expect(pdf.toString('latin1').match(/\/Type \/Page\n/g)).toHaveLength(3)
    const images = pdfImages(pdf)
    expect(images).toHaveLength(3)
    expect(images.map(decodeCode128).sort()).toEqual(['MH-2612-001', 'MH-2612-002', 'MH-2612-003'])
  })

  it("are the operators' too, and nobody else's: a self-scoped colleague, another tenant, no id", async () => {
    const operator = await get(`${LABELS}?id=${made.id}`, opadmin)
    expect(operator.statusCode).toBe(200)
    expect(pdfImages(operator.rawPayload).map(decodeCode128)).toHaveLength(3)

    expect((await answer('GET', `${LABELS}?id=${made.id}`, entop)).code).toBe('404')
    const host = { host: 'acme.localhost' }
    const [acmeOperator, acmeCustomer] = await Promise.all([
      t.login('opadmin', 'acme.localhost'),
      t.login('entadmin', 'acme.localhost'),
    ])
    expect((await answer('GET', `${LABELS}?id=${made.id}`, acmeOperator, undefined, host)).code).toBe('404')
    expect((await answer('GET', `${LABELS}?id=${made.id}`, acmeCustomer, undefined, host)).code).toBe('404')
    expect((await answer('GET', `${LABELS}?id=${made.id}`, null)).code).toBe('401')
    const bad = await answer('GET', `${LABELS}?id=x`, entadmin)
    expect(bad.code).not.toBe('0000')
    expect(JSON.stringify(bad)).not.toMatch(/stack|at \//)
  })
})
