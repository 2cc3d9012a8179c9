import { describe, expect, it } from 'vitest'
import manifest from '../../generated/manifest.json'
import type { Manifest, ManifestEntity } from '../../model/resolve.ts'
import { labelledRecord } from '../../runtime/screens/form/labels.ts'
import {
  cellView,
  codeBesideLabel,
  isFigureColumn,
  refLabel,
  refText,
  rowLabels,
} from '../../runtime/screens/list/format.ts'

/** How the portal shows the labels the engine answers beside ids and codes (server/engine/labels.ts). */

const { entities, screens } = manifest as unknown as Manifest
const order = entities.order as ManifestEntity
const orderList = screens.find((s) => s.name === 'orderList')
const column = (field: string) => {
  const found = orderList?.columns?.find((c) => c.field === field)
  if (!found) throw new Error(`orderList has no column ${field}`)
  return found
}
const isReference = (name: string) => entities[name]?.reference === true

const row = {
  id: 7,
  pol: 'CNSHA',
  pod: 'USLAX',
  carrier: null,
  customerCompany: 2,
  createdBy: 5,
  labels: {
    pol: 'Shanghai',
    customerCompany: 'Hangzhou Minghui Textile Import & Export Co., Ltd.',
    createdBy: 'Chen Jing',
  },
}

describe('list cells of refs', () => {
  it('shows the company name, not its id', () => {
    const label = refLabel(row, 'customerCompany', order, isReference)
    expect(label).toEqual({ text: 'Hangzhou Minghui Textile Import & Export Co., Ltd.' })
    expect(cellView(row.customerCompany, column('customerCompany'), order, label)).toEqual({
      kind: 'text',
      text: 'Hangzhou Minghui Textile Import & Export Co., Ltd.',
    })
  })

  it('shows a port by name with its code as the hint', () => {
    const label = refLabel(row, 'pol', order, isReference)
    expect(label).toEqual({ text: 'Shanghai', code: 'CNSHA' })
    expect(cellView(row.pol, column('pol'), order, label)).toEqual({ kind: 'text', text: 'Shanghai', hint: 'CNSHA' })
    expect(refText(label as NonNullable<typeof label>)).toBe('Shanghai (CNSHA)')
  })

  it('falls back to the raw value without a label, and to nothing without a value', () => {
    expect(refLabel(row, 'pod', order, isReference)).toBeUndefined()
    expect(cellView(row.pod, column('pod'), order, refLabel(row, 'pod', order, isReference))).toEqual({
      kind: 'text',
      text: 'USLAX',
    })
    expect(cellView(null, column('carrier'), order, undefined)).toEqual({ kind: 'text', text: '' })
    expect(refLabel({ pol: 'CNSHA' }, 'pol', order, isReference)).toBeUndefined()
  })

  it('joins the labels of a multiple ref', () => {
    const multi = { ports: ['CNSHA', 'USLAX'], labels: { ports: ['Shanghai', 'Los Angeles'] } }
    const entity = { fields: { ports: { type: 'ref', ref: 'port', multiple: true } } } as unknown as ManifestEntity
    expect(refLabel(multi, 'ports', entity, isReference)).toEqual({
      text: 'Shanghai, Los Angeles',
      code: 'CNSHA, USLAX',
    })
  })
})

describe('read-only refs of a form', () => {
  it('reads as the label; the fields the form edits keep their codes', () => {
    const shown = labelledRecord(order, row)
    expect(shown).toMatchObject({
      customerCompany: 'Hangzhou Minghui Textile Import & Export Co., Ltd.',
      createdBy: 'Chen Jing',
      pol: 'CNSHA',
    })
    expect(row.customerCompany).toBe(2)
    expect(labelledRecord(order, { pol: 'CNSHA' })).toEqual({ pol: 'CNSHA' })
    expect(labelledRecord(order, null)).toBeNull()
  })
})

describe('container types (SPEC §3: size, apostrophe, type)', () => {
  const withCode = (name: string) => codeBesideLabel(entities[name])
  const containers = order.fields.containers?.items ?? {}
  const item = { fields: containers }

  it('read by their label alone; names in a language keep their code beside them', () => {
    expect(withCode('containerType')).toBe(false)
    for (const named of ['port', 'airport', 'carrier', 'country', 'currency']) expect(withCode(named)).toBe(true)
    for (const entity of ['company', 'user', 'order']) expect(withCode(entity)).toBe(false)
    expect(withCode('noSuchEntity')).toBe(false)
  })

  it("give each container row its own label from the list's labels, in the rows' order", () => {
    const labels = { pol: 'Shanghai', 'containers.containerType': ["20'GP", "40'HQ"], 'packages.unit': ['x'] }
    expect(rowLabels(labels, 'containers', 0)).toEqual({ containerType: "20'GP" })
    expect(rowLabels(labels, 'containers', 1)).toEqual({ containerType: "40'HQ" })
    expect(rowLabels(labels, 'containers', 2)).toEqual({})
    expect(rowLabels({ 'containers.containerType': ['', "40'HQ"] }, 'containers', 0)).toEqual({})
    expect(rowLabels(undefined, 'containers', 0)).toEqual({})
    expect(rowLabels({ containers: "40'HQ" }, 'containers', 0)).toEqual({})
  })

  it("show 40'HQ where the row holds 45G1, and the code without a label", () => {
    const row = {
      containerType: '45G1',
      quantity: 2,
      labels: rowLabels({ 'containers.containerType': ["40'HQ"] }, 'containers', 0),
    }
    const label = refLabel(row, 'containerType', item, withCode)
    expect(label).toEqual({ text: "40'HQ" })
    expect(cellView(row.containerType, { field: 'containerType', format: 'text' }, item, label)).toEqual({
      kind: 'text',
      text: "40'HQ",
    })
    const bare = { containerType: '45G1' }
    expect(refLabel(bare, 'containerType', item, withCode)).toBeUndefined()
  })
})

describe('list cells of booleans', () => {
  it('read as yes or no in the reader’s language when the screen names no format (/letterManage)', () => {
    const setting = entities.letterSetting as ManifestEntity
    expect(setting.fields.mail?.type).toBe('boolean')
    expect(cellView(true, { field: 'mail' }, setting)).toEqual({ kind: 'label', key: 'ui.yes' })
    expect(cellView(false, { field: 'mail' }, setting)).toEqual({ kind: 'label', key: 'ui.no' })
  })
})

describe('list cells of several values', () => {
  it("read a webhook's events as their labels, one after another (/webhookList)", () => {
    const webhook = entities.webhookEndpoint as ManifestEntity
    expect(webhook.fields.events?.multiple).toBe(true)
    const view = cellView(['orderState', 'billIssued'], { field: 'events', format: 'enum' }, webhook)
    const labels = webhook.fields.events?.values?.filter((v) => ['orderState', 'billIssued'].includes(String(v.value)))
    expect(view).toEqual({ kind: 'labels', keys: labels?.map((v) => v.label) })
    expect(view.kind === 'labels' && view.keys.every((key) => key.includes('.'))).toBe(true)
    expect(cellView([], { field: 'events', format: 'enum' }, webhook)).toEqual({ kind: 'text', text: '' })
  })

  it("read a bill's totals as its amounts per currency (/billList), and several texts joined", () => {
    const bill = entities.bill as ManifestEntity
    const totals = [
      { currency: 'JPY', amount: '48350', paid: '0', open: '48350' },
      { currency: 'USD', amount: '3700.00', paid: '3700.00', open: '0.00' },
    ]
    expect(cellView(totals, { field: 'totals', width: 220 }, bill)).toEqual({
      kind: 'text',
      text: 'JPY 48,350; USD 3,700.00',
    })
    expect(cellView(['myOrders', 'booking'], { field: 'remarks' }, bill)).toEqual({
      kind: 'text',
      text: 'myOrders, booking',
    })
  })
  it('read money exactly as stored, its digits grouped', () => {
    const bill = entities.bill as ManifestEntity
    const money = { field: 'amount', format: 'money' }
    expect(cellView('1234567.50', money, bill)).toEqual({ kind: 'text', text: '1,234,567.50' })
    expect(cellView('-1000', money, bill)).toEqual({ kind: 'text', text: '-1,000' })
    expect(cellView('999.999', money, bill)).toEqual({ kind: 'text', text: '999.999' })
  })
})

describe('list columns of figures', () => {
  it("line up amounts and counts on the right (/financeManagement), not a bill's totals, codes or names", () => {
    const ageing = entities.billAgeing as ManifestEntity
    const bill = entities.bill as ManifestEntity
    for (const field of ['bills', 'total', 'paid', 'open']) expect(isFigureColumn({ field }, ageing), field).toBe(true)
    expect(isFigureColumn({ field: 'currency' }, ageing)).toBe(false)
    expect(isFigureColumn({ field: 'totals', width: 220 }, bill)).toBe(false)
    expect(isFigureColumn({ field: 'billingNo' }, bill)).toBe(false)
    expect(isFigureColumn({ field: 'billingNo', format: 'money' }, bill)).toBe(true)
    expect(isFigureColumn({ field: 'inputDate', format: 'date' }, bill)).toBe(false)
  })
})
