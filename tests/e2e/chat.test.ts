import { describe, expect, it } from 'vitest'
import { downloaded, localeText, setupPortal, WAIT } from '../support/portal.ts'

/**
 * Issue #27's chat in Chromium, two people on one server: entadmin asks about an order from its detail page
 * (a new tab on /im with SPEC's parameters), opcs finds the conversation in the queue under the enterprise's chat
 * name, takes it, tags it from the tenant's tags and filters the queue by them, and answers;
 * the customer's tab shows the answer without a reload, with their own message marked read, and the top
 * bar's unread badge on the order page clears once the chat tab has read it.
 */
const portal = setupPortal()
const en = (namespace: string, key: string) => localeText('en', namespace, key)

describe('the chat (/im)', () => {
  it('a customer asks about an order, an operator takes it and answers, the customer reads it live', async () => {
    const customer = await portal.signIn('entadmin')
    const { page } = customer
    await page.goto(`${customer.base}/myOrders?state=booked&containerLoadType=FCL&lang=en`)
    const link = page.locator('table tbody tr td:first-child a').first()
    await expect.poll(() => link.count(), WAIT).toBe(1)
    const orderNo = ((await link.textContent()) ?? '').trim()
    await link.click()
    await page.waitForURL(/\/orderDetails\?id=\d+/, WAIT)

    // "Ask customer service" opens the chat tab with the order's conversation.
    const [chat] = await Promise.all([
      customer.context.waitForEvent('page', WAIT),
      page.getByRole('button', { name: en('chat', 'ask'), exact: true }).click(),
    ])
    await chat.waitForURL(/\/im\?cacheKey=/, WAIT)
    const address = new URL(chat.url())
    expect(Object.fromEntries(address.searchParams)).toMatchObject({
      userName: 'entadmin',
      fromB2B: '1',
      language: 'en',
    })
    const box = chat.getByRole('textbox', { name: en('chat', 'text') })
    await expect.poll(() => box.count(), WAIT).toBe(1)
    const question = `When does ${orderNo} sail? <b>not bold</b>`
    await box.fill(question)
    await box.press('Enter')
    const mine = chat.locator('li[data-side="1"]', { hasText: question })
    await expect.poll(() => mine.count(), WAIT).toBe(1)
    // Plain text: the markup is shown as typed, never drawn.
    expect(await mine.locator('b').count()).toBe(0)

    // The operator's desk: the conversation in the queue, taken and answered.
    const operator = await portal.signIn('opcs')
    const desk = operator.page
    await desk.goto(`${operator.base}/im?fromB2B=1&language=en`)
    const entry = desk.getByRole('button', { name: new RegExp(orderNo) })
    await expect.poll(() => entry.count(), WAIT).toBeGreaterThan(0)
    await entry.first().click()
    await expect.poll(() => desk.locator('li[data-side="1"]', { hasText: question }).count(), WAIT).toBe(1)
    await desk.getByRole('button', { name: en('chat', 'take'), exact: true }).click()
    await expect
      .poll(
        () =>
          desk
            .getByRole('button', { name: new RegExp(orderNo) })
            .first()
            .textContent(),
        WAIT,
      )
      .toContain(en('chat', 'state_assigned'))
    // Named by the enterprise's chat name, never the user name.
    const row = await desk
      .getByRole('button', { name: new RegExp(orderNo) })
      .first()
      .textContent()
    expect(row).toContain('杭州明辉纺织品进出口有限公司')
    expect(row).not.toContain('entadmin')
    // The desk's tags, read only (opcs administers none): tag the conversation, and filter the queue by it.
    const addTag = desk.getByRole('combobox', { name: en('chat', 'addTag') })
    await expect.poll(() => addTag.locator('option', { hasText: 'VIP' }).count(), WAIT).toBe(1)
    await addTag.selectOption({ label: 'VIP' })
    const chip = desk.getByRole('button', { name: en('chat', 'removeTag').replace('{{name}}', 'VIP') })
    await expect.poll(() => chip.count(), WAIT).toBe(1)
    const byTag = desk.getByRole('combobox', { name: en('chat', 'tags') })
    await byTag.selectOption({ label: '冷链' })
    await expect.poll(() => desk.getByRole('button', { name: new RegExp(orderNo) }).count(), WAIT).toBe(0)
    await byTag.selectOption({ label: 'VIP' })
    await expect.poll(() => desk.getByRole('button', { name: new RegExp(orderNo) }).count(), WAIT).toBeGreaterThan(0)
    await byTag.selectOption({ value: '' })

    const answer = `${orderNo} sails on Friday; cut-off Wednesday 12:00.`
    const reply = desk.getByRole('textbox', { name: en('chat', 'text') })
    await reply.fill(answer)
    await desk.getByRole('button', { name: en('chat', 'send'), exact: true }).click()

    // The customer's tab, never reloaded: the answer arrives, and their question is marked read.
    await expect.poll(() => chat.locator('li[data-side="2"]', { hasText: answer }).count(), WAIT).toBe(1)
    await expect.poll(() => desk.locator('li[data-side="2"] [data-mark="read"]').count(), WAIT).toBeGreaterThan(0)

    // With the chat tab closed, a second answer shows on the order page's top-bar badge, live; opening the
    // order's chat again reads it, and the badge clears.
    await chat.close()
    await reply.fill('Anything else?')
    await reply.press('Enter')
    const badge = page.getByTestId('im-unread')
    await expect.poll(() => badge.textContent().catch(() => null), WAIT).toBe('1')
    const [again] = await Promise.all([
      customer.context.waitForEvent('page', WAIT),
      page.getByRole('button', { name: en('chat', 'ask'), exact: true }).click(),
    ])
    await expect.poll(() => again.locator('li[data-side="2"]', { hasText: 'Anything else?' }).count(), WAIT).toBe(1)
    await expect.poll(() => badge.count(), WAIT).toBe(0)
    await operator.context.close()
    await customer.context.close()
  })

  it('a customer sends a PDF; the operator, already in the conversation, gets its link live and the same bytes', async () => {
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n')
    const customer = await portal.signIn('entadmin')
    const opened = await customer.page.request.post(`${customer.base}/api/b2b/im/open`, {
      headers: { resource: '1' },
      data: { contextType: 'order', contextRef: 'HY-E2E-ATTACH' },
    })
    const { cacheKey } = (await opened.json()).content
    const operator = await portal.signIn('opcs', { acceptDownloads: true })
    const desk = operator.page
    await desk.goto(`${operator.base}/im?fromB2B=1&language=en`)
    const entry = desk.getByRole('button', { name: /HY-E2E-ATTACH/ })
    await expect.poll(() => entry.count(), WAIT).toBeGreaterThan(0)
    await entry.first().click()
    await expect.poll(() => desk.getByRole('textbox', { name: en('chat', 'text') }).count(), WAIT).toBe(1)

    const chat = customer.page
    await chat.goto(`${customer.base}/im?cacheKey=${cacheKey}&fromB2B=1&language=en`)
    await chat.getByTestId('chat-attach-input').setInputFiles({
      name: 'customs invoice.pdf',
      mimeType: 'application/pdf',
      buffer: pdf,
    })
    await expect.poll(() => chat.getByTestId('chat-picked').textContent(), WAIT).toContain('customs invoice.pdf')
    await chat.getByRole('button', { name: en('chat', 'send'), exact: true }).click()
    await expect
      .poll(() => chat.locator('li[data-side="1"] a', { hasText: 'customs invoice.pdf' }).count(), WAIT)
      .toBe(1)
    expect(await chat.getByTestId('chat-picked').count()).toBe(0)

    // The desk, never reloaded, draws it from the socket.
    const link = desk.locator('li[data-side="1"] a', { hasText: 'customs invoice.pdf' })
    await expect.poll(() => link.count(), WAIT).toBe(1)
    const [download] = await Promise.all([desk.waitForEvent('download', WAIT), link.click()])
    expect(download.suggestedFilename()).toBe('customs invoice.pdf')
    expect(Buffer.compare(await downloaded(download), pdf)).toBe(0)
    await operator.context.close()
    await customer.context.close()
  })
})
