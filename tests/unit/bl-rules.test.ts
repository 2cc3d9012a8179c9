import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { blInstruction } from '../../generated/validators.js'
import type { FieldDef } from '../../model/definitions.ts'
import { isoContainer } from '../../rules/formats.ts'
import { requiredWhenHolds, sumEquals, textBlock } from '../../rules/keywords.ts'
import { toFieldErrors } from '../../rules/messages.ts'
import { containerNumber } from '../../server/db/seed/blInstructions.ts'

/**
 * The B/L instruction's rules (schemas/blInstruction.yaml, issue #23) as the generated validator runs them in the
 * browser and on the server, with the messages a reader gets: the words of the field itself where SPEC §5 has
 * them (no submission without a B/L number, a description over 6 lines), else the rule's.
 */
const manifest = JSON.parse(readFileSync('generated/manifest.json', 'utf8')) as {
  entities: Record<string, { fields: Record<string, FieldDef> }>
}
const fields = manifest.entities.blInstruction?.fields as Record<
  string,
  FieldDef & { items?: Record<string, FieldDef> }
>

const container = (overrides: Record<string, unknown> = {}) => ({
  containerNo: 'CSQU3054383',
  sealNo: 'CN1234567',
  size: '40',
  type: 'HQ',
  quantity: 700,
  grossWeight: 10500.5,
  volume: 30.125,
  marks: 'N/M',
  description: 'COTTON T-SHIRTS',
  ...overrides,
})
const good = (overrides: Record<string, unknown> = {}) => ({
  order: 1,
  blNo: 'COSU6371843210',
  bizNo: 'HZMH-2026-0412',
  originalCount: 3,
  copyCount: 0,
  blWay: 'splitHbl',
  shipper: 'SHIPPER',
  consignee: 'CONSIGNEE',
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
  transportClause: 'CY-DOOR',
  remarks: 'FREIGHT PREPAID',
  quantity: 1200,
  packageType: 'PX',
  grossWeight: 18500.5,
  volume: 56.125,
  containers: [container(), container({ containerNo: 'MSKU9070323', quantity: 500, grossWeight: 8000, volume: 26 })],
  goodsNameEn: 'COTTON T-SHIRTS',
  goodsNameCn: '棉制针织T恤衫',
  hsCode: '610910',
  woodPackagingType: 'treated',
  ...overrides,
})

function errors(data: Record<string, unknown>): [string, string][] {
  if (blInstruction(data)) return []
  return toFieldErrors(blInstruction.errors, { fields }).map((e) => [e.field, e.message])
}

describe('the B/L instruction rules', () => {
  it('accepts a good instruction: totals equal the sums exactly, wooden pallets with treated wood', () => {
    expect(errors(good())).toEqual([])
    // Dangerous goods with both their class and UN number.
    expect(errors(good({ dgClass: '3', unNo: '1263' }))).toEqual([])
    // SPEC §9's customs code or US code: 10 digits (China customs, US HTS statistical) or 8 (US HTS subheading).
    expect(errors(good({ hsCode: '6109100010' }))).toEqual([])
    expect(errors(good({ hsCode: '61091000' }))).toEqual([])
  })

  it.each([
    [{ blNo: undefined }, 'blNo', 'bl.blNoRequired'],
    [{ blNo: '' }, 'blNo', 'bl.blNoRequired'],
    [{ quantity: 1199 }, 'quantity', 'bl.totalQuantity'],
    [{ grossWeight: 18500.501 }, 'grossWeight', 'bl.totalGrossWeight'],
    [{ volume: 56.1 }, 'volume', 'bl.totalVolume'],
    [{ containers: [container({ containerNo: 'CSQU3054384' })] }, 'containers[0].containerNo', 'bl.containerNoCheck'],
    [{ containers: [container({ containerNo: 'CSQ3054383' })] }, 'containers[0].containerNo', 'bl.containerNoCheck'],
    [
      { containers: [container(), container({ quantity: 500, grossWeight: 8000, volume: 26 })] },
      'containers',
      'bl.containerNoRepeated',
    ],
    [
      { containers: [container({ description: '1\n2\n3\n4\n5\n6\n7' })] },
      'containers[0].description',
      'bl.descriptionLines',
    ],
    [{ shipper: Array(8).fill('LINE').join('\n') }, 'shipper', 'validation.textBlock'],
    [{ notifyParty: 'N'.repeat(36) }, 'notifyParty', 'validation.textBlock'],
    [{ containers: [] }, 'containers', 'bl.containersRequired'],
    [{ woodPackagingType: 'none' }, 'woodPackagingType', 'bl.woodPackagingMatch'],
    [{ packageType: 'CT' }, 'woodPackagingType', 'bl.woodPackagingMatch'],
    [{ dgClass: '3' }, 'unNo', 'bl.unNoRequired'],
    [{ unNo: '1263' }, 'dgClass', 'bl.dgClassRequired'],
    [{ quantity: 0 }, 'quantity', 'validation.minimum'],
    [{ volume: 0 }, 'volume', 'validation.exclusiveMinimum'],
    [{ containers: [container({ quantity: 1.5 })] }, 'containers[0].quantity', 'validation.type_integer'],
    // An HS code of 6, 8 or 10 digits only: not a heading, not 7 or 9 digits, not a code with letters.
    [{ hsCode: '6109' }, 'hsCode', 'bl.hsCodeFormat'],
    [{ hsCode: '610910001' }, 'hsCode', 'bl.hsCodeFormat'],
    [{ hsCode: '61091000100' }, 'hsCode', 'bl.hsCodeFormat'],
    [{ hsCode: '6109.10.00' }, 'hsCode', 'bl.hsCodeFormat'],
  ])('refuses %j on %s with %s', (change, field, message) => {
    expect(errors(good(change))).toContainEqual([field, message])
  })

  it('counts a 35 × 7 block by lines and by characters per line, a description by 6 lines', () => {
    const limits = { lineLength: 35, maxLines: 7 }
    expect(textBlock(Array(7).fill('X'.repeat(35)).join('\r\n'), limits)).toBe(true)
    expect(textBlock(Array(7).fill('中'.repeat(35)).join('\n'), limits)).toBe(true)
    expect(textBlock(`${'X'.repeat(35)}\n${'X'.repeat(36)}`, limits)).toBe(false)
    expect(textBlock(Array(7).fill('X').join('\n'), { lineLength: 35, maxLines: 6 })).toBe(false)
  })

  it('sums totals exactly, in thousandths, never as floats', () => {
    const rule = { field: 'total', of: 'rows', item: 'v' }
    expect(sumEquals({ total: 0.3, rows: [{ v: 0.1 }, { v: 0.2 }] }, rule)).toBe(true)
    expect(sumEquals({ total: 18500.5, rows: [{ v: 10500.5 }, { v: 8000 }] }, rule)).toBe(true)
    expect(sumEquals({ total: 18500.501, rows: [{ v: 10500.5 }, { v: 8000 }] }, rule)).toBe(false)
  })

  it('asks for a field when another holds any value (requiredWhen present)', () => {
    const rule = { when: { field: 'dgClass', present: true as const } }
    expect(requiredWhenHolds({ dgClass: '3' }, rule)).toBe(true)
    expect(requiredWhenHolds({ dgClass: '' }, rule)).toBe(false)
    expect(requiredWhenHolds({}, rule)).toBe(false)
  })

  it('gives the seed container numbers with a valid ISO 6346 check digit', () => {
    for (const [owner, serial] of [
      ['MSKU', 907032],
      ['CSQU', 305438],
      ['CBHU', 123456],
      ['MEDU', 1],
    ] as const) {
      const number = containerNumber(owner, serial)
      expect(number).toMatch(/^[A-Z]{4}\d{7}$/)
      expect(isoContainer(number)).toBe(true)
    }
    expect(containerNumber('MSKU', 907032)).toBe('MSKU9070323')
    expect(containerNumber('CSQU', 305438)).toBe('CSQU3054383')
  })
})
