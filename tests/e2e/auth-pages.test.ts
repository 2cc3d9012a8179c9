import { sql } from 'kysely'
import type { BrowserContext, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { outboxBody } from '../../server/jobs/sealed.ts'
import { openContext } from '../support/browser.ts'
import { localeText, setupPortal, WAIT } from '../support/portal.ts'

/**
 * Issue #21: /register, /login's two tabs and /resetPassword as a new user walks them. Codes are read where
 * the API tests read them — the outbox, the only place a sent code exists in clear — from the database the
 * portal under test writes to; nothing of the server is replaced.
 */
const portal = setupPortal()
const text = localeText

const MOBILE = '13621210021'
const USERNAME = 'zhaoyun2026'
const PASSWORD = 'Harbour#2026'
const NEW_PASSWORD = 'Mooring$2027'

async function visitor(language: 'en' | 'zh'): Promise<{ context: BrowserContext; page: Page }> {
  const context = await openContext(portal.browser, { viewport: { width: 1440, height: 900 } })
  await context.addCookies([{ name: 'language', value: language, url: portal.server.url }])
  const page = await context.newPage()
  return { context, page }
}

/** The code in the newest message to `to`. */
async function codeSentTo(to: string): Promise<string> {
  const row = await portal.server.database.db
    .selectFrom('outbox')
    .select(['kind', 'payload'])
    .where(sql<boolean>`payload->>'to' = ${to}`)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow()
  const code = /(\d{6})/.exec(outboxBody(row.kind, row.payload).text)?.[1]
  if (!code) throw new Error(`no code in the message to ${to}`)
  return code
}

const messagesTo = async (to: string) =>
  (
    await portal.server.database.db
      .selectFrom('outbox')
      .select('id')
      .where(sql<boolean>`payload->>'to' = ${to}`)
      .execute()
  ).length

/**
 * SPEC §9's wait is per number, whatever the code is for: the steps of this walk ask for codes within a
 * minute of each other. The minute passes for the codes already sent (their rows dated a minute earlier),
 * not for the server's clock.
 */
async function aMinutePasses(to: string): Promise<void> {
  await portal.server.database.db
    .updateTable('verification_code')
    .set({ created_at: sql<Date>`created_at - interval '61 seconds'` })
    .where('target', '=', to)
    .execute()
}

/** The seconds the send-code button counts down, as "Resend in 58 s" reads in `language`. */
async function countdown(page: Page, language: 'en' | 'zh'): Promise<number> {
  const pattern = new RegExp(text(language, 'ui', 'resendIn').replace('{{seconds}}', '(\\d+)'))
  const label = (await page.getByTestId('send-code').textContent()) ?? ''
  const seconds = pattern.exec(label)?.[1]
  if (seconds === undefined) throw new Error(`the send-code button says "${label}", not a countdown`)
  return Number(seconds)
}

const escaped = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** A field by its whole label (a required one ends in its mark, *): "Password", never "Confirm password". */
const field = (page: Page, language: 'en' | 'zh', key: string) =>
  page.getByLabel(new RegExp(`^${escaped(text(language, 'field', key))}\\s*\\*?$`))

async function logOut(page: Page, language: 'en' | 'zh') {
  await page.getByRole('button', { name: text(language, 'ui', 'profileMenu') }).click()
  await page.getByRole('menuitem', { name: text(language, 'ui', 'logout') }).click()
  await page.waitForURL(/\/login/, WAIT)
}

describe('a visitor registers, signs in by SMS code and resets the password by mobile', () => {
  it('walks /register → logout → /login by code → /resetPassword → /login by password, in English', async () => {
    const { context, page } = await visitor('en')
    const en = (namespace: string, key: string) => text('en', namespace, key)

    // /register, the invitation code carried from the link.
    await page.goto(`${portal.server.url}/register?inviteCode=K7Q2M9XA`)
    await expect.poll(() => field(page, 'en', 'inviteCode').inputValue(), WAIT).toBe('K7Q2M9XA')
    await field(page, 'en', 'username').fill(USERNAME)
    await field(page, 'en', 'password').fill(PASSWORD)
    await field(page, 'en', 'confirmPassword').fill(PASSWORD)
    await field(page, 'en', 'mobile').fill(MOBILE)
    await page.getByTestId('send-code').click()
    await expect.poll(() => countdown(page, 'en'), WAIT).toBeGreaterThan(55)
    expect(await page.getByTestId('send-code').isDisabled()).toBe(true)
    await field(page, 'en', 'verificationCode').fill(await codeSentTo(MOBILE))
    await field(page, 'en', 'realName').fill('赵云')

    // Unticked, the agreement is refused in the browser, and nothing is created.
    const register = page.getByRole('button', { name: en('ui', 'registerSubmit'), exact: true })
    await register.click()
    await expect.poll(() => page.getByText(en('rule', 'agreementRequired')).count(), WAIT).toBe(1)
    expect(new URL(page.url()).pathname).toBe('/register')
    const created = () =>
      portal.server.database.db
        .selectFrom('app_user')
        .select(['id', 'company_user_type'])
        .where('username', '=', USERNAME)
        .execute()
    expect(await created()).toEqual([])

    // Ticked, the invitation code of the link is checked: this one was never issued, so the server refuses it
    // at its field and keeps nothing (the membership area redeems codes inside the registration).
    await page.getByRole('checkbox', { name: en('field', 'agreement') }).check()
    await register.click()
    await expect.poll(() => page.getByText(en('error', 'inviteCodeInvalid')).count(), WAIT).toBe(1)
    expect(await created()).toEqual([])

    // Without it, the user is registered and signed in as a personal user (the SMS code was not spent).
    await field(page, 'en', 'inviteCode').fill('')
    await register.click()
    await page.waitForURL((url) => url.pathname !== '/register', WAIT)
    await expect.poll(() => page.getByRole('button', { name: en('ui', 'profileMenu') }).count(), WAIT).toBe(1)
    expect(await created()).toEqual([expect.objectContaining({ company_user_type: 2 })])

    await logOut(page, 'en')

    // /login by SMS code, going where the user wanted to go.
    await page.goto(`${portal.server.url}/login?redirect=%2FpersonalInfo`)
    await page.getByRole('tab', { name: en('ui', 'loginByCode') }).click()
    await field(page, 'en', 'mobile').fill(MOBILE)
    // The registration's code went less than a minute ago: the server's wait (300001), said above the form,
    // and counted down on the button from the seconds the server gave.
    await page.getByTestId('send-code').click()
    const wait = new RegExp(en('error', 'codeWait').replace('{{seconds}}', '(\\d+)'))
    await expect.poll(async () => wait.test((await page.getByRole('alert').textContent()) ?? ''), WAIT).toBe(true)
    const said = Number(wait.exec((await page.getByRole('alert').textContent()) ?? '')?.[1])
    expect(await countdown(page, 'en')).toBeLessThanOrEqual(said)
    expect(await page.getByTestId('send-code').isDisabled()).toBe(true)
    // The user comes back a minute later.
    const sentBefore = await messagesTo(MOBILE)
    await aMinutePasses(MOBILE)
    await page.reload()
    await page.getByRole('tab', { name: en('ui', 'loginByCode') }).click()
    await field(page, 'en', 'mobile').fill(MOBILE)
    await page.getByTestId('send-code').click()
    await expect.poll(() => messagesTo(MOBILE), WAIT).toBe(sentBefore + 1)
    // The 60-second wait counts down on the button (once the page has the answer: the outbox row is written
    // before it, while the button still says "Sending…").
    await expect.poll(() => countdown(page, 'en'), WAIT).toBeGreaterThan(55)
    const first = await countdown(page, 'en')
    await expect.poll(() => countdown(page, 'en'), WAIT).toBeLessThan(first)
    await field(page, 'en', 'verificationCode').fill(await codeSentTo(MOBILE))
    await page.getByRole('button', { name: en('ui', 'loginSubmit'), exact: true }).click()
    await page.waitForURL(/\/personalInfo$/, WAIT)

    await logOut(page, 'en')

    // /resetPassword by mobile, three steps, no footer.
    await page.goto(`${portal.server.url}/resetPassword`)
    await expect.poll(() => page.getByRole('heading', { name: en('route', 'resetPassword') }).count(), WAIT).toBe(1)
    // Not in the server's page for readers without scripts either; /login has it.
    const served = async (path: string) => (await context.request.get(`${portal.server.url}${path}`)).text()
    expect(await served('/resetPassword')).not.toContain('<footer')
    expect(await served('/login')).toContain('<footer')
    await expect.poll(() => page.locator('footer').count(), WAIT).toBe(0)
    const current = () => page.locator('[aria-current="step"]').textContent()
    expect(await current()).toBe(`1. ${en('ui', 'resetStepChoose')}`)
    await aMinutePasses(MOBILE)
    await field(page, 'en', 'mobile').fill(MOBILE)
    await page.getByRole('button', { name: en('ui', 'sendCode'), exact: true }).click()
    await expect.poll(current, WAIT).toBe(`2. ${en('ui', 'resetStepReset')}`)
    await expect.poll(() => countdown(page, 'en'), WAIT).toBeGreaterThan(55)
    const code = await codeSentTo(MOBILE)

    // Errors per field: the confirmation in the browser, a wrong code from the server, under the code.
    await field(page, 'en', 'newPassword').fill(NEW_PASSWORD)
    await field(page, 'en', 'confirmPassword').fill(`${NEW_PASSWORD}x`)
    await field(page, 'en', 'verificationCode').fill(code === '111111' ? '222222' : '111111')
    const submit = page.getByRole('button', { name: en('ui', 'resetSubmit'), exact: true })
    await submit.click()
    await expect.poll(() => page.getByText(en('rule', 'passwordMismatch')).count(), WAIT).toBe(1)
    await field(page, 'en', 'confirmPassword').fill(NEW_PASSWORD)
    await submit.click()
    await expect.poll(() => page.getByText(en('error', '300004')).count(), WAIT).toBe(1)
    await expect.poll(current).toBe(`2. ${en('ui', 'resetStepReset')}`)
    await field(page, 'en', 'verificationCode').fill(code)
    await submit.click()
    await expect.poll(current, WAIT).toBe(`3. ${en('ui', 'resetStepDone')}`)
    expect(
      await page
        .getByRole('status')
        .filter({ hasText: en('ui', 'resetDone') })
        .count(),
    ).toBe(1)
    expect(await page.locator('footer').count()).toBe(0)
    await page.getByRole('button', { name: en('ui', 'resetGoLogin') }).click()
    await page.waitForURL(/\/login$/, WAIT)

    // The old password no longer works; the new one does.
    await field(page, 'en', 'loginAccount').fill(USERNAME)
    await field(page, 'en', 'password').fill(PASSWORD)
    const login = page.getByRole('button', { name: en('ui', 'loginSubmit'), exact: true })
    await login.click()
    await expect.poll(() => page.getByText(en('error', '300005')).count(), WAIT).toBe(1)
    await field(page, 'en', 'password').fill(NEW_PASSWORD)
    await login.click()
    await page.waitForURL((url) => url.pathname !== '/login', WAIT)
    await expect.poll(() => page.getByRole('button', { name: en('ui', 'profileMenu') }).count(), WAIT).toBe(1)
    await context.close()
  })
})

describe('the sign-in pages in Chinese', () => {
  it('refuse an unticked agreement and mismatched passwords, send a registered mobile to log in, count down', async () => {
    const { context, page } = await visitor('zh')
    const zh = (namespace: string, key: string) => text('zh', namespace, key)

    await page.goto(`${portal.server.url}/register`)
    const register = page.getByRole('button', { name: zh('ui', 'registerSubmit'), exact: true })
    await register.click()
    await expect.poll(() => page.getByText(zh('rule', 'agreementRequired')).count(), WAIT).toBe(1)
    expect(await page.getByText(zh('validation', 'required'), { exact: true }).count()).toBeGreaterThan(3)
    await field(page, 'zh', 'password').fill('Harbour#2026')
    await field(page, 'zh', 'confirmPassword').fill('Harbour#2025')
    await register.click()
    await expect.poll(() => page.getByText(zh('rule', 'passwordMismatch')).count(), WAIT).toBe(1)

    // A mobile number that has an account: once its code is proven, "registered, please log in", and a link.
    const mobile = '13800138000'
    await portal.server.database.db.updateTable('app_user').set({ mobile }).where('username', '=', 'personal').execute()
    await field(page, 'zh', 'username').fill('guanyu2026')
    await field(page, 'zh', 'confirmPassword').fill('Harbour#2026')
    await field(page, 'zh', 'mobile').fill(mobile)
    await page.getByTestId('send-code').click()
    await expect.poll(() => countdown(page, 'zh'), WAIT).toBeGreaterThan(55)
    await field(page, 'zh', 'verificationCode').fill(await codeSentTo(mobile))
    await page.getByRole('checkbox', { name: zh('field', 'agreement') }).check()
    await register.click()
    await expect.poll(() => page.getByText(text('zh', 'error', 'mobileExistsLogin')).count(), WAIT).toBe(1)
    await page.getByRole('link', { name: zh('ui', 'loginSubmit'), exact: true }).click()
    await page.waitForURL(/\/login$/, WAIT)

    // The SMS-code tab: a number with no account is answered alike (no oracle), and the wait counts down.
    await page.getByRole('tab', { name: zh('ui', 'loginByCode') }).click()
    await field(page, 'zh', 'mobile').fill('13700021099')
    await page.getByTestId('send-code').click()
    await expect.poll(() => countdown(page, 'zh'), WAIT).toBeGreaterThan(55)
    const first = await countdown(page, 'zh')
    await expect.poll(() => countdown(page, 'zh'), WAIT).toBeLessThan(first)

    // /resetPassword in Chinese: its steps, no footer.
    await page.goto(`${portal.server.url}/resetPassword`)
    await expect
      .poll(() => page.locator('[aria-current="step"]').textContent(), WAIT)
      .toBe(`1. ${zh('ui', 'resetStepChoose')}`)
    await expect.poll(() => page.locator('footer').count(), WAIT).toBe(0)
    // By e-mail, a mobile number is refused before anything is sent, in the field's own words.
    await page.getByRole('radio', { name: zh('ui', 'resetByEmail') }).check()
    const sent = await messagesTo('13700021097')
    await field(page, 'zh', 'email').fill('13700021097')
    await page.getByRole('button', { name: zh('ui', 'sendCode'), exact: true }).click()
    await expect.poll(() => page.getByText(zh('rule', 'accountFormat')).count(), WAIT).toBe(1)
    expect(await messagesTo('13700021097')).toBe(sent)
    expect(await page.locator('[aria-current="step"]').textContent()).toBe(`1. ${zh('ui', 'resetStepChoose')}`)
    await page.goto(`${portal.server.url}/login`)
    await expect.poll(() => page.locator('footer').count(), WAIT).toBe(1)
    await context.close()
  })
})
