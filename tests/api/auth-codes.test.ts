import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { openMessage, outboxBody } from '../../server/jobs/sealed.ts'
import { codeSentTo, outboxTo } from '../support/codes.ts'
import { PERSONAL_MOBILE, setupSignInTest } from '../support/sign-in.ts'

const ENTOP_MOBILE = '13800138001'
const { test, post } = setupSignInTest({ personal: PERSONAL_MOBILE, entop: ENTOP_MOBILE })

const sendLoginSms = (key: string, headers: Record<string, string> = {}) =>
  post('/b2b/user/sendLoginSms', { key }, headers)
const codeLogin = (key: string, code: string) => post('/b2b/user/codeLogin', { key, code })

/** Moves the codes of a number back in time, as if `interval` had passed. */
async function age(target: string, interval: string) {
  await test.database.db
    .updateTable('verification_code')
    .set({ created_at: sql<Date>`created_at - ${interval}::interval` })
    .where('target', '=', target)
    .execute()
}

/** A new code for the number, after earlier tests' codes have aged out of the resend wait and hourly limit. */
async function freshCode(mobile: string): Promise<string> {
  await age(mobile, '61 minutes')
  expect((await sendLoginSms(mobile)).json().code).toBe('0000')
  return codeSentTo(test.database.db, mobile)
}

const otherThan = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0')

describe('codes in the outbox (issue #17, finding 9)', () => {
  it('keeps the message sealed: no code in clear anywhere in the database, readable only for its recipient', async () => {
    const mobile = '13800138077'
    expect((await post('/b2b/user/sendRegisterSms', { key: mobile })).json().code).toBe('0000')
    const [row] = await outboxTo(test.database.db, mobile)
    const code = await codeSentTo(test.database.db, mobile)
    expect(code).toMatch(/^\d{6}$/)
    // The row says whom to send to, not what: the code and the text are in neither the payload nor the code table.
    // `template` names the provider template (issue #22): its parameters, the code among them, are sealed.
    expect(Object.keys(row?.payload ?? {}).sort()).toEqual(['sealed', 'template', 'to'])
    expect((row?.payload ?? {}) as { template?: unknown }).toMatchObject({ template: 'verificationCode' })
    const { rows } = await sql<{ dump: string }>`
      select concat((select json_agg(o)::text from outbox o), (select json_agg(v)::text from verification_code v)) as dump`.execute(
      test.database.db,
    )
    const dump = String(rows[0]?.dump)
    expect(dump).toContain(mobile)
    expect(dump).not.toContain(code)
    expect(dump).not.toMatch(/verification code|验证码/)
    // Sealed for this kind and recipient: moved to another row or altered, it does not open.
    const sealed = String(row?.payload.sealed)
    expect(() => openMessage('sms', '13800138078', sealed)).toThrow()
    expect(() => openMessage('mail', mobile, sealed)).toThrow()
    // One bit of the ciphertext flipped (changing base64 characters may leave the bytes as they were).
    const [version, iv, tag, data] = sealed.split('.')
    const altered = Buffer.from(String(data), 'base64url')
    altered[0] = (altered[0] ?? 0) ^ 1
    expect(() => openMessage('sms', mobile, [version, iv, tag, altered.toString('base64url')].join('.'))).toThrow()
    expect(openMessage('sms', mobile, sealed).text).toContain(code)
  })
})

describe('code login by SMS', () => {
  it('sends a 6-digit code through the outbox and logs in with it once', async () => {
    const sent = await sendLoginSms(PERSONAL_MOBILE, { language: 'en_US' })
    expect(sent.json()).toMatchObject({ code: '0000', content: null })
    const [message] = await outboxTo(test.database.db, PERSONAL_MOBILE)
    expect(message?.kind).toBe('sms')
    expect(message?.sent_at).toBeNull()
    expect(outboxBody('sms', message?.payload).text).toMatch(/^\[Huayuan Logistics\] Your verification code is \d{6}\./)
    const code = await codeSentTo(test.database.db, PERSONAL_MOBILE)

    // Stored hashed: the code is nowhere in the verification_code table.
    const rows = await test.database.db
      .selectFrom('verification_code')
      .selectAll()
      .where('target', '=', PERSONAL_MOBILE)
      .execute()
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ channel: 'sms', purpose: 'login', attempts: 0, used_at: null })
    expect(JSON.stringify(rows)).not.toContain(code)

    const login = await codeLogin(PERSONAL_MOBILE, code)
    expect(login.json()).toMatchObject({ code: '0000', content: { checkRobotPass: true, username: 'personal' } })
    expect(login.json().token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(String(login.headers['set-cookie'])).toContain(`b2b_token=${login.json().token}`)

    // Single use.
    expect((await codeLogin(PERSONAL_MOBILE, code)).json().code).toBe('300004')
  })

  it('writes the message in the caller’s language', async () => {
    await sendLoginSms(ENTOP_MOBILE, { language: 'zh_CN' })
    const [message] = await outboxTo(test.database.db, ENTOP_MOBILE)
    expect(outboxBody('sms', message?.payload).text).toMatch(/^【华远国际物流】您的验证码是 \d{6}，5 分钟内有效/)
  })

  it('answers a number no account has as one that has an account, sends nothing, and counts it (issue #17, finding 2)', async () => {
    const unknown = '13999999999'
    const ip = { 'x-forwarded-for': '10.3.8.1' }
    const response = await sendLoginSms(unknown, ip)
    expect(response.json()).toEqual({ code: '0000', message: 'success', content: null })
    expect(await outboxTo(test.database.db, unknown)).toHaveLength(0)
    // The 60 s wait holds for it as for any number, so that answer tells nothing either.
    expect((await sendLoginSms(unknown, ip)).json().code).toBe('300001')
    // Replayed: thirty requests in a row from one address answered 300006 each; now 0000 until the address's
    // limit, then 300001, whether the numbers have accounts or not.
    const codes: string[] = []
    for (let i = 0; i < 25; i++)
      codes.push((await sendLoginSms(`139100000${String(i).padStart(2, '0')}`, ip)).json().code)
    // The address asked once above: 19 more codes make its 20 an hour.
    expect(codes.slice(0, 19)).toEqual(Array(19).fill('0000'))
    expect(codes.slice(19)).toEqual(Array(6).fill('300001'))
    expect(codes).not.toContain('300006')
  })

  it('answers 300004 for a wrong code, in English and Chinese', async () => {
    const code = await freshCode(PERSONAL_MOBILE)
    const en = await post('/b2b/user/codeLogin', { key: PERSONAL_MOBILE, code: otherThan(code) }, { language: 'en_US' })
    expect(en.json()).toMatchObject({ code: '300004', message: 'Incorrect SMS verification code' })
    expect(en.json().token).toBeUndefined()
    const zh = await post('/b2b/user/codeLogin', { key: PERSONAL_MOBILE, code: otherThan(code) }, { language: 'zh_CN' })
    expect(zh.json()).toMatchObject({ code: '300004', message: '短信验证码错误' })
    // Two wrong tries do not kill it.
    expect((await codeLogin(PERSONAL_MOBILE, code)).json().code).toBe('0000')
  })

  it('refuses a resend within 60 seconds with 300001 and the seconds left', async () => {
    await freshCode(PERSONAL_MOBILE)
    const again = await sendLoginSms(PERSONAL_MOBILE, { language: 'en_US' })
    expect(again.json().code).toBe('300001')
    const seconds = Number(/within (\d+) seconds/.exec(again.json().message)?.[1])
    expect(seconds).toBeGreaterThan(0)
    expect(seconds).toBeLessThanOrEqual(60)
    // The same seconds in the content, for the page to count down (issue #21).
    expect(again.json().content).toEqual({ waitSeconds: seconds })
    const zh = await sendLoginSms(PERSONAL_MOBILE, { language: 'zh_CN' })
    expect(zh.json().message).toMatch(/^\d+ 秒内不能重复获取验证码$/)
    expect(await outboxTo(test.database.db, PERSONAL_MOBILE)).toHaveLength(3)
  })

  it('kills a code after 5 wrong tries: the 6th try fails even with the right code', async () => {
    const code = await freshCode(PERSONAL_MOBILE)
    for (let i = 0; i < 5; i++) expect((await codeLogin(PERSONAL_MOBILE, otherThan(code))).json().code).toBe('300004')
    expect((await codeLogin(PERSONAL_MOBILE, code)).json().code).toBe('300004')
  })

  it('refuses an expired code', async () => {
    const code = await freshCode(PERSONAL_MOBILE)
    await test.database.db
      .updateTable('verification_code')
      .set({ expires_at: sql<Date>`now() - interval '1 second'` })
      .where('target', '=', PERSONAL_MOBILE)
      .execute()
    expect((await codeLogin(PERSONAL_MOBILE, code)).json().code).toBe('300004')
  })

  it('lets only the newest code of a number work', async () => {
    const first = await freshCode(PERSONAL_MOBILE)
    // Codes are random: one in a million times the next is the same six digits, so ask again until it differs.
    let newest = await freshCode(PERSONAL_MOBILE)
    for (let tries = 1; newest === first && tries < 3; tries++) newest = await freshCode(PERSONAL_MOBILE)
    expect(newest).not.toBe(first)
    expect((await codeLogin(PERSONAL_MOBILE, first)).json().code).toBe('300004')
    expect((await codeLogin(PERSONAL_MOBILE, newest)).json().code).toBe('0000')
  })

  it('answers 300007 for a disabled account only once its code is verified', async () => {
    await test.database.db.updateTable('app_user').set({ state: 0 }).where('username', '=', 'entop').execute()
    try {
      await age(ENTOP_MOBILE, '61 seconds')
      expect((await sendLoginSms(ENTOP_MOBILE)).json().code).toBe('0000')
      const [message] = await outboxTo(test.database.db, ENTOP_MOBILE)
      const code = /(\d{6})/.exec(outboxBody('sms', message?.payload).text)?.[1] as string
      expect((await codeLogin(ENTOP_MOBILE, otherThan(code))).json().code).toBe('300004')
      expect((await codeLogin(ENTOP_MOBILE, code)).json().code).toBe('300007')
    } finally {
      await test.database.db.updateTable('app_user').set({ state: 1 }).where('username', '=', 'entop').execute()
    }
  })

  it('does not accept one tenant’s code on another tenant’s host', async () => {
    const code = await freshCode(ENTOP_MOBILE)
    const acme = await post('/b2b/user/codeLogin', { key: ENTOP_MOBILE, code }, { host: 'acme.localhost' })
    expect(acme.json().code).toBe('300004')
    expect((await codeLogin(ENTOP_MOBILE, code)).json().code).toBe('0000')
  })
})

describe('code sending limits', () => {
  it('allows 5 codes an hour and 10 a day per number', async () => {
    const mobile = '13600000001'
    const send = () => post('/b2b/user/sendRegisterSms', { key: mobile }, { language: 'en_US' })
    for (let i = 0; i < 5; i++) {
      expect((await send()).json().code).toBe('0000')
      await age(mobile, '61 seconds')
    }
    const sixth = await send()
    expect(sixth.json()).toMatchObject({
      code: '300001',
      message: 'Verification code request limit exceeded. Please try again later.',
    })

    await age(mobile, '1 hour')
    for (let i = 0; i < 5; i++) {
      expect((await send()).json().code).toBe('0000')
      await age(mobile, '61 seconds')
    }
    await age(mobile, '1 hour')
    expect((await send()).json().code).toBe('300001')
    await age(mobile, '1 day')
    expect((await send()).json().code).toBe('0000')
    expect(await outboxTo(test.database.db, mobile)).toHaveLength(11)
  })

  it('allows 20 codes an hour per client address', async () => {
    const ip = '10.3.9.9'
    for (let i = 0; i < 20; i++) {
      const response = await post(
        '/b2b/user/sendRegisterSms',
        { key: `135000000${String(i).padStart(2, '0')}` },
        { 'x-forwarded-for': ip },
      )
      expect(response.json().code).toBe('0000')
    }
    const refused = await post('/b2b/user/sendRegisterSms', { key: '13500000099' }, { 'x-forwarded-for': ip })
    expect(refused.json().code).toBe('300001')
    expect(await outboxTo(test.database.db, '13500000099')).toHaveLength(0)
    // Another address is not affected.
    expect((await post('/b2b/user/sendRegisterSms', { key: '13500000099' })).json().code).toBe('0000')
  })

  it('validates the number before anything else', async () => {
    const response = await post('/b2b/user/sendLoginSms', { key: '1380013800' }, { language: 'en_US' })
    expect(response.statusCode).toBe(400)
    expect(response.json().content.fieldErrors).toEqual([
      { field: 'key', key: 'rule.chinaMobile', message: 'Enter a valid mainland China mobile number' },
    ])
  })
})
