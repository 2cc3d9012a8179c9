import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { localeText, setupPortal, WAIT } from '../support/portal.ts'

/**
 * An order's documents (issue #23): the customer attaches a packing list to their booked order on its detail
 * screen and sees it listed; a 6 MB file is refused with SPEC §5's limit, in Chinese, before it is sent.
 */

const portal = setupPortal()
const zh = (namespace: string, key: string) => localeText('zh', namespace, key)

async function openBookedOrder(page: Page) {
  await page.goto(`${portal.server.url}/myOrders?state=booked&containerLoadType=FCL`)
  const link = page.locator('table tbody tr td:first-child a').first()
  await expect.poll(() => link.count(), WAIT).toBe(1)
  const orderNo = (await link.textContent()) ?? ''
  await link.click()
  await page.waitForURL(/\/orderDetails\?id=\d+$/, WAIT)
  await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), WAIT).toBe(orderNo)
}

describe('order documents on the order detail', () => {
  it('a customer uploads a packing list, sees it listed, and is told a 6 MB file is too large', async () => {
    const { page } = await portal.signIn('entadmin')
    await openBookedOrder(page)
    const panel = page.getByRole('region', { name: zh('detail', 'sectionFiles') })
    await expect.poll(() => panel.count(), WAIT).toBe(1)
    await panel.getByTestId('attachment-type').selectOption('packingList')
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(4000, 0x20)])
    await panel
      .getByTestId('attachment-file')
      .setInputFiles({ name: 'packing-list.pdf', mimeType: 'application/pdf', buffer: pdf })
    const row = panel.locator('tbody tr', { hasText: 'packing-list.pdf' })
    await expect.poll(() => row.count(), WAIT).toBe(1)
    expect(await row.textContent()).toContain(zh('enum', 'orderFileType.packingList'))

    const big = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(6 * 1024 * 1024, 0x20)])
    await panel
      .getByTestId('attachment-file')
      .setInputFiles({ name: 'big.pdf', mimeType: 'application/pdf', buffer: big })
    await expect.poll(() => panel.getByRole('alert').textContent(), WAIT).toBe('文件过大：big.pdf 超过 5 MB')
    expect(await panel.locator('tbody tr').count()).toBe(1)
  })
})
