import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { setupPortal, localeText as text, WAIT } from '../support/portal.ts'

/**
 * /pushList/Email as an operator uses it (issue #22): compose a push of a news item to three customer
 * enterprises, send it, and follow it on /PushView down to each recipient's state and its message's delivery;
 * without an SMTP server the list says the mails go to the local mailbox.
 */
const portal = setupPortal()

/** The demo tenant has two customer enterprises; a third (a Ningbo importer and its buyer) is added here. */
async function thirdCustomer() {
  const db = portal.server.database.db
  const tenant = await sql<{ tenant_id: number }>`select tenant_id from tenant_domain where domain = 'localhost'`
    .execute(db)
    .then((r) => r.rows[0]?.tenant_id as number)
  const company = await sql<{ id: number }>`insert into company (tenant_id, name, name_en, company_type)
    values (${tenant}, '宁波海曙佳禾进出口有限公司', 'Ningbo Jiahe Import Export', 2) returning id`.execute(db)
  await sql`insert into app_user (tenant_id, company_id, username, real_name, email, mobile, password_hash, company_user_type, updated_at)
    values (${tenant}, ${company.rows[0]?.id}, 'jiahe_buyer', '周佳禾', 'zhou.jiahe@jiahe-trade.example', '13857420316', 'not-a-login', 2, now())`.execute(
    db,
  )
}

describe('push lists', () => {
  it('composes a push of a news item to three customers, sends it and shows each recipient on /PushView', async () => {
    await thirdCustomer()
    const { context, page, base } = await portal.signIn('opadmin')
    await page.goto(`${base}/pushList/Email?lang=en`)
    // No SMTP_URL on this server: the list says where its mails go (the server's word, GET /b2b/push/mailDelivery).
    const notice = page.locator('[data-notice="pushListEmail"]')
    await expect.poll(() => notice.textContent(), WAIT).toMatch(/local mailbox, .*mailbox,/)
    await page.getByRole('button', { name: text('en', 'action', 'create'), exact: true }).click()
    await page.waitForURL(/\/pushEdit/)

    // The news item is chosen by its number (no look-up for news items yet: docs/DECISIONS.md).
    const news = await sql<{ id: number }>`select id from information_item order by id limit 1`.execute(
      portal.server.database.db,
    )
    await page.getByRole('textbox', { name: text('en', 'push', 'informationItem') }).fill(String(news.rows[0]?.id))
    await page.getByRole('textbox', { name: text('en', 'push', 'title') }).fill('Chinese New Year sailings')
    const companies = page.getByRole('combobox', { name: text('en', 'push', 'companies') })
    for (const name of ['Minghui', 'Haitong', 'Jiahe']) {
      await companies.click()
      await companies.fill('')
      await companies.pressSequentially(name)
      await page.getByRole('menuitemcheckbox', { name: new RegExp(name) }).click()
    }
    await page.keyboard.press('Escape')
    await page.getByRole('button', { name: text('en', 'push', 'send'), exact: true }).click()
    const confirm = page.getByRole('dialog')
    await confirm.getByRole('button', { name: text('en', 'ui', 'ok'), exact: true }).click()
    await expect.poll(() => confirm.count(), WAIT).toBe(0)

    await page.goto(`${base}/pushList/Email?lang=en`)
    const row = page.locator('table tbody tr', { hasText: 'Chinese New Year sailings' })
    await expect.poll(() => row.count(), WAIT).toBe(1)
    await expect.poll(() => row.textContent(), WAIT).toContain(text('en', 'push', 'stateNotified'))
    await row.getByRole('button', { name: text('en', 'push', 'recipients'), exact: true }).click()
    await page.waitForURL(/\/PushView\?/)
    const recipients = page.locator('table tbody tr')
    await expect.poll(() => recipients.count(), WAIT).toBeGreaterThanOrEqual(3)
    const rows = await recipients.allTextContents()
    expect(rows.every((r) => r.includes(text('en', 'push', 'stateNotified')))).toBe(true)
    // Each message's delivery: no worker runs beside this server, so every one still waits.
    expect(rows.every((r) => r.includes(text('en', 'outbox', 'statePending')))).toBe(true)
    expect(rows.some((r) => r.includes('zhou.jiahe@jiahe-trade.example'))).toBe(true)
    await context.close()
  })
})
