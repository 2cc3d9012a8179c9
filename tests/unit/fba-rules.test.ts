import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { fbaAddress, fbaProduct } from '../../generated/validators.js'
import type { FieldDef } from '../../model/definitions.ts'
import { asin, isbn10 } from '../../rules/formats.ts'
import { requiredWhen, requiredWhenHolds } from '../../rules/keywords.ts'
import { toFieldErrors } from '../../rules/messages.ts'

const manifest = JSON.parse(readFileSync('generated/manifest.json', 'utf8')) as {
  entities: Record<string, { fields: Record<string, FieldDef> }>
}
/** The field errors a reader gets from an entity's generated validator: `field: message key`. */
function errorsOf(entity: 'fbaProduct' | 'fbaAddress', data: Record<string, unknown>): string[] {
  const validate = entity === 'fbaProduct' ? fbaProduct : fbaAddress
  if (validate(data)) return []
  const fields = manifest.entities[entity]?.fields ?? {}
  return toFieldErrors(validate.errors as never, { fields }).map((e) => `${e.field}: ${e.message}`)
}

/**
 * The FBA rules of issue #26 that run on both sides: the ASIN format (schemas/fbaProduct.yaml) and an address's
 * street asked unless a fulfilment centre fills it (requiredWhen `absent`, schemas/fbaAddress.yaml), each as
 * the function and as the generated validator the portal's forms and the server share.
 */

describe('ASIN', () => {
  it.each(['B0C7K4M2XQ', 'B0D3F8R1LT', 'B000000000'])('accepts %s (B0 and eight letters or digits)', (value) =>
    expect(asin(value)).toBe(true),
  )
  it.each(['0306406152', '080442957X', '0198526636'])('accepts the ISBN-10 %s (its check digit holds)', (value) =>
    expect(asin(value)).toBe(true),
  )
  it.each([
    ['B1C7K4M2XQ', 'a B not followed by 0'],
    ['b0c7k4m2xq', 'lower case'],
    ['B0C7K4M2X', 'nine characters'],
    ['B0C7K4M2XQ1', 'eleven characters'],
    ['B0C7K4M2-Q', 'a hyphen'],
    ['0306406153', 'an ISBN-10 with a wrong check digit'],
    ['030640615X', 'X where the check digit is 2'],
    ['X306406152', 'X other than last'],
    ['', 'nothing'],
  ])('refuses %s (%s)', (value) => expect(asin(value)).toBe(false))
  it('weighs ISBN-10 digits ten down to one, X counting ten', () => {
    // 0·10 + 8·9 + 0·8 + 4·7 + 4·6 + 2·5 + 9·4 + 5·3 + 7·2 + 10·1 = 209 = 19·11
    expect(isbn10('080442957X')).toBe(true)
    expect(isbn10('0804429579')).toBe(false)
  })
  it('is the product validator’s check, with the product’s own message', () => {
    expect(errorsOf('fbaProduct', { sku: 'MH-1', nameCn: '围巾', nameEn: 'Scarf', asin: 'B0C7K4M2XQ' })).toEqual([])
    expect(errorsOf('fbaProduct', { sku: 'MH-1', nameCn: '围巾', nameEn: 'Scarf', asin: 'B1C7K4M2XQ' })).toEqual([
      'asin: fba.asinFormat',
    ])
  })
})

describe('requiredWhen absent', () => {
  const rule = { field: 'state', when: { field: 'fulfilmentCentre', absent: true as const } }
  it('asks for the field while the other holds nothing', () => {
    expect(requiredWhenHolds({}, rule)).toBe(true)
    expect(requiredWhenHolds({ fulfilmentCentre: '' }, rule)).toBe(true)
    expect(requiredWhen({ fulfilmentCentre: null }, rule)).toBe(false)
    expect(requiredWhen({ state: 'CA' }, rule)).toBe(true)
  })
  it('lets it be once the other is filled', () => {
    expect(requiredWhenHolds({ fulfilmentCentre: 'ONT8' }, rule)).toBe(false)
    expect(requiredWhen({ fulfilmentCentre: 'ONT8' }, rule)).toBe(true)
  })
  it('is the address validator’s check: typed street or a fulfilment centre', () => {
    const base = { code: 'A1', name: 'Amazon', purpose: 2, country: 'US' }
    expect(errorsOf('fbaAddress', { ...base, fulfilmentCentre: 'ONT8' })).toEqual([])
    expect(errorsOf('fbaAddress', base)).toEqual([
      'state: fba.stateRequired',
      'city: fba.cityRequired',
      'addressLine1: fba.addressRequired',
      'zipCode: fba.zipCodeRequired',
    ])
  })
})
