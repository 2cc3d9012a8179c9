import { sql } from 'kysely'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { openContext } from '../support/browser.ts'
import { inDays } from '../support/clock.ts'
import { codeSentTo } from '../support/codes.ts'
import { localeText, setupPortal, WAIT } from '../support/portal.ts'

/**
 * Issue #21's acceptance, the membership part, as users do it in Chromium: the enterprise administrator issues
 * an invite code, a new visitor registers with its link and is a member, and a personal user's request to join
 * is approved by the administrator in the browser. The register page is another helper's: the visitor sends
 * the registration through the page's own fetch, with the code the link carries.
 */

const portal = setupPortal()
const en = (namespace: string, key: string) => localeText('en', namespace, key)

async function table(page: Page) {
  const rows = page.locator('table tbody tr')
  await expect.poll(() => rows.count(), WAIT).toBeGreaterThan(0)
  return rows
}

describe('the new-contact notice (newContactInformationCheck)', () => {
  it('shows the notice above the contact form and saves a new contact only once it is acknowledged', async () => {
    // acme's settings, before anything of acme is read (the server keeps a tenant 30 s).
    await sql`update tenant set settings = settings || ${JSON.stringify({
      newContactInformationCheck: true,
      newContactInformation: '<p>Ask the contact <strong>first</strong>: their consent is needed.</p>',
    })}::jsonb where code = 'acme'`.execute(portal.server.database.db)
    const admin = await portal.signIn('entadmin', { host: 'acme.localhost' })
    await admin.page.goto(`${admin.base}/concatInfo?lang=en`)
    const notice = 'Ask the contact first: their consent is needed.'
    await expect.poll(() => admin.page.getByText(notice, { exact: true }).count(), WAIT).toBe(1)
    await admin.page.getByLabel(en('contact', 'name')).fill('Zhao Lei')
    await admin.page.getByLabel(en('field', 'mobile')).fill('13925570001')
    await admin.page.getByRole('button', { name: en('ui', 'save'), exact: true }).click()
    await expect
      .poll(() => admin.page.getByText('Read the new-contact notice and tick to accept it').count(), WAIT)
      .toBeGreaterThan(0)
    await admin.page.getByLabel(en('contact', 'noticeConfirmed')).check()
    await admin.page.getByRole('button', { name: en('ui', 'save'), exact: true }).click()
    await expect
      .poll(async () => {
        const { rows } = await sql<{ notice_confirmed: boolean }>`
          select notice_confirmed from contact where name = 'Zhao Lei'`.execute(portal.server.database.db)
        return rows.map((r) => r.notice_confirmed)
      }, WAIT)
      .toEqual([true])
    await admin.context.close()
  })
})

describe('invitations and requests to join, in the browser', () => {
  it('invites a colleague who registers with the link, and approves a personal user’s request to join', async () => {
    // 1. The administrator of Hangzhou Minghui issues an invite code.
    const admin = await portal.signIn('entadmin')
    await admin.page.goto(`${admin.base}/enterpriseInvite?lang=en`)
    await admin.page.getByRole('button', { name: en('membership', 'newInvite'), exact: true }).click()
    const dialog = admin.page.getByRole('dialog')
    await dialog.getByLabel(en('membership', 'validUntil')).fill(inDays(14))
    await dialog.getByLabel(en('membership', 'maxUses')).fill('3')
    await dialog.getByLabel(en('membership', 'inviteRemark')).fill('单证部新同事')
    await dialog.getByRole('button', { name: en('ui', 'save'), exact: true }).click()
    await expect.poll(() => admin.page.getByRole('dialog').count(), WAIT).toBe(0)
    const issued = (await table(admin.page)).filter({ hasText: '单证部新同事' }).first()
    await expect.poll(() => issued.textContent(), WAIT).toContain('/register?inviteCode=')
    const cells = (await issued.locator('td').allTextContents()).map((cell) => cell.trim())
    const inviteCode = cells.find((cell) => /^[A-Z0-9]{10}$/.test(cell)) as string
    expect(cells).toContain(`/register?inviteCode=${inviteCode}`)
    const enterpriseCode = cells.find((cell) => /^[0-9A-F]{8}$/.test(cell)) as string
    expect(enterpriseCode).toMatch(/^[0-9A-F]{8}$/)

    // 2. A new visitor opens the link and registers with the code it carries.
    const visitorContext = await openContext(portal.browser)
    const visitor = await visitorContext.newPage()
    await visitor.goto(`${portal.server.url}/register?inviteCode=${inviteCode}`)
    const fromLink = await visitor.evaluate(() => new URLSearchParams(window.location.search).get('inviteCode'))
    expect(fromLink).toBe(inviteCode)
    const mobile = '13912348888'
    const api = (path: string, body: object) =>
      visitor.evaluate(
        async ({ path, body }) => {
          const response = await fetch(`/api${path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', resource: '1', language: 'en_US' },
            body: JSON.stringify(body),
          })
          return (await response.json()) as { code: string; content: unknown }
        },
        { path, body },
      )
    expect((await api('/b2b/user/sendRegisterSms', { key: mobile })).code).toBe('0000')
    const registration = {
      username: 'chenxiao2026',
      password: 'Freight@2026',
      confirmPassword: 'Freight@2026',
      mobile,
      code: await codeSentTo(portal.server.database.db, mobile),
      agreement: true,
      realName: '陈晓',
    }
    const wrong = await api('/b2b/user/register', { ...registration, inviteCode: 'WRONGCODE2' })
    expect(JSON.stringify(wrong)).toContain('Invalid invitation code')
    expect((await api('/b2b/user/register', { ...registration, inviteCode: fromLink })).code).toBe('0000')
    expect((await api('/b2b/user/login', { username: 'chenxiao2026', password: 'Freight@2026' })).code).toBe('0000')
    // The new colleague's work account is Minghui's, and it is the one they act for.
    await visitor.goto(`${portal.server.url}/workAccounts?lang=en`)
    const account = (await table(visitor)).first()
    await expect.poll(() => account.textContent(), WAIT).toContain('Hangzhou Minghui')
    expect(await account.textContent()).toContain(en('membership', 'currentUser'))
    await visitorContext.close()

    // 3. A personal user asks to join Minghui by its enterprise code.
    const personal = await portal.signIn('personal')
    await personal.page.goto(`${personal.base}/joinEnterprise?lang=en`)
    await personal.page.getByRole('button', { name: en('membership', 'askToJoin'), exact: true }).click()
    const ask = personal.page.getByRole('dialog')
    await ask.getByLabel(en('membership', 'enterpriseCodeOrName')).fill('NOSUCHCO')
    await ask.getByRole('button', { name: en('ui', 'save'), exact: true }).click()
    await expect.poll(() => ask.textContent(), WAIT).toContain('The enterprise code is incorrect')
    await ask.getByLabel(en('membership', 'enterpriseCodeOrName')).fill(enterpriseCode)
    await ask.getByLabel(en('membership', 'joinMessage')).fill('我是物流部刘洋，申请加入')
    await ask.getByRole('button', { name: en('ui', 'save'), exact: true }).click()
    await expect.poll(() => personal.page.getByRole('dialog').count(), WAIT).toBe(0)
    const mine = (await table(personal.page)).first()
    await expect.poll(() => mine.textContent(), WAIT).toContain(en('membership', 'requestPending'))

    // 4. The administrator approves it in the review list.
    await admin.page.goto(`${admin.base}/joinRequestReview?lang=en`)
    const request = (await table(admin.page)).filter({ hasText: '我是物流部刘洋' }).first()
    await request.getByRole('button', { name: en('membership', 'approve'), exact: true }).click()
    await admin.page
      .getByRole('dialog')
      .getByRole('button', { name: en('ui', 'ok'), exact: true })
      .click()
    await expect.poll(() => request.textContent(), WAIT).toContain(en('membership', 'requestApproved'))

    // 5. The requester now acts for Minghui.
    await personal.page.goto(`${personal.base}/workAccounts?lang=en`)
    const joined = (await table(personal.page)).first()
    await expect.poll(() => joined.textContent(), WAIT).toContain('Hangzhou Minghui')
    expect(await joined.textContent()).toContain(en('membership', 'currentUser'))
    const contacts = personal.page.getByRole('link', { name: en('route', 'contactList'), exact: true })
    await expect.poll(() => contacts.count(), WAIT).toBe(1)

    // 6. They unbind: without a page load, the menu is a personal user's again (the session was read anew).
    await joined.getByRole('button', { name: en('membership', 'unbind'), exact: true }).click()
    await personal.page
      .getByRole('dialog')
      .getByRole('button', { name: en('ui', 'ok'), exact: true })
      .click()
    await expect.poll(() => joined.textContent(), WAIT).toContain(en('membership', 'leftAccount'))
    await expect.poll(() => contacts.count(), WAIT).toBe(0)
    await admin.context.close()
    await personal.context.close()
  })
})
