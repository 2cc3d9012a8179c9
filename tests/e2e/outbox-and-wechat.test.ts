import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { setupPortal, localeText as text, WAIT } from '../support/portal.ts'

/**
 * Issue #22 in the browser: an operator finds a failed mail on System → Message delivery, reads why it failed
 * and sends it again; a customer binds the openid their WeChat official account gave them, and unbinds it.
 */
const portal = setupPortal()

const tenantId = async () =>
  (await sql<{ id: number }>`select id from tenant where code = 'demo'`.execute(portal.server.database.db)).rows[0]
    ?.id as number

const openidOf = async (username: string) =>
  (
    await sql<{ openid: string | null }>`
      select wechat_openid as openid from app_user where username = ${username} and tenant_id = ${await tenantId()}`.execute(
      portal.server.database.db,
    )
  ).rows[0]?.openid

describe('messaging in the browser', () => {
  it('an operator sees a failed mail with its reason and sends it again', async () => {
    await sql`insert into outbox (tenant_id, kind, payload, attempts, failed_at, last_error)
      values (${await tenantId()}, 'mail',
        ${JSON.stringify({ to: 'li.wei@gone-trading.example', subject: 'Quote Q2026-0042 sent', text: 'Your quote' })}::jsonb,
        1, now(), '550 5.1.1 No such user here')`.execute(portal.server.database.db)
    const { context, page, base } = await portal.signIn('opadmin')
    await page.goto(`${base}/outboxStatus?lang=en`)
    const mail = page.locator('table tbody tr', { hasText: text('en', 'outbox', 'kindMail') })
    await expect.poll(() => mail.count(), WAIT).toBe(1)
    await page.getByRole('button', { name: text('en', 'outbox', 'failedMessages'), exact: true }).click()
    await page.waitForURL(/\/outboxFailed/)
    const failed = page.locator('table tbody tr', { hasText: 'li.wei@gone-trading.example' })
    await expect.poll(() => failed.count(), WAIT).toBe(1)
    expect(await failed.textContent()).toContain('550 5.1.1 No such user here')
    await failed.getByRole('button', { name: text('en', 'outbox', 'retry'), exact: true }).click()
    await page
      .getByRole('dialog')
      .getByRole('button', { name: text('en', 'ui', 'ok'), exact: true })
      .click()
    await expect.poll(() => failed.count(), WAIT).toBe(0)
    await context.close()
  })

  it('a customer binds their WeChat openid and unbinds it', async () => {
    const { context, page, base } = await portal.signIn('personal')
    await page.goto(`${base}/bindWechat?lang=en`)
    const openid = page.getByRole('textbox', { name: text('en', 'field', 'wechatOpenid') })
    await openid.fill('oX7Lh6Qa1sWd2eRf3tGy4hUj5iKo')
    await page.getByRole('button', { name: text('en', 'ui', 'save'), exact: true }).click()
    await expect.poll(() => openidOf('personal'), WAIT).toBe('oX7Lh6Qa1sWd2eRf3tGy4hUj5iKo')
    await page.reload()
    await expect.poll(() => openid.inputValue(), WAIT).toBe('oX7Lh6Qa1sWd2eRf3tGy4hUj5iKo')
    await openid.fill('')
    await page.getByRole('button', { name: text('en', 'ui', 'save'), exact: true }).click()
    await expect.poll(() => openidOf('personal'), WAIT).toBeNull()
    await context.close()
  })
})
