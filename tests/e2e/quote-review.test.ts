import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { outboxBody } from '../../server/jobs/sealed.ts'
import { openContext } from '../support/browser.ts'
import { inDays } from '../support/clock.ts'
import { apiCall, apiContent, confirmDialog } from '../support/commercial.ts'
import { seaInquiry } from '../support/fixtures.ts'
import { localeText, setupPortal, signInCode, WAIT } from '../support/portal.ts'

/**
 * Issue #25's quote review and display modes in the browser: with the site's review on and quotes shown by major
 * category, a second operations administrator writes and submits a quote; the reviewer (opadmin) finds it in the
 * review queue, turns it back with a reason in the editor, then approves it once resubmitted; sent, the customer
 * compares it and sees one sum per category, no line.
 */

const portal = setupPortal()
const zh = (namespace: string, key: string) => localeText('zh', namespace, key)

const LINES = [
  {
    chargeType: 'freight',
    name: 'Ocean freight 40HQ',
    quantity: 2,
    unit: 'container',
    unitPrice: '1850.50',
    currency: 'USD',
  },
  {
    chargeType: 'freight',
    name: 'Bunker surcharge',
    quantity: 2,
    unit: 'container',
    unitPrice: '120',
    currency: 'USD',
  },
  {
    chargeType: 'origin',
    name: 'Terminal handling',
    quantity: 2,
    unit: 'container',
    unitPrice: '850',
    currency: 'CNY',
  },
]

describe('quote review by a second operator (browser)', () => {
  it('submitted, turned back with a reason, approved from the queue; the customer sees category sums', async () => {
    const reviewer = await portal.signIn('opadmin')
    const page = reviewer.page
    // The administrator turns the review on and shows quotes by major category (the /operationSet calls).
    const settings = await apiContent(page, 'POST', '/b2b/site/settings/list', { pageNum: 1, pageSize: 1 })
    const record = (settings.list as Record<string, unknown>[])[0]
    await apiContent(page, 'POST', '/b2b/site/settings/save', {
      ...record,
      quoteReview: true,
      quoteDisplayItems: 'category',
    })
    // A second operations administrator, invited by mail.
    const { rows } = await sql<{ id: number }>`
      select r.id from role r join tenant t on t.id = r.tenant_id
      where t.code = 'demo' and r.code = 'OperationAdministrator'`.execute(portal.server.database.db)
    await apiContent(page, 'POST', '/b2b/user/operationAccount/add', {
      username: 'opquote',
      realName: 'Zhou Jie',
      email: 'zhou.jie@demo.example',
      mobile: '13900007781',
      companyAppRoleId: rows[0]?.id,
      isUsed: true,
    })
    const mail = await sql<{ kind: string; payload: unknown }>`
      select kind, payload from outbox where kind = 'mail' and payload->>'to' = 'zhou.jie@demo.example'`.execute(
      portal.server.database.db,
    )
    const letter = outboxBody(mail.rows[0]?.kind ?? 'mail', mail.rows[0]?.payload)
    const password = /(?:初始密码：|initial password: )(\S{12})/.exec(letter.text)?.[1] ?? ''
    const writerContext = await openContext(portal.browser, { viewport: { width: 1440, height: 900 } })
    const writer = await writerContext.newPage()
    await writer.goto(`${reviewer.base}/404`)
    expect(await signInCode(writer, 'opquote', password)).toBe('0000')

    const customer = await portal.signIn('entadmin')
    const inquiry = await apiContent(
      customer.page,
      'POST',
      '/booking/inquiry/save',
      seaInquiry({ destination: 'BRSSZ' }),
    )
    const draft = await apiContent(writer, 'POST', '/b2b/quote/add', {
      inquiry: inquiry.id,
      transportMode: 1,
      clientType: 'formal',
      contactName: 'Zhou Jie',
      validUntil: inDays(14),
      currency: 'USD',
      charges: LINES,
      carrier: 'COSU',
      transitDays: 18,
      lowFeeConfirmed: true,
    })
    // Sending it unreviewed is refused; submitted, it waits in the queue.
    expect(
      (await apiCall(writer, 'POST', '/quote/transition', { id: draft.id, version: draft.version, transition: 'send' }))
        .code,
    ).toBe('320004')
    await apiContent(writer, 'POST', '/quote/transition', {
      id: draft.id,
      version: draft.version,
      transition: 'submit',
    })

    await page.goto(`${reviewer.base}/quoteReviewList`)
    const row = page.locator('table tbody tr').filter({ hasText: String(draft.quoteNo) })
    await row.waitFor(WAIT)
    await row.getByRole('link', { name: String(draft.quoteNo) }).click()
    await page.getByTestId('quote-editor').waitFor(WAIT)
    await expect.poll(() => page.getByTestId('quote-editor').getAttribute('data-state'), WAIT).toBe('submitted')
    expect(await page.getByTestId('quote-send').count()).toBe(0)

    // Turned back with a reason, which the review log shows beside the reviewer's name.
    await page.getByTestId('quote-decline-review').click()
    const dialog = page.getByTestId('transition-input')
    await dialog.waitFor(WAIT)
    await dialog.locator('#root_remark').fill('Origin charges are missing the documentation fee')
    await dialog.getByRole('button', { name: zh('action', 'declineQuote') }).click()
    await expect.poll(() => page.getByTestId('quote-editor').getAttribute('data-state'), WAIT).toBe('rejected')
    const log = page.getByTestId('quote-review-log')
    await expect.poll(() => log.textContent(), WAIT).toContain('Origin charges are missing the documentation fee')
    expect(await log.textContent()).toContain('Li Wei')

    // The writer submits it again; the reviewer approves it in the editor and the writer sends it.
    const turnedBack = await apiContent(writer, 'GET', `/b2b/quote/getItem?id=${draft.id}`)
    await apiContent(writer, 'POST', '/quote/transition', {
      id: draft.id,
      version: turnedBack.version,
      transition: 'submit',
    })
    await page.reload()
    await expect.poll(() => page.getByTestId('quote-editor').getAttribute('data-state'), WAIT).toBe('submitted')
    await page.getByTestId('quote-approve').click()
    await confirmDialog(page, zh('action', 'approveQuote'))
    await expect.poll(() => page.getByTestId('quote-editor').getAttribute('data-state'), WAIT).toBe('approved')
    const approved = await apiContent(writer, 'GET', `/b2b/quote/getItem?id=${draft.id}`)
    await apiContent(writer, 'POST', '/quote/transition', {
      id: draft.id,
      version: approved.version,
      transition: 'send',
    })

    // The customer compares it by category: freight 2 × 1850.50 + 2 × 120 USD, origin 1700 CNY; no line's name.
    await customer.page.goto(`${customer.base}/inquiryQuotes?id=${inquiry.id}`)
    const card = customer.page.getByTestId('quote-card').filter({ hasText: String(draft.quoteNo) })
    await card.waitFor(WAIT)
    await expect.poll(() => card.getByTestId('quote-category').count(), WAIT).toBe(2)
    const text = (await card.textContent()) ?? ''
    expect(text).toContain('3,941.00')
    expect(text).toContain('1,700.00')
    expect(text).not.toContain('Bunker surcharge')
    await writerContext.close()
  })
})
