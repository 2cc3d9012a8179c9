import { describe, expect, it } from 'vitest'
import { compareDecimal, formatScaled, toScaled } from '../../rules/decimal.ts'
import {
  airWaybill,
  chinaMobile,
  date,
  dateTime,
  isoContainer,
  password,
  unlocode,
  username,
} from '../../rules/formats.ts'
import { compare, sumEquals, textBlock, uniqueBy } from '../../rules/keywords.ts'

describe('ISO 6346 container numbers', () => {
  it.each(['CSQU3054383', 'MSKU9070323'])('accepts %s', (number) => expect(isoContainer(number)).toBe(true))
  it.each([
    ['CSQU3054384', 'a wrong check digit'],
    ['CSQX3054383', 'a category other than U, J or Z'],
    ['csqu3054383', 'lower case'],
    ['CSQU305438', 'too short'],
  ])('refuses %s (%s)', (number) => expect(isoContainer(number)).toBe(false))
})

describe('air waybill numbers', () => {
  it('accepts 3-digit prefix + 8 digits whose last is the first seven mod 7, with or without separators', () => {
    expect(airWaybill('16012345675')).toBe(true)
    expect(airWaybill('160-1234 5675')).toBe(true)
  })
  it('refuses a wrong check digit or length', () => {
    expect(airWaybill('16012345676')).toBe(false)
    expect(airWaybill('1601234567')).toBe(false)
  })
})

describe('other named formats', () => {
  it('UN/LOCODE', () => {
    expect(unlocode('CNSHA')).toBe(true)
    expect(unlocode('JPUKB')).toBe(true)
    expect(unlocode('CNSH1')).toBe(false)
  })
  it('username (SPEC §5)', () => {
    expect(username('entadmin2')).toBe(true)
    expect(username('12345')).toBe(false)
    expect(username('a.b')).toBe(false)
    expect(username('a'.repeat(32))).toBe(false)
  })
  it('password, the stricter reading (special character required)', () => {
    expect(password('Demo@2026')).toBe(true)
    expect(password('Demo2026x')).toBe(false)
    expect(password('De@1')).toBe(false)
  })
  it('mainland China mobile numbers', () => {
    expect(chinaMobile('13800138000')).toBe(true)
    expect(chinaMobile('12800138000')).toBe(false)
  })
  it('calendar dates, not just their shape', () => {
    expect(date('2026-02-28')).toBe(true)
    expect(date('2028-02-29')).toBe(true)
    expect(date('2026-02-30')).toBe(false)
    expect(date('2026-13-01')).toBe(false)
    expect(dateTime('2026-11-21T10:00:00Z')).toBe(true)
    expect(dateTime('2026-02-30T10:00:00Z')).toBe(false)
  })
})

describe('exact decimals', () => {
  it('adds and compares without float error', () => {
    const sum = ['0.1', '0.2'].reduce((a, b) => a + (toScaled(b) as bigint), 0n)
    expect(formatScaled(sum, 3)).toBe('0.300')
    expect(compareDecimal('1234.560', 1234.56)).toBe(0)
    expect(compareDecimal('9999999999.999', '10000000000')).toBe(-1)
  })
  it('sums container weights exactly', () => {
    const rows = [{ w: '0.1' }, { w: '0.2' }]
    expect(sumEquals({ total: '0.3', rows }, { field: 'total', of: 'rows', item: 'w' })).toBe(true)
    expect(sumEquals({ total: '0.31', rows }, { field: 'total', of: 'rows', item: 'w' })).toBe(false)
  })
})

describe('cross-field rules', () => {
  it('compare skips absent values and compares dates as text', () => {
    expect(compare({ etd: '2026-03-01' }, { field: 'eta', op: 'gte', other: 'etd' })).toBe(true)
    expect(compare({ etd: '2026-03-01', eta: '2026-02-01' }, { field: 'eta', op: 'gte', other: 'etd' })).toBe(false)
  })
  it('the same container cannot be added twice, whatever its case or spaces', () => {
    const rule = { field: 'containers', by: ['no'] }
    expect(uniqueBy({ containers: [{ no: 'CSQU3054383' }, { no: ' csqu3054383' }] }, rule)).toBe(false)
    expect(uniqueBy({ containers: [{ no: 'CSQU3054383' }, { no: 'MSKU9070323' }] }, rule)).toBe(true)
  })
  it('free-text blocks hold 7 lines of 35 characters', () => {
    const limits = { lineLength: 35, maxLines: 7 }
    expect(textBlock(Array(7).fill('x'.repeat(35)).join('\n'), limits)).toBe(true)
    expect(textBlock(Array(8).fill('x').join('\n'), limits)).toBe(false)
    expect(textBlock('x'.repeat(36), limits)).toBe(false)
  })
})
