import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { outboxBody } from '../../server/jobs/sealed.ts'
import { openContext } from '../support/browser.ts'
import { localeText, setupPortal, WAIT } from '../support/portal.ts'

/**
 * Platform tenants in the browser (issue #25's acceptance, the platform's part): the platform administrator
 * creates "Ningbo Star Logistics" on star.localhost on /tenantDetail; star.localhost at once shows its own site
 * and its invited administrator signs in there with the password of the invitation; suspending it on /tenantList
 * stops that sign-in and its pages say it is suspended; localhost and acme.localhost are unchanged throughout.
 */

const portal = setupPortal()
const zh = (namespace: string, key: string) => localeText('zh', namespace, key)
const rowOf = (page: Page, text: string) => page.locator('table tbody tr').filter({ hasText: text })
const STAR = 'star.localhost'
/** A text field of the form by its label. */
const field = (page: Page, key: string) => page.getByRole('textbox', { name: zh('field', key), exact: true })

/** A sign-in as the portal's login form makes it, at `base`: the answer's code. */
function signInCode(page: Page, username: string, password: string) {
  return page.evaluate(
    async (credentials) => {
      const response = await fetch('/api/b2b/user/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json', resource: '1', language: 'en_US' },
        body: JSON.stringify(credentials),
      })
      return ((await response.json()) as { code: string }).code
    },
    { username, password },
  )
}

describe('platform tenants (/tenantList, /tenantDetail)', () => {
  it('creates Ningbo Star Logistics on star.localhost, which shows its own site until it is suspended', async () => {
    const starBase = portal.server.url.replace('localhost', STAR)
    const acmeBase = portal.server.url.replace('localhost', 'acme.localhost')
    const visitor = await openContext(portal.browser, { viewport: { width: 1440, height: 900 } })
    const look = await visitor.newPage()
    await look.goto(`${acmeBase}/`)
    const acmeTitle = await look.title()
    await look.goto(`${portal.server.url}/`)
    const demoTitle = await look.title()

    const { context, page } = await portal.signIn('platform')
    await page.goto(`${portal.server.url}/tenantList`)
    await expect.poll(() => rowOf(page, 'Acme Logistics').count(), WAIT).toBe(1)
    await page.getByRole('button', { name: zh('action', 'create') }).click()
    await expect.poll(() => page.url(), WAIT).toContain('/tenantDetail')
    await field(page, 'tenantCode').fill('star')
    await field(page, 'tenantNameZh').fill('宁波星辰物流有限公司')
    await field(page, 'tenantNameEn').fill('Ningbo Star Logistics')
    await field(page, 'websiteDomainName').fill(STAR)
    await field(page, 'websiteName').fill('星辰物流')
    await field(page, 'websiteNameEn').fill('Star Logistics')
    await field(page, 'tenantAdminUsername').fill('staradmin')
    await field(page, 'tenantAdminName').fill('王星')
    await field(page, 'tenantAdminEmail').fill('admin@star-logistics.example')
    await page.getByRole('button', { name: zh('ui', 'save') }).click()
    await expect.poll(() => page.getByText(zh('ui', 'saved')).count(), WAIT).toBeGreaterThan(0)

    // Its host shows its own site at once.
    await look.goto(`${starBase}/`)
    await expect.poll(() => look.title(), WAIT).toContain('星辰物流')
    // Its administrator was invited (the mail in the new tenant's outbox, sealed) and signs in on its host.
    const invited = await portal.server.database.db
      .selectFrom('outbox')
      .innerJoin('tenant', 'tenant.id', 'outbox.tenant_id')
      .select(['outbox.kind', 'outbox.payload'])
      .where('tenant.code', '=', 'star')
      .executeTakeFirstOrThrow()
    const letter = outboxBody(invited.kind, invited.payload)
    expect(letter.subject).toContain('星辰物流')
    expect(letter.text).toContain(`${starBase}/login`)
    const password = /初始密码：(\S+)/.exec(letter.text)?.[1] ?? ''
    expect(await signInCode(look, 'staradmin', password)).toBe('0000')

    // Suspended on /tenantList: its sign-ins stop and its pages say so; the others are unchanged.
    await page.goto(`${portal.server.url}/tenantList`)
    const star = rowOf(page, 'Ningbo Star Logistics')
    await expect.poll(() => star.count(), WAIT).toBe(1)
    await star.getByRole('button', { name: zh('action', 'suspendTenant') }).click()
    await page
      .getByRole('dialog')
      .getByRole('button', { name: zh('ui', 'ok') })
      .click()
    await expect
      .poll(() => rowOf(page, 'Ningbo Star Logistics').textContent(), WAIT)
      .toContain(zh('enum', 'tenantState.suspended'))
    // Its change log on /tenantDetail, newest first: the suspension as the state field's change, then its making.
    await rowOf(page, 'Ningbo Star Logistics').getByRole('link', { name: 'Ningbo Star Logistics' }).click()
    const log = page.getByRole('region', { name: zh('detail', 'history') })
    await expect.poll(() => log.locator('[data-history]').count(), WAIT).toBe(2)
    const [suspension, making] = await log.locator('[data-history]').allInnerTexts()
    expect(suspension).toContain(zh('detail', 'updated'))
    expect(suspension).toContain(
      `${zh('field', 'tenantState')}: ${zh('enum', 'tenantState.live')} → ${zh('enum', 'tenantState.suspended')}`,
    )
    expect(making).toContain(zh('detail', 'created'))
    const suspended = await look.goto(`${starBase}/login`)
    expect(suspended?.status()).toBe(403)
    await expect.poll(() => look.locator('#site-suspended').textContent(), WAIT).toBe(zh('error', '110001'))
    expect(await signInCode(look, 'staradmin', password)).toBe('110001')
    await look.goto(`${acmeBase}/`)
    expect(await look.title()).toBe(acmeTitle)
    expect(await signInCode(look, 'opadmin', 'Demo@2026')).toBe('0000')
    await look.goto(`${portal.server.url}/`)
    expect(await look.title()).toBe(demoTitle)
    await visitor.close()
    await context.close()
  })
})
