import { describe, expect, it } from 'vitest'
import manifest from '../../generated/manifest.json'
import type { Manifest } from '../../model/resolve.ts'
import { DERIVED_NAMES, derivedFields, ecommerceEqWeight, hasDerived } from '../../rules/derived.ts'
import {
  applyFills,
  buildUiSchema,
  derivedColumns,
  liveDerivedValues,
  widgetFor,
} from '../../runtime/forms/schemaForm.ts'

const { entities } = manifest as unknown as Manifest
const fbaOrder = entities.fbaOrder
if (!fbaOrder) throw new Error('no fbaOrder in the manifest')

const boxes = [
  // 60 × 40 × 40 / 6000 = 16 kg against 12.5 weighed, two of them.
  { boxNo: 'MH-001', quantity: 2, weight: 12.5, length: 60, width: 40, height: 40, chargeableWeight: 999 },
  // Heavier than its size: 21.35 kg.
  { boxNo: 'MH-002', quantity: 1, weight: 21.35, length: 50, width: 40, height: 30 },
]

/**
 * Derived fields (`derive:` in the entity YAML, rules/derived.ts): the FBA order's chargeable weight per box and
 * its total, worked out by the one registry the engine writes with and the form shows with.
 */
describe('derived fields', () => {
  it("fills each box's chargeable weight and the total from the tenant's divisor, over what the caller sent", () => {
    const out = derivedFields(fbaOrder.fields, { boxes }, { settings: { ecommerceEqWeight: 6000 } })
    expect((out.boxes as { chargeableWeight: unknown }[]).map((b) => b.chargeableWeight)).toEqual([16, 21.35])
    expect(out.chargeableWeightTotal).toBe(53.35)
    // Another divisor, another figure: 96000 / 5000 = 19.2 kg.
    const tighter = derivedFields(fbaOrder.fields, { boxes }, { settings: { ecommerceEqWeight: 5000 } })
    expect(tighter.chargeableWeightTotal).toBe(59.75)
  })

  it('takes SPEC §3 default divisor when the tenant has none or a wrong one, and null while a size is missing', () => {
    expect(ecommerceEqWeight(null)).toBe(6000)
    expect(ecommerceEqWeight({ ecommerceEqWeight: -1 })).toBe(6000)
    expect(ecommerceEqWeight({ ecommerceEqWeight: 5000 })).toBe(5000)
    const half = derivedFields(fbaOrder.fields, { boxes: [{ boxNo: 'A', quantity: 1, weight: 2 }] }, {})
    expect(half).toEqual({
      boxes: [{ boxNo: 'A', quantity: 1, weight: 2, chargeableWeight: null }],
      chargeableWeightTotal: null,
    })
  })

  it('is declared on the FBA order only where the registry has the name', () => {
    expect(hasDerived(fbaOrder.fields)).toBe(true)
    expect(hasDerived(entities.order?.fields ?? {})).toBe(false)
    expect(DERIVED_NAMES).toEqual(['fbaChargeableWeight', 'fbaChargeableWeightTotal'])
  })

  it('gives the form a derived column in the box sub-table and the live total as text', () => {
    const boxField = fbaOrder.fields.boxes
    expect(derivedColumns(boxField?.items ?? {})).toEqual([
      { name: 'chargeableWeight', label: 'fba.chargeableWeight', derive: 'fbaChargeableWeight' },
    ])
    const ui = buildUiSchema(fbaOrder, [{ title: '', fields: ['boxes', 'chargeableWeightTotal'] }])
    const boxesUi = ui.boxes as {
      'ui:options': { derived: unknown[] }
      items: { 'ui:options': { derived: unknown[] } }
    }
    expect(boxesUi['ui:options'].derived).toHaveLength(1)
    expect(boxesUi.items['ui:options'].derived).toEqual(boxesUi['ui:options'].derived)
    expect(liveDerivedValues(fbaOrder.fields, { boxes }, { settings: null })).toEqual({
      chargeableWeightTotal: '53.350',
    })
    expect(liveDerivedValues(fbaOrder.fields, {}, { settings: null })).toEqual({ chargeableWeightTotal: '0.000' })
  })
})

/** The SKU picker (`lookup: fbaProduct` with `fills:`): a pick fills the product line from the product. */
describe('look-up fills', () => {
  const scarf = {
    nameCn: '桑蚕丝方巾 藏青',
    nameEn: 'Mulberry silk square scarf, navy',
    brand: 'Minghui',
    price: '6.50',
  }
  const fieldsOf = (lookup: string, value: unknown) =>
    lookup === 'fbaProduct' && value === 'MH-SILK-SCARF-NV' ? scarf : undefined
  const line = { boxNo: 'MH-001', quantity: 10 }

  it('draws the SKU as a search select that keeps typing', () => {
    const sku = fbaOrder.fields.products?.items?.sku
    if (!sku) throw new Error('no products.sku')
    expect(widgetFor(sku)).toBe('ReferenceWidget')
    const ui = buildUiSchema(fbaOrder, [{ title: '', fields: ['products'] }]) as {
      products: { items: { sku: { 'ui:options': Record<string, unknown> } } }
    }
    expect(ui.products.items.sku['ui:options']).toMatchObject({ ref: 'fbaProduct', freeform: true })
  })

  it("fills the row whose SKU changed to a product's, and only that row", () => {
    const before = { products: [{ ...line }, { ...line, sku: 'OTHER' }] }
    const after = {
      products: [
        { ...line, sku: 'MH-SILK-SCARF-NV' },
        { ...line, sku: 'OTHER' },
      ],
    }
    const filled = applyFills(fbaOrder.fields, before, after, fieldsOf) as { products: Record<string, unknown>[] }
    expect(filled.products[0]).toEqual({
      ...line,
      sku: 'MH-SILK-SCARF-NV',
      nameCn: scarf.nameCn,
      nameEn: scarf.nameEn,
      brand: 'Minghui',
      declaredPrice: '6.50',
    })
    expect(filled.products[1]).toBe(after.products[1])
  })

  it('leaves what the user typed over a filled field, and a SKU no product has', () => {
    const picked = { products: [{ ...line, sku: 'MH-SILK-SCARF-NV', nameEn: 'Scarf', brand: 'Minghui' }] }
    const retyped = { products: [{ ...picked.products[0], nameEn: 'Silk scarf' }] }
    expect(applyFills(fbaOrder.fields, picked, retyped, fieldsOf)).toBe(retyped)
    const typed = { products: [{ ...line, sku: 'NOT-MINE' }] }
    expect(applyFills(fbaOrder.fields, { products: [line] }, typed, fieldsOf)).toEqual(typed)
  })
})
