import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import type { ManifestEntity } from '../../model/resolve.ts'
import { exportProgress, trackExport } from '../../server/engine/export/progress.ts'
import { cellOf, type ExportColumn, moneyFormat, sheetTitle, writeSheet } from '../../server/engine/export/sheet.ts'
import { readXlsx } from '../support/xlsx.ts'

/** The .xlsx export's cells and sheet (server/engine/export/), without a database. */

const entity = {
  entity: 'charge',
  fields: {
    mode: { type: 'enum', values: [{ value: 'AIR', label: 'enum.containerLoadType.AIR' }] },
    taxable: { type: 'boolean' },
    amount: { type: 'money' },
    currency: { type: 'ref', ref: 'currency' },
  },
  states: { field: 'state', values: { submitted: { label: 'state.submitted' } } },
} as unknown as ManifestEntity

const column = (field: string, kind: ExportColumn['kind'], extra: Partial<ExportColumn> = {}): ExportColumn => ({
  field,
  header: field,
  kind,
  width: 12,
  ...extra,
})

describe('export cells', () => {
  it('writes labels in the language, money with its places and currency, moments in the tenant zone', () => {
    const row = {
      mode: 'AIR',
      state: 'submitted',
      taxable: false,
      amount: '1234.500',
      currency: 'USD',
      postedAt: '2026-03-01T16:30:00.000Z',
      labels: { carrier: 'Maersk' },
      carrier: 'MAEU',
    }
    const cell = (c: ExportColumn) => cellOf(c, row, entity, 'ja', 'Asia/Shanghai')
    expect(cell(column('mode', 'label'))).toEqual({ value: '航空' })
    expect(cell(column('state', 'label'))).toEqual({ value: '確認待ち' })
    expect(cell(column('taxable', 'label'))).toEqual({ value: 'いいえ' })
    expect(cell(column('carrier', 'label'))).toEqual({ value: 'Maersk' })
    expect(cell(column('amount', 'money', { currency: 'currency' }))).toEqual({
      value: 1234.5,
      numFmt: '#,##0.000 "USD"',
    })
    // 16:30 UTC is half past midnight the next day in Shanghai.
    const moment = cell(column('postedAt', 'datetime'))
    expect((moment.value as Date).toISOString()).toBe('2026-03-02T00:30:00.000Z')
    expect(cellOf(column('amount', 'number'), { amount: null }, entity, 'en', 'UTC')).toEqual({ value: null })
  })

  it('writes each of several values as its label, and amounts per currency as one line', () => {
    const row = {
      mode: ['AIR', 'SEA'],
      totals: [
        { currency: 'JPY', amount: '48350', paid: '0' },
        { currency: 'USD', amount: '3700.00' },
      ],
    }
    expect(cellOf(column('mode', 'label'), row, entity, 'ja', 'UTC')).toEqual({ value: '航空, SEA' })
    expect(cellOf(column('totals', 'text'), row, entity, 'en', 'UTC')).toEqual({ value: 'JPY 48,350; USD 3,700.00' })
  })

  it('keeps formats and sheet names to what Excel takes', () => {
    expect(moneyFormat(2, 'EUR')).toBe('#,##0.00 "EUR"')
    expect(moneyFormat(0, undefined)).toBe('#,##0')
    expect(moneyFormat(2, 'US"D')).toBe('#,##0.00')
    expect(sheetTitle('Orders [2026]: a/b*c?')).toBe('Orders  2026   a b c')
    expect(sheetTitle('')).toBe('Sheet1')
    expect(sheetTitle('x'.repeat(40))).toHaveLength(31)
  })

  it('streams pages into a workbook exceljs reads back, text staying text', async () => {
    const out = new PassThrough()
    const chunks: Buffer[] = []
    out.on('data', (chunk: Buffer) => chunks.push(chunk))
    const pages = async function* () {
      yield [[{ value: '=HYPERLINK("x")' }, { value: 3 }]]
      yield [[{ value: 'B' }, { value: 4.25, numFmt: '#,##0.00 "CNY"' }]]
    }
    const seen: number[] = []
    const written = await writeSheet(
      out,
      'Rates',
      [column('name', 'text', { header: 'Name' }), column('amount', 'money', { header: 'Amount' })],
      pages(),
      (n) => seen.push(n),
    )
    expect(written).toBe(2)
    expect(seen).toEqual([1, 2])
    const file = await readXlsx(Buffer.concat(chunks))
    expect(file).toMatchObject({ sheet: 'Rates', headers: ['Name', 'Amount'] })
    expect(file.rows.map((cells) => cells.map((c) => c.value))).toEqual([
      ['=HYPERLINK("x")', 3],
      ['B', 4.25],
    ])
    expect(file.rows[1]?.[1]?.numFmt).toBe('#,##0.00 "CNY"')
  })
})

describe('export progress', () => {
  it('is found by its own tenant, user and id only, and says when it is done', () => {
    const progress = trackExport(7, 70, 'progress-unit-1', 2500)
    progress.written(1000)
    expect(exportProgress(7, 70, 'progress-unit-1')).toEqual({ written: 1000, total: 2500, done: false })
    expect(exportProgress(7, 71, 'progress-unit-1')).toBeNull()
    expect(exportProgress(8, 70, 'progress-unit-1')).toBeNull()
    progress.written(2500)
    progress.end()
    expect(exportProgress(7, 70, 'progress-unit-1')).toEqual({ written: 2500, total: 2500, done: true })
  })
})
