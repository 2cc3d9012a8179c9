import { describe, expect, it } from 'vitest'
import { localeText, setupPortal, WAIT } from '../support/portal.ts'
import { workbook, XLSX_MIME } from '../support/workbook.ts'

/**
 * Trajectory management in the browser (issue #23): the operator finds a shipment on /trajectoryList, opens its
 * events and imports a workbook of one more; the new event is in the shipment's list.
 */
const portal = setupPortal()

describe('trajectory management (operator)', () => {
  it('opens a shipment’s events and imports one more from a workbook', async () => {
    const { context, page, base } = await portal.signIn('opadmin')
    await page.goto(`${base}/trajectoryList`)
    const row = page.getByRole('row').filter({ hasText: 'COSU6312345670' })
    await row.first().waitFor(WAIT)
    await row
      .first()
      .getByRole('button', { name: localeText('zh', 'tracking', 'events'), exact: true })
      .click()
    await page.waitForURL(/\/trajectoryEvents\?shipment=\d+/, WAIT)

    await page.getByRole('button', { name: localeText('zh', 'import', 'action'), exact: true }).click()
    const dialog = page.getByRole('dialog')
    await dialog.waitFor(WAIT)
    const file = workbook(
      [
        [
          'shipment',
          'eventType',
          'eventClassifierCode',
          'transportEventTypeCode',
          'unLocationCode',
          'vesselName',
          'carrierVoyageNumber',
          'eventDateTime',
        ],
        [
          'COSU6312345670',
          'TRANSPORT',
          'EST',
          'ARRI',
          'USLAX',
          'E2E TRAJECTORY VESSEL',
          '052E',
          '2026-03-21T06:00:00Z',
        ],
      ],
      'events',
    )
    await dialog.locator('input[type=file]').setInputFiles({ name: 'events.xlsx', mimeType: XLSX_MIME, buffer: file })
    await dialog.getByRole('button', { name: localeText('zh', 'import', 'upload'), exact: true }).click()
    await expect
      .poll(() => dialog.textContent(), WAIT)
      .toContain(localeText('zh', 'import', 'imported').replace('{{count}}', '1'))
    await dialog.getByRole('button', { name: localeText('zh', 'import', 'close'), exact: true }).click()
    await expect.poll(() => page.locator('main').textContent(), WAIT).toContain('E2E TRAJECTORY VESSEL')
    await context.close()
  })
})
