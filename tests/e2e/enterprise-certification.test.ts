import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { localeText, setupPortal, WAIT } from '../support/portal.ts'

/**
 * Enterprise certification in Chromium, as its users do it (issue #21): the seeded personal user applies
 * with a PDF licence, the operator rejects with a remark, the applicant reads it, corrects and submits
 * again, the operator approves, and the applicant — now the enterprise's administrator — sees /myEnterprise.
 */

const portal = setupPortal()
const en = (namespace: string, key: string) => localeText('en', namespace, key)
const SHOTS = process.env.WAYBILL_SHOTS

/** A small but real PDF: the server reads the type from its bytes. */
const LICENCE = Buffer.from(
  '%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n' +
    'trailer\n<< /Root 1 0 R >>\n%%EOF\n',
)

/** A form field by its label, a required one's star after it or not. */
const field = (page: Page, key: string) =>
  page.getByLabel(new RegExp(`^${en('field', key).replace(/[()]/g, '\\$&')}\\s*\\*?$`))
const button = (page: Page, namespace: string, key: string) =>
  page.getByRole('button', { name: en(namespace, key), exact: true })
const headerState = (page: Page) => page.locator('h1 ~ [data-state]')

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true })
}

/** Confirms the dialog the action opened. */
async function confirm(page: Page) {
  const dialog = page.getByRole('dialog')
  await expect.poll(() => dialog.count(), WAIT).toBe(1)
  await dialog.getByRole('button', { name: en('ui', 'ok'), exact: true }).click()
  await expect.poll(() => page.getByRole('dialog').count(), WAIT).toBe(0)
}

describe('enterprise certification', () => {
  it('applies with a PDF licence, is rejected with a remark, corrects and is approved, then sees its enterprise', async () => {
    const applicant = await portal.signIn('personal')
    const page = applicant.page
    await page.goto(`${applicant.base}/enterpriseApply?lang=en`)
    await expect.poll(() => field(page, 'companyName').count(), WAIT).toBe(1)

    await field(page, 'companyName').fill('苏州工业园区瑞丰精密机械有限公司')
    // The English name takes letters, digits and spaces only: the form says so before anything is sent.
    await field(page, 'companyNameEn').fill('Suzhou Ruifeng Co., Ltd.')
    await field(page, 'enterpriseType').selectOption({ label: en('enum', 'enterpriseType.1') })
    await field(page, 'registeredCapital').fill('300')
    await field(page, 'foundingDate').fill('2017-06-08')
    await field(page, 'corporateName').fill('沈瑞丰')
    await field(page, 'certificateType').selectOption({ label: en('enum', 'certificateType.1') })
    await field(page, 'certificateNo').fill('91320594MA1MXK3L2T')
    await field(page, 'businessStartDate').fill('2017-06-08')
    await field(page, 'businessEndDate').fill('2047-06-07')
    await field(page, 'contactName').fill('刘洋')
    await field(page, 'contactMobile').fill('13912345670')
    await field(page, 'contactEmail').fill('liuyang@ruifeng-machinery.example')
    await field(page, 'companyAddress').fill('江苏省苏州市工业园区星湖街 328 号创意产业园 12 幢')
    const upload = page.locator('input[type="file"]')
    expect(await upload.getAttribute('accept')).toBe('.pdf,.png,.jpg,.jpeg')
    await upload.setInputFiles({ name: 'business-licence.pdf', mimeType: 'application/pdf', buffer: LICENCE })
    await expect.poll(() => page.getByText('business-licence.pdf').count(), WAIT).toBeGreaterThan(0)

    // Saved as a draft: refused first for the English name, then stored.
    await button(page, 'ui', 'save').click()
    await expect.poll(() => page.getByText(en('rule', 'englishName')).count(), WAIT).toBeGreaterThan(0)
    await field(page, 'companyNameEn').fill('Suzhou Ruifeng Precision Machinery Co Ltd')
    await button(page, 'ui', 'save').click()
    await expect.poll(() => headerState(page).getAttribute('data-state'), WAIT).toBe('draft')
    await shot(page, '1-draft')

    // Submitted for review: the form shows it under review and no longer offers to change it.
    await button(page, 'action', 'submitForReview').click()
    await confirm(page)
    await expect.poll(() => headerState(page).getAttribute('data-state'), WAIT).toBe('pending')
    await expect.poll(() => button(page, 'ui', 'save').count(), WAIT).toBe(0)

    // The operator finds it among the applications under review and rejects it, first without a remark.
    const reviewer = await portal.signIn('opadmin')
    const desk = reviewer.page
    await desk.goto(`${reviewer.base}/clientEnterpriseList?lang=en&status=pending`)
    const row = desk.locator('table tbody tr', { hasText: '苏州工业园区瑞丰精密机械有限公司' })
    await expect.poll(() => row.count(), WAIT).toBe(1)
    await shot(desk, '2-review-list')
    await row.getByRole('button', { name: en('action', 'review'), exact: true }).click()
    await desk.waitForURL(/\/clientEnterpriseAudit\?id=\d+$/, WAIT)
    await expect.poll(() => headerState(desk).getAttribute('data-state'), WAIT).toBe('pending')
    await shot(desk, '2b-audit')
    // The certificate downloads from its link.
    const licenceLink = desk.getByRole('link', { name: /business-licence\.pdf/ })
    await expect.poll(() => licenceLink.count(), WAIT).toBe(1)
    const served = await desk.evaluate(
      async (href) => {
        const response = await fetch(href)
        return { status: response.status, head: (await response.text()).slice(0, 8) }
      },
      (await licenceLink.getAttribute('href')) ?? '',
    )
    expect(served).toEqual({ status: 200, head: '%PDF-1.4' })

    await button(desk, 'action', 'reject').click()
    const dialog = desk.getByRole('dialog')
    await expect.poll(() => dialog.getByText(en('confirm', 'rejectCertification')).count(), WAIT).toBe(1)
    await dialog.getByRole('button', { name: en('action', 'reject'), exact: true }).click()
    await expect.poll(() => dialog.getByText('Required').count(), WAIT).toBeGreaterThan(0)
    const remark = 'The business licence scan is blurred: upload a clear colour scan'
    await dialog.getByLabel(en('field', 'reviewRemark')).fill(remark)
    await shot(desk, '3-reject-dialog')
    await dialog.getByRole('button', { name: en('action', 'reject'), exact: true }).click()
    await expect.poll(() => headerState(desk).getAttribute('data-state'), WAIT).toBe('rejected')

    // The applicant reads the remark on /enterpriseInfo, corrects the application and submits it again.
    await page.goto(`${applicant.base}/enterpriseInfo?lang=en`)
    await expect.poll(() => headerState(page).getAttribute('data-state'), WAIT).toBe('rejected')
    await expect.poll(() => page.getByText(remark).count(), WAIT).toBeGreaterThan(0)
    await shot(page, '4-info-rejected')
    await button(page, 'action', 'editApplication').click()
    await page.waitForURL(/\/enterpriseApply\?id=\d+$/, WAIT)
    await expect.poll(() => field(page, 'contactMobile').inputValue(), WAIT).toBe('13912345670')
    await field(page, 'contactMobile').fill('13912345678')
    await button(page, 'action', 'submitForReview').click()
    await confirm(page)
    await expect.poll(() => headerState(page).getAttribute('data-state'), WAIT).toBe('pending')

    // Approved.
    await desk.goto(`${desk.url()}&lang=en`)
    await expect.poll(() => headerState(desk).getAttribute('data-state'), WAIT).toBe('pending')
    await button(desk, 'action', 'approve').click()
    await confirm(desk)
    await expect.poll(() => headerState(desk).getAttribute('data-state'), WAIT).toBe('approved')

    // The applicant, now the enterprise's administrator, sees their enterprise.
    await page.goto(`${applicant.base}/myEnterprise?lang=en`)
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent(), WAIT)
      .toBe('苏州工业园区瑞丰精密机械有限公司')
    await expect.poll(() => page.getByText('91320594MA1MXK3L2T').count(), WAIT).toBeGreaterThan(0)
    await expect.poll(() => page.getByText('13912345678').count(), WAIT).toBeGreaterThan(0)
    await shot(page, '5-my-enterprise')
    await applicant.context.close()
    await reviewer.context.close()
  })
})
