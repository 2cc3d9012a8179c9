import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { hashPassword } from '../../server/auth/password.ts'
import { DEMO_PASSWORD } from '../../server/db/seed/demo.ts'
import { setupTestApp } from '../support/app.ts'
import { bearerCalls, idIn } from '../support/calls.ts'

/**
 * FBA orders (issue #26 part 2): an enterprise's order of boxes and products with SPEC §5's rules, the chargeable
 * weight the server works out from the tenant's ecommerceEqWeight, the FBA number rule, the state machine of
 * SPEC §4 with the seller's cancel and the operators' moves, the tab counts, and the tenant, company and FBA walls.
 */

const t = setupTestApp()
const { call, answer, ok } = bearerCalls(t)

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
  files: [{ fileType: 'packingList', name: 'packing-list.xlsx' }],
  ...extra,
})

let opadmin = ''
let entadmin = ''
let entop = ''

beforeAll(async () => {
  ;[opadmin, entadmin, entop] = await Promise.all([t.login('opadmin'), t.login('entadmin'), t.login('entop')])
})

describe('FBA order', () => {
  it('is created with its boxes and products, numbered, each box charged by the server', async () => {
    const made = await ok('POST', ADD, entadmin, {
      ...order(),
      // Whatever the caller says of the weights is the server's to work out.
      chargeableWeightTotal: 1,
    })
    expect(made.state).toBe('created')
    expect(made.orderNo).toMatch(/^FBA261231\d{4}$/)
    // 60×40×40/6000 = 16 > 12.5; 21.35 > 10; 45.5×35.5×30.1/6000 = 8.103 > 8.
    expect((made.boxes as Row[]).map((b) => b.chargeableWeight)).toEqual([16, 21.35, 8.103])
    expect(made.chargeableWeightTotal).toBe(61.453)
  })
})
