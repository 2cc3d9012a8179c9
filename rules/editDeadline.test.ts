import { describe, expect, it } from 'vitest'
import type { EditDeadlineDef } from '../model/definitions.ts'
import { dayStartIn } from './calendar.ts'
import { editClosed } from './editDeadline.ts'

const RULE: EditDeadlineDef = {
  date: 'etd',
  until: 'lastModifyTime',
  enabled: 'operatingOrderIfModify',
  hours: 'operatingOrderLimitValue',
  lineOfBusiness: { field: 'lob', setting: 'operatingOrderLob' },
  message: 'error.etdWarning',
}
const ON = { operatingOrderIfModify: true, operatingOrderLimitValue: 24, operatingOrderLob: [] }
const at = (iso: string) => new Date(iso)

describe('editClosed (SPEC §9 ETD warning)', () => {
  it('reads an ETD day as its start in the zone: 24 hours before 2027-01-10 is 2027-01-09 00:00 in Shanghai', () => {
    expect(dayStartIn('2027-01-10', 'Asia/Shanghai').toISOString()).toBe('2027-01-09T16:00:00.000Z')
    const job = { etd: '2027-01-10', lob: 'seaExport' }
    expect(editClosed(RULE, job, ON, at('2027-01-08T15:59:59Z'))).toBe(false)
    expect(editClosed(RULE, job, ON, at('2027-01-08T16:00:01Z'))).toBe(true)
    // The same instant in another zone's tenant is still open there.
    expect(editClosed(RULE, job, ON, at('2027-01-08T16:00:01Z'), 'Europe/London')).toBe(false)
  })

  it('closes at the last modification time whatever the ETD', () => {
    const job = { etd: '2027-03-01', lob: 'seaExport', lastModifyTime: '2027-01-01T00:00:00Z' }
    expect(editClosed(RULE, job, ON, at('2026-12-31T23:59:00Z'))).toBe(false)
    expect(editClosed(RULE, job, ON, at('2027-01-01T00:00:01Z'))).toBe(true)
  })

  it('holds only with the switch on, and only for the listed lines of business (none listed: all)', () => {
    const job = { etd: '2027-01-10', lob: 'seaExport' }
    const late = at('2027-01-09T12:00:00Z')
    expect(editClosed(RULE, job, { ...ON, operatingOrderIfModify: false }, late)).toBe(false)
    expect(editClosed(RULE, job, {}, late)).toBe(false)
    expect(editClosed(RULE, job, { ...ON, operatingOrderLob: ['airExport'] }, late)).toBe(false)
    expect(editClosed(RULE, job, { ...ON, operatingOrderLob: ['seaExport'] }, late)).toBe(true)
  })

  it('takes no limit, or a bad one, as the ETD itself; a record without an ETD is open', () => {
    const job = { etd: '2027-01-10', lob: 'seaExport' }
    const settings = { ...ON, operatingOrderLimitValue: 'x' }
    expect(editClosed(RULE, job, settings, at('2027-01-09T15:59:00Z'))).toBe(false)
    expect(editClosed(RULE, job, settings, at('2027-01-09T16:00:01Z'))).toBe(true)
    expect(editClosed(RULE, { lob: 'seaExport' }, ON, at('2030-01-01T00:00:00Z'))).toBe(false)
    expect(editClosed(RULE, null, ON, at('2030-01-01T00:00:00Z'))).toBe(false)
  })
})
