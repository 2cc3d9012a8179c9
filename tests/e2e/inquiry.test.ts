import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { addInquiryContainers, addInquiryPackage, chooseInquiryRoute } from '../support/commercial.ts'
import { localeText, setupPortal, WAIT } from '../support/portal.ts'

/**
 * Issue 8's inquiry in the browser: entadmin opens Inquiry → Sea from the top menu, chooses the route first
 * (the rest of the form waits for it), gets the tenant's default trade term with its services, and submits a
 * sea inquiry with two container types; without a container quantity the rule's message shows and nothing
 * is saved; opadmin finds the inquiry in /InquiryList and opens /viewInquiry with its "Write quote" action.
 */
const portal = setupPortal()
const en = (namespace: string, key: string) => localeText('en', namespace, key)

/** The customer's inquiries, counted through the API from the signed-in page. */
async function myInquiries(page: Page): Promise<{ total: number; list: Record<string, unknown>[] }> {
  return page.evaluate(async () => {
    const response = await fetch('/api/booking/inquiry/listByCompany', {
      method: 'POST',
      headers: { 'content-type': 'application/json', resource: '1' },
      body: JSON.stringify({ pageSize: 200 }),
    })
    return ((await response.json()) as { content: { total: number; list: Record<string, unknown>[] } }).content
  })
}

describe('the pallet inquiry', () => {
  it('entadmin submits a sea inquiry with two container types from the Inquiry menu', async () => {
    const { context, page, base } = await portal.signIn('entadmin')
    await page.goto(`${base}/dashboard?lang=en`)
    await page.getByRole('button', { name: en('ui', 'menu_inquiry'), exact: true }).click()
    // Four modes: 'all' first, then sea, air, railway, truck.
    const entries = page.getByRole('menuitem')
    await expect
      .poll(() => entries.allTextContents(), WAIT)
      .toEqual(
        ['inquiry_all', 'inquiry_sea', 'inquiry_air', 'inquiry_railway', 'inquiry_truck'].map((k) => en('ui', k)),
      )
    await entries.filter({ hasText: en('ui', 'inquiry_sea') }).click()
    await page.waitForURL(/\/palletInquiry\/sea/)
    await page.getByTestId('inquiry-form-sea').waitFor(WAIT)
    const before = (await myInquiries(page)).total

    // Sea is fixed by the route.
    const sea = page.getByRole('checkbox', { name: en('enum', 'transportMode.sea') })
    expect(await sea.isChecked()).toBe(true)
    expect(await sea.isDisabled()).toBe(true)
    await chooseInquiryRoute(page, 'en')

    // The seller's default sea term is FOB: export customs pre-ticked and locked, pick-up pre-ticked.
    const term = page.getByRole('combobox', { name: en('field', 'tradeTerm') })
    await expect.poll(() => term.inputValue(), WAIT).toBe('FOB')
    const exportCustoms = page.getByRole('checkbox', { name: en('enum', 'customsDeclaration.export') })
    expect(await exportCustoms.isChecked()).toBe(true)
    expect(await exportCustoms.isDisabled()).toBe(true)
    expect(await page.getByRole('checkbox', { name: en('field', 'needPickUp') }).isChecked()).toBe(true)
    await page.getByRole('textbox', { name: en('field', 'pickUpAddress') }).fill('88 Wenyi West Road, Hangzhou')

    await addInquiryContainers(page, 'en', [
      ['22G1', '2'],
      ['45G1', '1'],
    ])
    await addInquiryPackage(page, 'en')
    await page.getByRole('button', { name: en('inquiry', 'submit') }).click()

    const saved = page.getByTestId('inquiry-saved')
    await saved.waitFor(WAIT)
    expect(await saved.textContent()).toMatch(/INQ\d{6}\d+/)
    expect(await page.getByTestId('inquiry-quotes-link').getAttribute('href')).toMatch(/^\/inquiryQuotes\?id=\d+$/)
    const after = await myInquiries(page)
    expect(after.total).toBe(before + 1)
    const stored = after.list.find((row) => String(row.inquiryNo) && (row.containers as unknown[])?.length === 2)
    expect(stored).toMatchObject({
      transportModes: [1],
      origin: 'CNSHA',
      destination: 'USLAX',
      tradeTerm: 'FOB',
      state: 'submitted',
      customsDeclaration: ['export'],
      containers: [
        { containerType: '22G1', quantity: 2 },
        { containerType: '45G1', quantity: 1 },
      ],
    })
    await context.close()
  })

  it('without a container quantity shows the rule message and saves nothing', async () => {
    const { context, page, base } = await portal.signIn('entadmin')
    await page.goto(`${base}/palletInquiry/sea?lang=en`)
    await page.getByTestId('inquiry-form-sea').waitFor(WAIT)
    const before = (await myInquiries(page)).total
    let saves = 0
    page.on('request', (request) => {
      if (request.url().includes('/api/booking/inquiry/save')) saves++
    })
    await chooseInquiryRoute(page, 'en')
    await addInquiryPackage(page, 'en')
    await page.getByRole('button', { name: en('inquiry', 'submit') }).click()
    await expect.poll(() => page.getByText(en('rule', 'containersRequired')).count(), WAIT).toBeGreaterThan(0)
    expect(saves).toBe(0)
    expect((await myInquiries(page)).total).toBe(before)
    await context.close()
  })

  it("follows the screen's UI rules: fields wait for origin and destination, the goods value for insurance", async () => {
    // screens/inquiry.yaml (enable when origin and destination are filled) and schemas/inquiry.yaml
    // (goods value shown with insurance), drawn by the generic rule evaluator, not by the flow's code.
    const { context, page, base } = await portal.signIn('entadmin')
    await page.goto(`${base}/palletInquiry/sea?lang=en`)
    await page.getByTestId('inquiry-form-sea').waitFor(WAIT)
    const contractNo = page.getByRole('textbox', { name: en('field', 'contractNo') })
    const insurance = page.getByRole('checkbox', { name: en('field', 'insurance') })
    const goodsValue = page.getByRole('textbox', { name: en('field', 'goodsValue') })
    await expect.poll(() => contractNo.isDisabled(), WAIT).toBe(true)
    expect(await insurance.isDisabled()).toBe(true)
    expect(await goodsValue.count()).toBe(0)

    await chooseInquiryRoute(page, 'en')
    await expect.poll(() => contractNo.isDisabled(), WAIT).toBe(false)
    expect(await page.getByTestId('inquiry-route-first').count()).toBe(0)
    await contractNo.fill('MH-2026-0318')
    expect(await goodsValue.count()).toBe(0)
    await insurance.check()
    await expect.poll(() => goodsValue.count(), WAIT).toBe(1)
    expect(await goodsValue.isDisabled()).toBe(false)
    await insurance.uncheck()
    await expect.poll(() => goodsValue.count(), WAIT).toBe(0)
    await context.close()
  })

  it('opadmin finds the inquiry in /InquiryList and opens /viewInquiry', async () => {
    const { context, page, base } = await portal.signIn('opadmin')
    await page.goto(`${base}/InquiryList?lang=en`)
    const link = page
      .locator('table tbody tr a')
      .filter({ hasText: /^INQ\d+/ })
      .first()
    await link.waitFor(WAIT)
    const number = (await link.textContent()) ?? ''
    await link.click()
    await page.waitForURL(/\/viewInquiry\?id=\d+/)
    await expect.poll(() => page.getByText(number, { exact: true }).count(), WAIT).toBeGreaterThan(0)
    await expect.poll(() => page.getByText('CNSHA').count(), WAIT).toBeGreaterThan(0)
    const write = page.getByRole('button', { name: en('action', 'writeQuote') })
    await write.waitFor(WAIT)
    const id = new URL(page.url()).searchParams.get('id')
    await write.click()
    await page.waitForURL((url) => url.pathname === '/inquiryQuoteDetails' && url.searchParams.get('inquiry') === id)
    await context.close()
  })

  it('opadmin rejects a submitted inquiry with a reason: the transition asks for it in a dialog', async () => {
    // schemas/inquiry.yaml: reject takes input: inquiryRejection (a required reason), asked by the generic
    // detail screen and kept in the history.
    const { context, page, base } = await portal.signIn('opadmin')
    await page.goto(`${base}/InquiryList?lang=en&state=submitted`)
    const link = page
      .locator('table tbody tr a')
      .filter({ hasText: /^INQ\d+/ })
      .first()
    await link.waitFor(WAIT)
    const number = (await link.textContent()) ?? ''
    await link.click()
    await page.waitForURL(/\/viewInquiry\?id=\d+/)
    // The list's own row actions (a Reject among them) go once the detail has drawn its record.
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), WAIT).toBe(number)
    await page.getByRole('button', { name: en('action', 'reject'), exact: true }).click()
    const dialog = page.getByTestId('transition-input')
    await dialog.waitFor(WAIT)
    expect(await dialog.getByText(en('confirm', 'rejectInquiry')).count()).toBe(1)
    const confirm = dialog.getByRole('button', { name: en('action', 'reject'), exact: true })
    await confirm.click()
    // The reason is required: the input's own validator says so before anything is sent.
    await expect.poll(() => dialog.getByText(en('validation', 'required')).count(), WAIT).toBeGreaterThan(0)
    const reason = 'No capacity on this lane before the goods are ready'
    await dialog.getByRole('textbox', { name: en('field', 'rejectReason') }).fill(reason)
    await confirm.click()
    await expect.poll(() => dialog.count(), WAIT).toBe(0)
    await expect.poll(() => page.locator('h1 ~ [data-state]').getAttribute('data-state'), WAIT).toBe('rejected')
    await expect.poll(() => page.getByText(reason, { exact: false }).count(), WAIT).toBeGreaterThan(0)
    await context.close()
  })
})
