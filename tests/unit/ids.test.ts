import { describe, expect, it } from 'vitest'
import { ApiError } from '../../server/http/errors.ts'
import { idOrNull, MAX_ID, parseId } from '../../server/http/ids.ts'

const refusal = (value: unknown, field?: string) => {
  try {
    parseId(value, field)
  } catch (error) {
    return (error as ApiError).fieldErrors?.map((e) => `${e.field}:${e.message}`)
  }
  return 'accepted'
}

describe('the one id parser', () => {
  it('reads ids as numbers or digits, within 1 … 2^31 − 1', () => {
    expect(parseId(7)).toBe(7)
    expect(parseId('42')).toBe(42)
    expect(parseId(String(MAX_ID))).toBe(MAX_ID)
    expect(refusal(MAX_ID + 1)).toEqual(['id:validation.maximum'])
    expect(refusal('99999999999999999999')).toEqual(['id:validation.maximum'])
    expect(refusal('0', 'rateId')).toEqual(['rateId:validation.minimum'])
    expect(refusal('1.5')).toEqual(['id:validation.type_integer'])
    expect(refusal('abc', 'version')).toEqual(['version:validation.type_integer'])
    expect(refusal('')).toEqual(['id:validation.required'])
    expect(new ApiError('validation').code).toBe('validation')
  })

  it('answers null for what names no id, for lookups that skip it', () => {
    expect(idOrNull('12')).toBe(12)
    expect(idOrNull(12)).toBe(12)
    for (const value of ['9999999999', String(MAX_ID + 1), '0', '-3', '1e3', 'CNSHA', '', null, 2.5, 0])
      expect(idOrNull(value)).toBeNull()
  })
})
