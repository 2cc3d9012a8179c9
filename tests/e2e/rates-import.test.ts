import { describe, expect, it } from 'vitest'
import { localeText, setupPortal, WAIT } from '../support/portal.ts'
import { type Cell, FCL_RATE_HEADER, XLSX_MIME as MIME, workbook } from '../support/workbook.ts'

/**
 * Issue 7's rate import in the browser: the operator imports a workbook with bad rows on /freightRateList,
 * reads each problem by row and column, finds that nothing was imported, then imports a good workbook and
 * sees the new rates at the top of the list.
 */
const portal = setupPortal()
const zh = (key: string) => localeText('zh', 'import', key)

// The rate import's columns (FCL_RATE_HEADER) with two containers of the list's own, the second by its label.
const HEADER: Cell[] = [...FCL_RATE_HEADER.filter((column) => column !== '45G1'), '20GP', "40'HQ"]
const row = (rateNo: string, pol: string, price40: Cell): Cell[] => [
  rateNo,
  'FCL',
  'MAEU',
  pol,
  'USLAX',
  '2026-05-01',
  '2026-05-31',
  'USD',
  'container',
  18,
  1500,
  price40,
]

const xlsx = (rows: Cell[][]) => workbook(rows, 'rates')

describe('rate import (operator)', () => {
  it('shows every bad cell and imports nothing, then imports a good workbook into the list', async () => {
    const { context, page, base } = await portal.signIn('opadmin')
    await page.goto(`${base}/freightRateList`)
    await page.getByRole('button', { name: zh('action'), exact: true }).click()
    const dialog = page.getByRole('dialog')
    await dialog.waitFor(WAIT)
    await expect.poll(() => dialog.textContent(), WAIT).toContain('10 MB')

    const bad = xlsx([
      HEADER,
      row('E2E-IMP-1', 'CNSHA', 2100),
      row('E2E-IMP-2', 'XXNOP', 2100), // no such port: row 3, column D
      row('E2E-IMP-3', 'CNSHA', 2100.1234), // four decimals: row 4, column L
    ])
    await dialog.locator('input[type=file]').setInputFiles({ name: 'rates.xlsx', mimeType: MIME, buffer: bad })
    await dialog.getByRole('button', { name: zh('upload'), exact: true }).click()
    const problems = dialog.getByRole('table')
    await problems.waitFor(WAIT)
    await expect.poll(() => dialog.textContent(), WAIT).toContain(zh('problems').replace('{{count}}', '2'))
    const lines = await problems.getByRole('row').allTextContents()
    expect(lines).toHaveLength(3)
    expect(lines[1]).toMatch(/^3D · pol/)
    expect(lines[1]).toContain('XXNOP')
    expect(lines[2]).toMatch(/^4L · 40'HQ/)

    // Nothing of that file is stored, not even its good row.
    const stored = async () =>
      page.evaluate(async () => {
        const response = await fetch('/api/price/rate/list', {
          method: 'POST',
          headers: { 'content-type': 'application/json', resource: '1' },
          body: JSON.stringify({ searchParams: { rateNo: 'E2E-IMP-' }, pageSize: 50 }),
        })
        return ((await response.json()) as { content: { total: number } }).content.total
      })
    expect(await stored()).toBe(0)

    const good = xlsx([HEADER, row('E2E-IMP-1', 'CNSHA', 2100), row('E2E-IMP-2', 'CNNGB', '2150.5')])
    await dialog.locator('input[type=file]').setInputFiles({ name: 'rates.xlsx', mimeType: MIME, buffer: good })
    await dialog.getByRole('button', { name: zh('upload'), exact: true }).click()
    await expect.poll(() => dialog.textContent(), WAIT).toContain(zh('imported').replace('{{count}}', '2'))
    expect(await stored()).toBe(2)
    await dialog.getByRole('button', { name: zh('close'), exact: true }).click()
    await expect.poll(() => page.getByRole('dialog').count(), WAIT).toBe(0)
    // The list loads again; the newest rows come first.
    await expect.poll(() => page.getByRole('table').first().textContent(), WAIT).toContain('E2E-IMP-2')
    await context.close()
  })
})
