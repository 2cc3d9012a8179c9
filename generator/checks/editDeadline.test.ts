import { describe, expect, it } from 'vitest'
import { checkEditDeadlines } from './editDeadline.ts'
import { contextOf, where } from './testing.ts'

const SETTINGS = `entity: siteSettingsView
label: l
stored: false
fields:
  operatingOrderIfModify: { type: boolean }
  operatingOrderLimitValue: { type: number }
  operatingOrderLob: { type: string, multiple: true }
  websiteName: { type: string }
`
const JOB = `entity: operatingOrder
label: l
fields:
  etd: { type: date }
  lastModifyTime: { type: datetime }
  lob: { type: enum, values: [{ value: sea, label: l }] }
  remarks: { type: string }
editDeadline:
  date: etd
  until: lastModifyTime
  enabled: operatingOrderIfModify
  hours: operatingOrderLimitValue
  lineOfBusiness: { field: lob, setting: operatingOrderLob }
  message: l
`
const check = (job: string) =>
  where(
    checkEditDeadlines(contextOf({ 'schemas/siteSettingsView.yaml': SETTINGS, 'schemas/operatingOrder.yaml': job })),
  )

describe('checkEditDeadlines', () => {
  it("finds nothing wrong with the entity's date fields and the portal's settings", () => {
    expect(check(JOB)).toEqual([])
  })

  it('refuses fields of the wrong type and settings the portal does not have, each where it is written', () => {
    const job = JOB.replace('date: etd', 'date: remarks')
      .replace('until: lastModifyTime', 'until: etd')
      .replace('enabled: operatingOrderIfModify', 'enabled: websiteName')
      .replace('hours: operatingOrderLimitValue', 'hours: operatingOrderLimit')
      .replace('setting: operatingOrderLob', 'setting: websiteName')
    expect(check(job)).toEqual([
      expect.stringMatching(/editDeadline\.date: "remarks" is not a date or datetime field of operatingOrder/),
      expect.stringMatching(/editDeadline\.until: "etd" is not a datetime field of operatingOrder/),
      expect.stringMatching(/editDeadline\.enabled: "websiteName" is not a boolean site setting/),
      expect.stringMatching(/editDeadline\.hours: "operatingOrderLimit" is not a number or integer site setting/),
      expect.stringMatching(/editDeadline\.lineOfBusiness\.setting: "websiteName" is not a list site setting/),
    ])
  })
})
