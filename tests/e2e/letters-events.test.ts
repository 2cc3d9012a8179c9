import { rmSync } from 'node:fs'
import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { connectBrowser } from '../support/browser.ts'
import { localeText, signInThrough, WAIT } from '../support/portal.ts'
import { type RunningServer, seededDataDir, startServer } from '../support/server.ts'
import { startSmtp, type TestSmtp } from '../support/smtp.ts'

/**
 * Issue #22's acceptance, point 1, as a new user would live it: acme's customer reads Waybill in English and keeps
 * mail on for "order confirmed" in /letterManage; acme's operator confirms the customer's order in the browser;
 * the customer's bell shows the letter, which opens the order; and the SMTP server the server was started with
 * receives the mail in English with acme's branding. The server runs as `npm start` does (its own process, its
 * outbox worker, SMTP_URL), the SMTP server in this test's process.
 */

const en = (namespace: string, key: string) => localeText('en', namespace, key)
const HOST = 'acme.localhost'

let smtp: TestSmtp
let server: RunningServer
let browser: Browser
let dataDir = ''

beforeAll(async () => {
  smtp = await startSmtp()
  const [started, connected] = await Promise.allSettled([
    // Its own process on a copy of the seeded data (seededDataDir): the start-up, not the seeding, is what is tried.
    seededDataDir().then((dir) => {
      dataDir = dir
      return startServer({ dataDir, env: { SMTP_URL: smtp.url } })
    }),
    connectBrowser(inject('chromiumEndpoint')),
  ])
  if (started.status === 'fulfilled') server = started.value
  if (connected.status === 'fulfilled') browser = connected.value
  for (const outcome of [started, connected]) if (outcome.status === 'rejected') throw outcome.reason
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await smtp?.close()
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
})

/** A context signed in as a demo user of acme, through the browser (the cookie is acme's host's). */
async function signIn(username: string): Promise<{ page: Page; base: string; close: () => Promise<void> }> {
  const { context, page, base } = await signInThrough(browser, server.url.replace('localhost', HOST), username)
  return { page, base, close: () => context.close() }
}

const button = (within: Page | Locator, label: string) => within.getByRole('button', { name: label, exact: true })

describe('an order confirmed, told to its customer (issue #22 acceptance)', () => {
  it('shows the letter in the bell, opens the order from it, and mails the customer in English with acme’s branding', async () => {
    // The customer reads English: their profile says so (the letters and mails follow it, not the page).
    const customer = await signIn('entadmin')
    await customer.page.goto(`${customer.base}/personalInfo?lang=en`)
    // The form's field, not the top bar's language menu.
    const language = customer.page.getByRole('combobox', { name: en('field', 'language'), exact: true })
    await expect.poll(() => language.count(), WAIT).toBe(1)
    await language.selectOption({ label: en('enum', 'language.en') })
    await button(customer.page, en('ui', 'save')).click()
    await expect
      .poll(() => customer.page.getByText(en('ui', 'saved'), { exact: true }).count(), WAIT)
      .toBeGreaterThan(0)

    // Receiving settings: mail for "order confirmed", chosen by the customer (off, then on again: theirs now).
    await customer.page.goto(`${customer.base}/letterManage?lang=en`)
    const confirmed = customer.page.locator('table tbody tr', { hasText: en('letter', 'event_orderAccepted') })
    await expect.poll(() => confirmed.count(), WAIT).toBe(1)
    await button(confirmed, en('letter', 'mailOff')).click()
    await expect.poll(() => button(confirmed, en('letter', 'mailOn')).count(), WAIT).toBe(1)
    await button(confirmed, en('letter', 'mailOn')).click()
    await expect.poll(() => button(confirmed, en('letter', 'mailOff')).count(), WAIT).toBe(1)

    // The operator confirms the customer's submitted order on its detail.
    const operator = await signIn('opadmin')
    await operator.page.goto(`${operator.base}/orderList?state=submitted&lang=en`)
    const link = operator.page.locator('table tbody tr td:first-child a').first()
    await expect.poll(() => link.count(), WAIT).toBe(1)
    const orderNo = ((await link.textContent()) ?? '').trim()
    expect(orderNo).toMatch(/^AC\d+$/)
    await link.click()
    await operator.page.waitForURL(/\?id=\d+$/, WAIT)
    const orderId = new URL(operator.page.url()).searchParams.get('id')
    // The order as it is, loaded, before the operator acts on it.
    const state = operator.page.locator('h1 ~ [data-state]')
    await expect.poll(() => operator.page.getByRole('heading', { level: 1 }).textContent(), WAIT).toBe(orderNo)
    await expect.poll(() => state.getAttribute('data-state'), WAIT).toBe('submitted')
    await button(operator.page, en('action', 'accept')).click()
    await operator.page
      .getByRole('dialog')
      .getByRole('button', { name: en('ui', 'ok'), exact: true })
      .click()
    await expect.poll(() => state.getAttribute('data-state'), WAIT).toBe('accepted')
    await operator.close()

    // The customer's bell: the letter in their language; opening it reads it and goes to the order.
    const title = en('letter', 'orderAccepted_title').replace('{{no}}', orderNo)
    await customer.page.goto(`${customer.base}/letterList?lang=en`)
    const bell = customer.page.getByRole('button', { name: new RegExp(`^${en('ui', 'notifications')}`) })
    await expect.poll(() => bell.count(), WAIT).toBe(1)
    await bell.click()
    const letter = customer.page.getByRole('dialog').getByRole('button', { name: new RegExp(title) })
    await expect.poll(() => letter.count(), WAIT).toBe(1)
    await letter.click()
    const opened = new RegExp(`/(orderDetails|lclOrderDetail|airOrderDetail|railwayOrderDetail)\\?id=${orderId}$`)
    await customer.page.waitForURL(opened, WAIT)
    await expect.poll(() => customer.page.getByRole('heading', { level: 1 }).textContent(), WAIT).toBe(orderNo)
    // On /letterList the letter, read now, opens the order the same way.
    await customer.page.goto(`${customer.base}/letterList?lang=en`)
    const row = customer.page.locator('table tbody tr', { hasText: title })
    await expect.poll(() => row.textContent(), WAIT).toContain(en('letter', 'status_read'))
    await button(row, en('letter', 'open')).click()
    await customer.page.waitForURL(opened, WAIT)
    await customer.close()

    // The mail, as the SMTP server received it from the outbox worker: one, in English, acme's.
    await expect.poll(() => smtp.received.filter((mail) => mail.subject === title).length, { timeout: 60_000 }).toBe(1)
    const mail = smtp.received.find((m) => m.subject === title)
    expect(mail?.to).toContain('entadmin@acme.example')
    expect(mail?.messageId).toMatch(/^<outbox-\d+@[^>]+>$/)
    const content = en('letter', 'orderAccepted_content').replace('{{no}}', orderNo).split('<br>')[0] as string
    expect(mail?.text).toContain(content)
    expect(mail?.text).toContain(`?id=${orderId}`)
    expect(mail?.html).toContain('<html lang="en">')
    expect(mail?.html).toContain('Acme Logistics')
    expect(mail?.html).not.toContain('艾克美物流')
    expect(mail?.html).toContain('#0f7b6c')
    expect(mail?.html).toMatch(/<img src="[^"]+" alt="Acme Logistics"/)
  })
})
