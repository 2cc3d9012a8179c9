import type { BrowserContext, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { openContext } from '../support/browser.ts'
import { inDays } from '../support/clock.ts'
import { codeSentTo } from '../support/codes.ts'
import { localeText, setupPortal, WAIT } from '../support/portal.ts'

/**
 * Issue #21's acceptance as one new user's journey in Chromium, on the pages alone: a visitor registers,
 * certifies an enterprise with a PDF certificate, is rejected with a remark, corrects and is approved, invites
 * a colleague who registers with the code, and approves a personal user's request to join; the operator copies
 * a preset role, unticks the order export in its tree, narrows it to the user's own data and assigns it to the
 * colleague, who then has no export, in the portal or on the server. Each step's finer cases are in the files
 * of its own (auth-pages, enterprise-certification, membership, roles).
 */

const portal = setupPortal()
const en = (namespace: string, key: string) => localeText('en', namespace, key)
const escaped = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
/** A field by its whole label, a required one's star after it or not. */
const field = (page: Page, namespace: string, key: string) =>
  page.getByLabel(new RegExp(`^${escaped(en(namespace, key))}\\s*\\*?$`))
const button = (page: Page, namespace: string, key: string) =>
  page.getByRole('button', { name: en(namespace, key), exact: true })
const headerState = (page: Page) => page.locator('h1 ~ [data-state]')
const rowOf = (page: Page, text: string) => page.locator('table tbody tr').filter({ hasText: text })

const COMPANY = '宁波北仑远航国际物流有限公司'
const COMPANY_EN = 'Ningbo Beilun Yuanhang International Logistics Co Ltd'
const LICENCE = Buffer.from(
  '%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n' +
    'trailer\n<< /Root 1 0 R >>\n%%EOF\n',
)

async function englishVisitor(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await openContext(portal.browser, { viewport: { width: 1440, height: 900 } })
  await context.addCookies([{ name: 'language', value: 'en', url: portal.server.url }])
  return { context, page: await context.newPage() }
}

/** /register as a visitor fills it in, the invitation code (if any) carried by the link. */
async function register(page: Page, who: { username: string; mobile: string; name: string }, inviteCode?: string) {
  await page.goto(`${portal.server.url}/register${inviteCode ? `?inviteCode=${inviteCode}` : ''}`)
  await expect.poll(() => field(page, 'field', 'username').count(), WAIT).toBe(1)
  if (inviteCode) expect(await field(page, 'field', 'inviteCode').inputValue()).toBe(inviteCode)
  await field(page, 'field', 'username').fill(who.username)
  await field(page, 'field', 'password').fill('Harbour#2026')
  await field(page, 'field', 'confirmPassword').fill('Harbour#2026')
  await field(page, 'field', 'mobile').fill(who.mobile)
  await page.getByTestId('send-code').click()
  await field(page, 'field', 'verificationCode').fill(await codeSentTo(portal.server.database.db, who.mobile))
  await field(page, 'field', 'realName').fill(who.name)
  await page.getByRole('checkbox', { name: en('field', 'agreement') }).check()
  await button(page, 'ui', 'registerSubmit').click()
  await page.waitForURL((url) => url.pathname !== '/register', WAIT)
  await expect.poll(() => page.getByRole('button', { name: en('ui', 'profileMenu') }).count(), WAIT).toBe(1)
}

async function confirmDialog(page: Page) {
  const dialog = page.getByRole('dialog')
  await expect.poll(() => dialog.count(), WAIT).toBe(1)
  await dialog.getByRole('button', { name: en('ui', 'ok'), exact: true }).click()
  await expect.poll(() => page.getByRole('dialog').count(), WAIT).toBe(0)
}

async function fetchJson(page: Page, path: string, body: object) {
  return page.evaluate(
    async ({ path, body }) => {
      const response = await fetch(`/api${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', resource: '1', language: 'en_US' },
        body: JSON.stringify(body),
      })
      return { status: response.status, body: (await response.json()) as { code: string; content: unknown } }
    },
    { path, body },
  )
}

describe('issue #21 as one journey', () => {
  it('registers, certifies, invites, admits, and narrows the colleague’s role until the export is gone', async () => {
    // 1. A visitor registers and is signed in as a personal user.
    const founder = await englishVisitor()
    const page = founder.page
    await register(page, { username: 'yuanhang2026', mobile: '13857400021', name: '周远航' })

    // 2. Certification with a PDF licence, saved and submitted.
    await page.goto(`${portal.server.url}/enterpriseApply`)
    await expect.poll(() => field(page, 'field', 'companyName').count(), WAIT).toBe(1)
    await field(page, 'field', 'companyName').fill(COMPANY)
    await field(page, 'field', 'companyNameEn').fill(COMPANY_EN)
    await field(page, 'field', 'enterpriseType').selectOption({ label: en('enum', 'enterpriseType.1') })
    await field(page, 'field', 'registeredCapital').fill('500')
    await field(page, 'field', 'foundingDate').fill('2015-03-18')
    await field(page, 'field', 'corporateName').fill('周远航')
    await field(page, 'field', 'certificateType').selectOption({ label: en('enum', 'certificateType.1') })
    await field(page, 'field', 'certificateNo').fill('91330206MA2H4K7Y3C')
    await field(page, 'field', 'businessStartDate').fill('2015-03-18')
    await field(page, 'field', 'businessEndDate').fill('2045-03-17')
    await field(page, 'field', 'contactName').fill('周远航')
    await field(page, 'field', 'contactMobile').fill('13857400021')
    await field(page, 'field', 'contactEmail').fill('zhou@yuanhang-logistics.example')
    await field(page, 'field', 'companyAddress').fill('浙江省宁波市北仑区新碶街道明州路 188 号')
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: 'licence.pdf', mimeType: 'application/pdf', buffer: LICENCE })
    await expect.poll(() => page.getByText('licence.pdf').count(), WAIT).toBeGreaterThan(0)
    await button(page, 'ui', 'save').click()
    await expect.poll(() => headerState(page).getAttribute('data-state'), WAIT).toBe('draft')
    await button(page, 'action', 'submitForReview').click()
    await confirmDialog(page)
    await expect.poll(() => headerState(page).getAttribute('data-state'), WAIT).toBe('pending')

    // 3. The operator rejects it with a remark; the applicant reads it, corrects, submits; the operator approves.
    const operator = await portal.signIn('opadmin')
    const desk = operator.page
    await desk.goto(`${operator.base}/clientEnterpriseList?lang=en&status=pending`)
    const application = rowOf(desk, COMPANY)
    await expect.poll(() => application.count(), WAIT).toBe(1)
    await application.getByRole('button', { name: en('action', 'review'), exact: true }).click()
    await desk.waitForURL(/\/clientEnterpriseAudit\?id=\d+$/, WAIT)
    await button(desk, 'action', 'reject').click()
    const remark = 'The licence number does not match the scan: upload the current licence'
    await desk.getByRole('dialog').getByLabel(en('field', 'reviewRemark')).fill(remark)
    await desk
      .getByRole('dialog')
      .getByRole('button', { name: en('action', 'reject'), exact: true })
      .click()
    await expect.poll(() => headerState(desk).getAttribute('data-state'), WAIT).toBe('rejected')

    await page.goto(`${portal.server.url}/enterpriseInfo`)
    await expect.poll(() => page.getByText(remark).count(), WAIT).toBeGreaterThan(0)
    await button(page, 'action', 'editApplication').click()
    await page.waitForURL(/\/enterpriseApply\?id=\d+$/, WAIT)
    await expect.poll(() => field(page, 'field', 'certificateNo').inputValue(), WAIT).toBe('91330206MA2H4K7Y3C')
    await field(page, 'field', 'certificateNo').fill('91330206MA2H4K7Y3D')
    await button(page, 'action', 'submitForReview').click()
    await confirmDialog(page)
    await expect.poll(() => headerState(page).getAttribute('data-state'), WAIT).toBe('pending')

    await desk.goto(`${desk.url()}&lang=en`)
    await expect.poll(() => headerState(desk).getAttribute('data-state'), WAIT).toBe('pending')
    await button(desk, 'action', 'approve').click()
    await confirmDialog(desk)
    await expect.poll(() => headerState(desk).getAttribute('data-state'), WAIT).toBe('approved')

    // 4. Now the enterprise's administrator: it issues an invite code, and a colleague registers with its link.
    await page.goto(`${portal.server.url}/myEnterprise`)
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), WAIT).toBe(COMPANY)
    await page.goto(`${portal.server.url}/enterpriseInvite`)
    await button(page, 'membership', 'newInvite').click()
    const issue = page.getByRole('dialog')
    await issue.getByLabel(en('membership', 'validUntil')).fill(inDays(14))
    await issue.getByLabel(en('membership', 'maxUses')).fill('2')
    await issue.getByRole('button', { name: en('ui', 'save'), exact: true }).click()
    await expect.poll(() => page.getByRole('dialog').count(), WAIT).toBe(0)
    const issued = page.locator('table tbody tr').first()
    await expect.poll(() => issued.textContent(), WAIT).toContain('/register?inviteCode=')
    const cells = (await issued.locator('td').allTextContents()).map((cell) => cell.trim())
    const inviteCode = cells.find((cell) => /^[A-Z0-9]{10}$/.test(cell)) as string
    expect(inviteCode).toMatch(/^[A-Z0-9]{10}$/)

    const colleague = await englishVisitor()
    await register(colleague.page, { username: 'lixiaomei26', mobile: '13857400022', name: '李晓梅' }, inviteCode)
    await colleague.page.goto(`${portal.server.url}/workAccounts`)
    const account = colleague.page.locator('table tbody tr').first()
    // In English the enterprise reads by its English name.
    await expect.poll(() => account.textContent(), WAIT).toContain(COMPANY_EN)

    // 5. The seeded personal user asks to join by the enterprise's name; the administrator approves.
    const personal = await portal.signIn('personal')
    await personal.page.goto(`${personal.base}/joinEnterprise?lang=en`)
    await button(personal.page, 'membership', 'askToJoin').click()
    const ask = personal.page.getByRole('dialog')
    await ask.getByLabel(en('membership', 'enterpriseCodeOrName')).fill(COMPANY)
    await ask.getByLabel(en('membership', 'joinMessage')).fill('仓库部王磊，申请加入')
    await ask.getByRole('button', { name: en('ui', 'save'), exact: true }).click()
    await expect.poll(() => personal.page.getByRole('dialog').count(), WAIT).toBe(0)
    await page.goto(`${portal.server.url}/joinRequestReview`)
    const request = rowOf(page, '仓库部王磊')
    await expect.poll(() => request.count(), WAIT).toBe(1)
    await request.getByRole('button', { name: en('membership', 'approve'), exact: true }).click()
    await confirmDialog(page)
    await expect.poll(() => request.textContent(), WAIT).toContain(en('membership', 'requestApproved'))

    // 6. The colleague may export their enterprise's orders, as the preset role allows.
    await colleague.page.goto(`${portal.server.url}/myOrders`)
    await expect.poll(() => button(colleague.page, 'ui', 'export').count(), WAIT).toBe(1)

    // 7. The operator copies the preset role, unticks the export, narrows the scope, assigns it to the colleague.
    await desk.goto(`${operator.base}/operationAuth?lang=en`)
    await rowOf(desk, 'EnterpriseOperation')
      .first()
      .getByRole('button', { name: en('action', 'copy'), exact: true })
      .click()
    // The preset role bears the demo tenant's name for it (Chinese); the copy's suffix is the reader's.
    const copyName = `${localeText('zh', 'role', 'EnterpriseOperation')} (copy)`
    const copy = rowOf(desk, copyName)
    await expect.poll(() => copy.count(), WAIT).toBe(1)
    await copy.getByRole('link', { name: copyName }).click()
    const tree = desk.getByRole('tree')
    await expect.poll(() => tree.count(), WAIT).toBe(1)
    await tree.getByRole('treeitem', { name: en('area', 'customerOrders'), exact: true }).click()
    await tree.getByRole('treeitem', { name: en('route', 'myOrders'), exact: true }).click()
    const exportItem = tree.getByRole('treeitem', { name: en('ui', 'export'), exact: true })
    await exportItem.getByRole('checkbox').click()
    await expect.poll(() => exportItem.getAttribute('aria-checked'), WAIT).toBe('false')
    await desk.getByLabel(en('field', 'dataScope')).selectOption({ label: en('enum', 'scopeSelf') })
    await button(desk, 'ui', 'save').click()
    await expect.poll(() => desk.getByText(en('ui', 'saved')).count(), WAIT).toBeGreaterThan(0)
    await desk.goto(`${operator.base}/operationAuth?lang=en`)
    await rowOf(desk, copyName)
      .getByRole('button', { name: en('action', 'assignUsers'), exact: true })
      .click()
    await desk.getByRole('dialog').getByLabel(en('field', 'assignAccount')).fill('lixiaomei26')
    await desk
      .getByRole('dialog')
      .getByRole('button', { name: en('ui', 'ok'), exact: true })
      .click()
    await expect.poll(() => desk.getByRole('dialog').count(), WAIT).toBe(0)

    // 8. The colleague's next page: no export, and the server refuses it as well.
    await colleague.page.goto(`${portal.server.url}/myOrders`)
    await expect.poll(() => colleague.page.getByRole('heading', { level: 1 }).count(), WAIT).toBe(1)
    await expect.poll(() => button(colleague.page, 'ui', 'export').count(), WAIT).toBe(0)
    const refused = await fetchJson(colleague.page, '/booking/order/exportOrderListByCompany', {})
    expect(refused).toMatchObject({ status: 403, body: { code: '220000' } })

    for (const context of [founder.context, colleague.context, operator.context, personal.context])
      await context.close()
  })
})
