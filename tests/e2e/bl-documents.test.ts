import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { dcsaErrors } from '../support/dcsa.ts'
import { pdfText } from '../support/pdf-text.ts'
import { downloaded, localeText, setupPortal, WAIT } from '../support/portal.ts'

/**
 * An order's documents from its detail screen (issue #23): the operator downloads the DCSA booking request and
 * the draft B/L of a booked FCL order, and is told what the DCSA shipping instructions still lack.
 */

const portal = setupPortal()
const zh = (namespace: string, key: string) => localeText('zh', namespace, key)
const button = (page: Page, action: string) => page.getByRole('button', { name: zh('action', action), exact: true })

describe("an order's documents", () => {
  it('downloads the DCSA booking and the draft B/L, and says what the shipping instructions lack', async () => {
    const { context, page } = await portal.signIn('opadmin', { acceptDownloads: true })
    await page.goto(`${portal.server.url}/orderList?state=booked&containerLoadType=FCL`)
    const link = page.locator('table tbody tr td:first-child a').first()
    await expect.poll(() => link.count(), WAIT).toBe(1)
    const orderNo = (await link.textContent()) ?? ''
    await link.click()
    await page.waitForURL(/\/orderDetailsOperator\?id=\d+$/, WAIT)
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), WAIT).toBe(orderNo)

    const booking = page.waitForEvent('download', WAIT)
    await button(page, 'dcsaBooking').click()
    const bookingFile = await booking
    expect(bookingFile.suggestedFilename()).toBe(`${orderNo}-dcsa-booking.json`)
    const document = JSON.parse((await downloaded(bookingFile)).toString('utf8'))
    expect(dcsaErrors('booking', 'CreateBooking', document)).toEqual([])
    expect(document.bookingChannelReference).toBe(orderNo)

    const draft = page.waitForEvent('download', WAIT)
    await button(page, 'blDraft').click()
    const draftFile = await draft
    expect(draftFile.suggestedFilename()).toBe(`${orderNo}-draft-bl.pdf`)
    const text = pdfText(await downloaded(draftFile))
    for (const expected of ['华远国际物流', '提单', '草稿', 'HANGZHOU MINGHUI TEXTILE IMP & EXP'])
      expect(text).toContain(expected)

    // The newest booked order has no B/L instruction yet (the seed gives the oldest one), so no container
    // numbers or seals: the portal says so instead of a file.
    await button(page, 'dcsaShippingInstructions').click()
    const refusal = page.locator('[data-intent="error"]')
    await expect.poll(() => refusal.count(), WAIT).toBeGreaterThan(0)
    expect(await refusal.first().textContent()).toContain(`containers[0].number: ${zh('validation', 'required')}`)
    await context.close()
  })
})
