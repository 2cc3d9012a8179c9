import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { fbaOrder } from '../../generated/validators.js'
import type { FieldDef } from '../../model/definitions.ts'
import { toFieldErrors } from '../../rules/messages.ts'

const manifest = JSON.parse(readFileSync('generated/manifest.json', 'utf8')) as {
  entities: Record<string, { fields: Record<string, FieldDef> }>
}

/** The field errors a reader gets from the FBA order's generated validator: `field: message key`. */
function errorsOf(data: Record<string, unknown>): string[] {
  if (fbaOrder(data)) return []
  const fields = manifest.entities.fbaOrder?.fields ?? {}
  return toFieldErrors(fbaOrder.errors as never, { fields }).map((e) => `${e.field}: ${e.message}`)
}

const line = (boxNo: string) => ({
  boxNo,
  sku: 'MH-SILK-SCARF-NV',
  hsCode: '621410',
  nameCn: '方巾',
  nameEn: 'Scarf',
  quantity: 1,
  declaredPrice: '6.50',
})
const valid = {
  platformSource: 'amazon',
  collectionType: 1,
  deliveryType: 1,
  customsType: 1,
  warehouseCode: 'ONT8',
  boxes: [
    { boxNo: 'MH-001', quantity: 1, weight: 5, length: 40, width: 30, height: 30 },
    { boxNo: 'MH-002', quantity: 2, weight: 6, length: 40, width: 30, height: 30 },
  ],
  products: [line('MH-001'), line('MH-002')],
}

/**
 * SPEC §5's FBA order rules (schemas/fbaOrder.yaml) as the generated validator the portal's form and the server
 * share: a box and a product at least, each product's box one of the order's (the itemsIn rule), no box number
 * twice, a file type for every file, Amazon's shipment and reference ids by their shape.
 */
describe('FBA order rules, as the generated validator', () => {
  it('accepts an order whose products name its boxes', () => {
    expect(errorsOf(valid)).toEqual([])
  })

  it("refuses a product naming a box the order does not have, at that row's box number, in the YAML words", () => {
    expect(errorsOf({ ...valid, products: [line('MH-001'), line('MH-009')] })).toEqual([
      'products[1].boxNo: fba.productBoxUnknown',
    ])
    // Every offending row is named, and a box number differing only in case or spaces is the same box.
    expect(errorsOf({ ...valid, products: [line('MH-009'), line(' mh-002 '), line('MH-010')] })).toEqual([
      'products[0].boxNo: fba.productBoxUnknown',
      'products[2].boxNo: fba.productBoxUnknown',
    ])
  })

  it('refuses an order without boxes or without products, each in its own words', () => {
    expect(errorsOf({ ...valid, boxes: [], products: [] })).toEqual([
      'boxes: fba.atLeastOneBox',
      'products: fba.atLeastOneProduct',
    ])
  })

  it('refuses a box number twice, a file without its type, and malformed Amazon ids', () => {
    expect(
      errorsOf({
        ...valid,
        boxes: [valid.boxes[0], valid.boxes[0]],
        products: [line('MH-001')],
        files: [{ file: '6f1c2a9e-3b7d-4e21-9a55-0c8e4f2b7d10' }, { fileType: 'packingList' }],
        shipmentId: 'FBA15K',
        referenceId: '3x7k9qpa',
      }),
    ).toEqual([
      'boxes: fba.boxNoRepeated',
      'shipmentId: fba.shipmentIdFormat',
      'referenceId: fba.referenceIdFormat',
      'files[0].fileType: validation.required',
      'files[1].file: validation.required',
    ])
  })
})
