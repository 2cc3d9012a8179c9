import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { DEMO_PASSWORD } from '../../server/db/seed/demo.ts'
import { outboxBody } from '../../server/jobs/sealed.ts'
import { codeSentTo, outboxTo } from '../support/codes.ts'
import { PERSONAL_MOBILE, setupSignInTest } from '../support/sign-in.ts'

const { test, call } = setupSignInTest({ personal: PERSONAL_MOBILE })

const asUser = (token: string, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${token}`, ...extra })

async function login(username: string, password: string, host = 'localhost') {
  return call('POST', '/b2b/user/login', { username, password }, { host })
}

async function tokenOf(username: string, password = DEMO_PASSWORD, host = 'localhost') {
  const response = await login(username, password, host)
  expect(response.json().code).toBe('0000')
  return response.json().token as string
}

const me = (token: string, host = 'localhost') =>
  call('GET', '/b2b/user/getCurrentUserInfo', undefined, { host, ...asUser(token) })

const otherThan = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0')

const getCode = (account: string, headers: Record<string, string> = {}) =>
  call('GET', `/b2b/user/resetPassword/getCode?account=${encodeURIComponent(account)}`, undefined, headers)

describe('password reset in three steps', () => {
  it('sends a code by e-mail, trades it for a ticket, sets the new password and ends every session', async () => {
    const before = await tokenOf('entadmin')
    expect((await me(before)).statusCode).toBe(200)

    const sent = await getCode('EntAdmin@demo.example', { language: 'en_US' })
    expect(sent.json()).toMatchObject({ code: '0000', content: null })
    const [mail] = await outboxTo(test.database.db, 'entadmin@demo.example')
    expect(mail).toMatchObject({ kind: 'mail', sent_at: null })
    expect(outboxBody('mail', mail?.payload).subject).toBe('Huayuan Logistics verification code')
    const code = await codeSentTo(test.database.db, 'entadmin@demo.example')

    const wrong = await call('POST', '/b2b/user/resetPassword/commitCode', {
      account: 'entadmin@demo.example',
      code: otherThan(code),
    })
    expect(wrong.json().code).toBe('300003')

    const committed = await call('POST', '/b2b/user/resetPassword/commitCode', {
      account: 'entadmin@demo.example',
      code,
    })
    expect(committed.json().code).toBe('0000')
    const { ticket } = committed.json().content
    expect(ticket).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const tickets = await test.database.db.selectFrom('auth_ticket').selectAll().execute()
    expect(JSON.stringify(tickets)).not.toContain(ticket)

    const reset = await call('POST', '/b2b/user/resetPassword/reset', {
      ticket,
      password: 'Harbour#2026',
      confirmPassword: 'Harbour#2026',
    })
    expect(reset.json().code).toBe('0000')

    expect((await login('entadmin', DEMO_PASSWORD)).json().code).toBe('300005')
    expect((await login('entadmin', 'Harbour#2026')).json().code).toBe('0000')
    expect((await me(before)).statusCode).toBe(401)

    // The ticket and the code were single use.
    const again = await call('POST', '/b2b/user/resetPassword/reset', {
      ticket,
      password: 'Another#2026',
      confirmPassword: 'Another#2026',
    })
    expect(again.json().code).toBe('300003')
    const recommit = await call('POST', '/b2b/user/resetPassword/commitCode', {
      account: 'entadmin@demo.example',
      code,
    })
    expect(recommit.json().code).toBe('300003')
    expect((await login('entadmin', 'Harbour#2026')).json().code).toBe('0000')
  })

  it('works by mobile number with an SMS code (300004 when wrong)', async () => {
    expect((await getCode(PERSONAL_MOBILE)).json().code).toBe('0000')
    const [sms] = await outboxTo(test.database.db, PERSONAL_MOBILE)
    expect(sms?.kind).toBe('sms')
    const code = await codeSentTo(test.database.db, PERSONAL_MOBILE)
    const wrong = await call('POST', '/b2b/user/resetPassword/commitCode', {
      account: PERSONAL_MOBILE,
      code: otherThan(code),
    })
    expect(wrong.json().code).toBe('300004')
    const { ticket } = (
      await call('POST', '/b2b/user/resetPassword/commitCode', { account: PERSONAL_MOBILE, code })
    ).json().content
    const mismatch = await call(
      'POST',
      '/b2b/user/resetPassword/reset',
      { ticket, password: 'Harbour#2026', confirmPassword: 'Harbour#2025' },
      { language: 'en_US' },
    )
    expect(mismatch.statusCode).toBe(400)
    expect(mismatch.json().content.fieldErrors).toEqual([
      { field: 'confirmPassword', key: 'rule.passwordMismatch', message: 'The two passwords do not match' },
    ])
    // A refused request does not spend the ticket.
    const reset = await call('POST', '/b2b/user/resetPassword/reset', {
      ticket,
      password: 'Harbour#2026',
      confirmPassword: 'Harbour#2026',
    })
    expect(reset.json().code).toBe('0000')
    expect((await login('personal', 'Harbour#2026')).json().code).toBe('0000')
  })

  it('answers success for an address no account has, sends nothing, and still counts it', async () => {
    const response = await getCode('nobody@nowhere.example')
    expect(response.json()).toEqual({ code: '0000', message: 'success', content: null })
    expect(await outboxTo(test.database.db, 'nobody@nowhere.example')).toHaveLength(0)
    const again = await getCode('nobody@nowhere.example')
    expect(again.json().code).toBe('300001')
    const commit = await call('POST', '/b2b/user/resetPassword/commitCode', {
      account: 'nobody@nowhere.example',
      code: '123456',
    })
    expect(commit.json().code).toBe('300003')
  })

  it('refuses an expired ticket', async () => {
    await getCode('entop@demo.example')
    const code = await codeSentTo(test.database.db, 'entop@demo.example')
    const { ticket } = (
      await call('POST', '/b2b/user/resetPassword/commitCode', { account: 'entop@demo.example', code })
    ).json().content
    await test.database.db
      .updateTable('auth_ticket')
      .set({ expires_at: sql<Date>`now() - interval '1 second'` })
      .where('kind', '=', 'reset')
      .execute()
    const reset = await call('POST', '/b2b/user/resetPassword/reset', {
      ticket,
      password: 'Harbour#2026',
      confirmPassword: 'Harbour#2026',
    })
    expect(reset.json().code).toBe('300003')
    expect((await login('entop', DEMO_PASSWORD)).json().code).toBe('0000')
  })

  it('checks the account with the YAML rule', async () => {
    const response = await getCode('entadmin', { language: 'en_US' })
    expect(response.statusCode).toBe(400)
    expect(response.json().content.fieldErrors).toEqual([
      {
        field: 'account',
        key: 'rule.accountFormat',
        message: 'Enter a valid e-mail address or mainland China mobile number',
      },
    ])
  })
})

describe('POST /b2b/user/changePassword', () => {
  it('needs a session', async () => {
    const response = await call('POST', '/b2b/user/changePassword', {
      oldPassword: DEMO_PASSWORD,
      newPassword: 'Harbour#2026',
      confirmPassword: 'Harbour#2026',
    })
    expect(response.statusCode).toBe(401)
  })

  it('answers 300005 for a wrong old password and keeps the password', async () => {
    const token = await tokenOf('opcs')
    const response = await call(
      'POST',
      '/b2b/user/changePassword',
      { oldPassword: 'Wrong@2026', newPassword: 'Harbour#2026', confirmPassword: 'Harbour#2026' },
      asUser(token),
    )
    expect(response.json().code).toBe('300005')
    expect((await login('opcs', DEMO_PASSWORD)).json().code).toBe('0000')
  })

  it('refuses a new password equal to the old one', async () => {
    const token = await tokenOf('opcs')
    const response = await call(
      'POST',
      '/b2b/user/changePassword',
      { oldPassword: DEMO_PASSWORD, newPassword: DEMO_PASSWORD, confirmPassword: DEMO_PASSWORD },
      asUser(token),
    )
    expect(response.json().content.fieldErrors).toContainEqual(
      expect.objectContaining({ field: 'newPassword', key: 'rule.passwordUnchanged' }),
    )
  })

  it('changes the password and signs out the user’s other sessions, not this one', async () => {
    const other = await tokenOf('opcs')
    const current = await tokenOf('opcs')
    const response = await call(
      'POST',
      '/b2b/user/changePassword',
      { oldPassword: DEMO_PASSWORD, newPassword: 'Harbour#2026', confirmPassword: 'Harbour#2026' },
      asUser(current),
    )
    expect(response.json().code).toBe('0000')
    expect((await me(current)).statusCode).toBe(200)
    expect((await me(other)).statusCode).toBe(401)
    expect((await login('opcs', DEMO_PASSWORD)).json().code).toBe('300005')
    expect((await login('opcs', 'Harbour#2026')).json().code).toBe('0000')
  })
})

describe('binding an e-mail address and a mobile number', () => {
  it('binds a new e-mail address proven by a code (300003 when wrong, 300009 when taken)', async () => {
    const token = await tokenOf('opadmin')
    const taken = await call('POST', '/b2b/user/sendBindCode', { account: 'entop@demo.example' }, asUser(token))
    expect(taken.json().code).toBe('300009')

    const address = 'li.wei@huayuan.example'
    expect((await call('POST', '/b2b/user/sendBindCode', { account: address }, asUser(token))).json().code).toBe('0000')
    const code = await codeSentTo(test.database.db, address)
    const wrong = await call('POST', '/b2b/user/bindEmail', { email: address, code: otherThan(code) }, asUser(token))
    expect(wrong.json().code).toBe('300003')
    // Another user cannot use a code sent for opadmin.
    const thief = await tokenOf('entop')
    expect((await call('POST', '/b2b/user/bindEmail', { email: address, code }, asUser(thief))).json().code).toBe(
      '300003',
    )

    const bound = await call('POST', '/b2b/user/bindEmail', { email: address, code }, asUser(token))
    expect(bound.json()).toMatchObject({ code: '0000', content: { email: address } })
    expect((await me(token)).json().content.currentUserInfo.mail).toBe(address)
    expect((await login(address, DEMO_PASSWORD)).json().code).toBe('0000')
  })

  it('binds a new mobile number proven by an SMS code (300004 when wrong, 300002 when taken)', async () => {
    const token = await tokenOf('entadmin', 'Harbour#2026')
    const taken = await call('POST', '/b2b/user/sendBindCode', { account: PERSONAL_MOBILE }, asUser(token))
    expect(taken.json().code).toBe('300002')
    const takenBind = await call(
      'POST',
      '/b2b/user/bindMobile',
      { mobile: PERSONAL_MOBILE, code: '123456' },
      asUser(token),
    )
    expect(takenBind.json().code).toBe('300002')

    const mobile = '13600136000'
    expect((await call('POST', '/b2b/user/sendBindCode', { account: mobile }, asUser(token))).json().code).toBe('0000')
    const code = await codeSentTo(test.database.db, mobile)
    const wrong = await call('POST', '/b2b/user/bindMobile', { mobile, code: otherThan(code) }, asUser(token))
    expect(wrong.json().code).toBe('300004')
    const bound = await call('POST', '/b2b/user/bindMobile', { mobile, code }, asUser(token))
    expect(bound.json()).toMatchObject({ code: '0000', content: { mobile } })
    expect((await me(token)).json().content.currentUserInfo.phone).toBe(mobile)
  })

  it('needs a session', async () => {
    const response = await call('POST', '/b2b/user/sendBindCode', { account: 'x@y.example' })
    expect(response.statusCode).toBe(401)
  })
})

describe('one-time handoff for ?token= links', () => {
  it('trades a handoff once for a session of its own', async () => {
    const token = await tokenOf('entop')
    const created = await call('POST', '/b2b/user/createHandoff', {}, asUser(token))
    expect(created.json().code).toBe('0000')
    const { handoff, expiresIn } = created.json().content
    expect(handoff).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(expiresIn).toBe(60)

    const exchanged = await call('POST', '/b2b/user/exchangeToken', { handoff })
    expect(exchanged.json()).toMatchObject({ code: '0000', content: { username: 'entop' } })
    const fresh = exchanged.json().token
    expect(fresh).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(fresh).not.toBe(token)
    expect(fresh).not.toBe(handoff)
    expect(String(exchanged.headers['set-cookie'])).toContain(`b2b_token=${fresh}`)
    expect((await me(fresh)).json().content.userInfo.username).toBe('entop')
    // The handoff is not a session token.
    expect((await me(handoff)).statusCode).toBe(401)

    const again = await call('POST', '/b2b/user/exchangeToken', { handoff })
    expect(again.statusCode).toBe(401)
    expect(again.json().token).toBeUndefined()
  })

  it('refuses an expired handoff and another tenant’s handoff', async () => {
    const token = await tokenOf('entop')
    const first = (await call('POST', '/b2b/user/createHandoff', {}, asUser(token))).json().content.handoff
    await test.database.db
      .updateTable('auth_ticket')
      .set({ expires_at: sql<Date>`now() - interval '1 second'` })
      .where('kind', '=', 'handoff')
      .execute()
    expect((await call('POST', '/b2b/user/exchangeToken', { handoff: first })).statusCode).toBe(401)

    const second = (await call('POST', '/b2b/user/createHandoff', {}, asUser(token))).json().content.handoff
    const onAcme = await call('POST', '/b2b/user/exchangeToken', { handoff: second }, { host: 'acme.localhost' })
    expect(onAcme.statusCode).toBe(401)
    expect((await call('POST', '/b2b/user/exchangeToken', { handoff: second })).json().code).toBe('0000')
  })

  it('creates handoffs for signed-in users only', async () => {
    expect((await call('POST', '/b2b/user/createHandoff', {})).statusCode).toBe(401)
  })
})
