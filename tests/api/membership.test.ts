import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { withTenant } from '../../server/tenancy/scope.ts'
import { setupTestApp } from '../support/app.ts'
import { inDays } from '../support/clock.ts'
import { codeSentTo } from '../support/codes.ts'

const test = setupTestApp()
let nextIp = 1

function call(method: 'GET' | 'POST', url: string, token: string | undefined, payload?: object, host = 'localhost') {
  return test.app.inject({
    method,
    url: `/api${url}`,
    headers: {
      host,
      language: 'en_US',
      resource: '1',
      'x-forwarded-for': `10.21.${Math.floor(nextIp / 250)}.${(nextIp++ % 250) + 1}`,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(payload ? { payload } : {}),
  })
}
const post = (url: string, token: string | undefined, payload: object = {}) => call('POST', url, token, payload)

async function ok<T = Record<string, unknown>>(url: string, token: string, payload: object = {}): Promise<T> {
  const body = (await post(url, token, payload)).json()
  expect(body.code, `${url}: ${JSON.stringify(body)}`).toBe('0000')
  return body.content as T
}

/** A user registered here signs in with the password they chose. */
async function signIn(username: string): Promise<string> {
  const body = (await post('/b2b/user/login', undefined, { username, password: 'Freight@2026' })).json()
  expect(body.code, JSON.stringify(body)).toBe('0000')
  return body.token as string
}

async function me(token: string) {
  const body = (await call('GET', '/b2b/user/getCurrentUserInfo', token)).json()
  expect(body.code).toBe('0000')
  return body.content as { cusCompanyId: number | null; roles: string[]; permissions: string[] }
}

const demo = <T>(work: Parameters<typeof withTenant<T>>[2]) =>
  test.database.db
    .selectFrom('tenant')
    .select('id')
    .where('code', '=', 'demo')
    .executeTakeFirstOrThrow()
    .then((t) => withTenant(test.database.db, t.id, work))

async function companyOf(username: string): Promise<number | null> {
  return demo((trx) =>
    trx.selectFrom('app_user').select('company_id').where('username', '=', username).executeTakeFirstOrThrow(),
  ).then((u) => u.company_id)
}

async function userCount(): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from app_user`.execute(test.database.db)
  return rows[0]?.n ?? 0
}

async function register(username: string, mobile: string, inviteCode?: string) {
  expect((await post('/b2b/user/sendRegisterSms', undefined, { key: mobile })).json().code).toBe('0000')
  const code = await codeSentTo(test.database.db, mobile)
  return post('/b2b/user/register', undefined, {
    username,
    password: 'Freight@2026',
    confirmPassword: 'Freight@2026',
    mobile,
    code,
    agreement: true,
    ...(inviteCode ? { inviteCode } : {}),
  })
}

interface Invite {
  id: number
  version: number
  code: string
  link: string
  enterpriseCode: string
  state: string
  usedCount: number
}

async function newInvite(token: string, maxUses = 2): Promise<Invite> {
  return ok<Invite>('/inviteCode/add', token, { validUntil: inDays(7), maxUses, remark: '单证部新同事' })
}

describe('invite codes', () => {
  it('lets the enterprise administrator issue a code with its link, and nobody else', async () => {
    const admin = await test.login('entadmin')
    const invite = await newInvite(admin)
    expect(invite.code).toMatch(/^[A-HJKMNP-Z2-9]{10}$/)
    expect(invite.link).toBe(`/register?inviteCode=${invite.code}`)
    expect(invite.enterpriseCode).toMatch(/^[0-9A-F]{8}$/)
    expect(invite.state).toBe('active')
    const operator = await test.login('entop')
    expect((await post('/inviteCode/add', operator, { validUntil: inDays(7), maxUses: 1 })).json().code).toBe('220000')
    const past = (await post('/inviteCode/add', admin, { validUntil: inDays(-1), maxUses: 1 })).json()
    expect(past.content.fieldErrors).toContainEqual(
      expect.objectContaining({ field: 'validUntil', message: 'The code must be valid until today or later' }),
    )
    // Another enterprise's administrator (acme) never sees demo's codes.
    const acme = await test.login('entadmin', 'acme.localhost')
    const theirs = (
      await test.app.inject({
        method: 'POST',
        url: '/api/inviteCode/list',
        headers: { host: 'acme.localhost', authorization: `Bearer ${acme}` },
        payload: {},
      })
    ).json()
    expect(theirs.content.list.map((i: Invite) => i.code)).not.toContain(invite.code)
  })

  it('makes a visitor who registers with a valid code a member of the enterprise, in the same transaction', async () => {
    const admin = await test.login('entadmin')
    const invite = await newInvite(admin)
    const before = await userCount()
    const answer = (await register('chenxiao2026', '13912340001', invite.code.toLowerCase())).json()
    expect(answer.code, JSON.stringify(answer)).toBe('0000')
    expect(await userCount()).toBe(before + 1)
    expect(await companyOf('chenxiao2026')).toBe(await companyOf('entadmin'))
    const token = await signIn('chenxiao2026')
    const user = await me(token)
    expect(user.roles).toEqual(['EnterpriseOperation'])
    expect(user.cusCompanyId).toBe(await companyOf('entadmin'))
    const list = await ok<{ list: Invite[] }>('/inviteCode/list', admin, { searchParams: { code: invite.code } })
    expect(list.list[0]?.usedCount).toBe(1)
  })

  it('refuses an unknown, revoked, expired or spent code with "invalid invite code" and creates no user', async () => {
    const admin = await test.login('entadmin')
    const revoked = await newInvite(admin)
    await ok('/inviteCode/transition', admin, { id: revoked.id, version: revoked.version, transition: 'revoke' })
    const expired = await newInvite(admin)
    await demo((trx) => sql`update invite_code set valid_until = ${inDays(-1)} where id = ${expired.id}`.execute(trx))
    const spent = await newInvite(admin, 1)
    expect((await register('spendsit', '13912340002', spent.code)).json().code).toBe('0000')
    let n = 3
    for (const code of ['NOPE234567', revoked.code, expired.code, spent.code]) {
      const before = await userCount()
      const answer = (await register(`refused${n}`, `1391234010${n++}`, code)).json()
      expect(answer.code).toBe('validation')
      expect(answer.content.fieldErrors).toEqual([
        expect.objectContaining({ field: 'inviteCode', message: 'Invalid invitation code' }),
      ])
      expect(await userCount()).toBe(before)
    }
    const listed = await ok<{ list: Invite[] }>('/inviteCode/list', admin, { searchParams: { state: ['expired'] } })
    expect(listed.list.map((i) => i.id)).toContain(expired.id)
  })
})

interface JoinRequest {
  id: number
  version: number
  state: string
  company: number
}

describe('requests to join', () => {
  it('answers "enterprise code not correct" for an unknown enterprise, and the administrator approves once', async () => {
    const personal = await test.login('personal')
    const wrong = (await post('/joinRequest/add', personal, { enterpriseCode: 'NO-SUCH-CO' })).json()
    expect(wrong.content.fieldErrors).toEqual([
      expect.objectContaining({ field: 'enterpriseCode', message: 'The enterprise code is incorrect' }),
    ])
    const admin = await test.login('entadmin')
    const { enterpriseCode } = await newInvite(admin)
    const asked = await ok<JoinRequest>('/joinRequest/add', personal, { enterpriseCode, message: '我是刘洋' })
    expect(asked.state).toBe('pending')
    expect(asked.company).toBe(await companyOf('entadmin'))
    const again = (await post('/joinRequest/add', personal, { enterpriseCode })).json()
    expect(again.content.fieldErrors[0].message).toBe(
      'You have already asked to join this enterprise; wait for the review',
    )
    // The Ningbo Haitong clerk sees nothing of it; the administrator of Minghui does.
    const clerk = await test.login('nbclerk')
    expect((await post('/joinRequest/reviewList', clerk, {})).json().code).toBe('220000')
    const review = await ok<{ list: JoinRequest[] }>('/joinRequest/reviewList', admin, {})
    expect(review.list.map((r) => r.id)).toContain(asked.id)

    expect((await me(personal)).roles).toEqual(['PersonalUser'])
    const approved = await ok<JoinRequest>('/joinRequest/transition', admin, {
      id: asked.id,
      version: asked.version,
      transition: 'approve',
    })
    expect(approved.state).toBe('approved')
    // The same session, next call: the requester acts for the enterprise with the member role.
    const after = await me(personal)
    expect(after.cusCompanyId).toBe(await companyOf('entadmin'))
    expect(after.roles).toEqual(['EnterpriseOperation'])
    const twice = (
      await post('/joinRequest/transition', admin, { id: asked.id, version: approved.version, transition: 'refuse' })
    ).json()
    expect(twice.code).toBe('320001')
  })

  it('refuses with a remark, and the refused request cannot be approved after', async () => {
    const stranger = (await register('zhoutao2026', '13912340011')).json()
    expect(stranger.code).toBe('0000')
    const token = await signIn('zhoutao2026')
    const admin = await test.login('entadmin')
    const asked = await ok<JoinRequest>('/joinRequest/add', token, { enterpriseCode: '杭州明辉纺织品进出口有限公司' })
    const refused = await ok<JoinRequest & { reviewRemark: string }>('/joinRequest/transition', admin, {
      id: asked.id,
      version: asked.version,
      transition: 'refuse',
      input: { reviewRemark: '请使用公司邮箱重新申请' },
    })
    expect(refused.reviewRemark).toBe('请使用公司邮箱重新申请')
    const late = (
      await post('/joinRequest/transition', admin, { id: asked.id, version: refused.version, transition: 'approve' })
    ).json()
    expect(late.code).toBe('320001')
    expect(await companyOf('zhoutao2026')).toBeNull()
    // Nothing half-written: the refusal left the requester a personal user without work accounts.
    const accounts = await ok<{ list: unknown[]; bindCompanyUserId: number | null }>('/b2b/user/companyUserList', token)
    expect(accounts).toMatchObject({ list: [], bindCompanyUserId: null })
  })
})

describe('a review that fails', () => {
  it('leaves the request pending and nothing written when the requester joined meanwhile', async () => {
    const answer = (await register('sunli2026', '13912340031')).json()
    expect(answer.code).toBe('0000')
    const token = await signIn('sunli2026')
    const admin = await test.login('entadmin')
    const invite = await newInvite(admin)
    const asked = await ok<JoinRequest>('/joinRequest/add', token, { enterpriseCode: invite.enterpriseCode })
    await ok('/b2b/user/confirmInviteCode', token, { inviteCode: invite.code })
    const audits = async () =>
      (await sql<{ n: number }>`select count(*)::int as n from audit_log`.execute(test.database.db)).rows[0]?.n
    const before = await audits()
    const refused = (
      await post('/joinRequest/transition', admin, { id: asked.id, version: asked.version, transition: 'approve' })
    ).json()
    expect(refused.code).toBe('validation')
    expect(refused.content.fieldErrors[0].message).toBe('You are already a member of this enterprise')
    expect(await audits()).toBe(before)
    const review = await ok<{ list: JoinRequest[] }>('/joinRequest/reviewList', admin, {})
    expect(review.list.find((r) => r.id === asked.id)).toMatchObject({ state: 'pending', version: asked.version })
  })
})

interface WorkAccount {
  id: number
  version: number
  company: number
  state: string
}

describe('work accounts', () => {
  it('switches the company the session acts for, roles included, on the next call, and back', async () => {
    const admin = await test.login('entadmin')
    const invite = await newInvite(admin)
    const clerk = await test.login('nbclerk')
    const ningbo = await companyOf('nbclerk')
    const minghui = await companyOf('entadmin')
    const joined = await ok<WorkAccount>('/b2b/user/confirmInviteCode', clerk, { inviteCode: invite.code })
    expect(joined).toMatchObject({ company: minghui, state: 'other' })
    const accounts = await ok<{ list: WorkAccount[]; bindCompanyUserId: number }>('/b2b/user/companyUserList', clerk)
    expect(accounts.list.map((a) => a.company).sort()).toEqual([minghui, ningbo].sort())
    const bound = accounts.list.find((a) => a.state === 'current') as WorkAccount
    expect(bound.company).toBe(ningbo)
    expect(accounts.bindCompanyUserId).toBe(bound.id)
    expect((await me(clerk)).roles).toEqual(['BookingClerk'])

    await ok('/companyMember/transition', clerk, { id: joined.id, version: joined.version, transition: 'switchTo' })
    const switched = await me(clerk)
    expect(switched.cusCompanyId).toBe(minghui)
    expect(switched.roles).toEqual(['EnterpriseOperation'])
    // The scope follows: contacts and orders are now Minghui's.
    const orders = await ok<{ list: { customerCompany: number }[] }>('/booking/order/queryOrderListByCompany', clerk)
    expect(orders.list.every((o) => o.customerCompany === minghui)).toBe(true)

    const now = await ok<{ list: WorkAccount[] }>('/b2b/user/companyUserList', clerk)
    const back = now.list.find((a) => a.company === ningbo) as WorkAccount
    expect(back.state).toBe('other')
    await ok('/companyMember/transition', clerk, { id: back.id, version: back.version, transition: 'switchTo' })
    expect(await me(clerk)).toMatchObject({ cusCompanyId: ningbo, roles: ['BookingClerk'] })
  })

  it("refuses to unbind the enterprise's last administrator, and makes a leaving member personal again", async () => {
    const admin = await test.login('entadmin')
    const mine = await ok<{ list: WorkAccount[] }>('/b2b/user/companyUserList', admin)
    const account = mine.list[0] as WorkAccount
    const refused = (
      await post('/companyMember/transition', admin, { id: account.id, version: account.version, transition: 'leave' })
    ).json()
    expect(refused).toMatchObject({
      code: '350003',
      message: "You are the enterprise's only administrator: make someone else administrator before you unbind",
    })
    expect(await companyOf('entadmin')).not.toBeNull()

    const operator = await test.login('entop')
    const theirs = (await ok<{ list: WorkAccount[] }>('/b2b/user/companyUserList', operator)).list[0] as WorkAccount
    // A colleague's account is visible in the directory, never theirs to unbind.
    expect(
      (
        await post('/companyMember/transition', admin, { id: theirs.id, version: theirs.version, transition: 'leave' })
      ).json().code,
    ).toBe('404')
    await ok('/companyMember/transition', operator, { id: theirs.id, version: theirs.version, transition: 'leave' })
    expect(await companyOf('entop')).toBeNull()
    expect((await me(operator)).roles).toEqual(['PersonalUser'])
  })

  it('lists accounts by their visibility: colleagues inside the enterprise, the whole network, or nobody', async () => {
    const admin = await test.login('entadmin')
    // The Ningbo Haitong clerk: another enterprise of the same tenant.
    const clerk = await test.login('nbclerk')
    const adminAccount = (
      await ok<{ list: (WorkAccount & { visibility: number })[] }>('/b2b/user/companyUserList', admin)
    ).list[0] as WorkAccount & { visibility: number }
    expect(adminAccount.visibility).toBe(2)
    const seen = async (token: string) =>
      (await ok<{ list: { id: number }[] }>('/companyMember/list', token, {})).list.map((r) => r.id)
    const fresh = (await register('wangqiang2026', '13912340021', (await newInvite(admin)).code)).json()
    expect(fresh.code).toBe('0000')
    const colleague = await signIn('wangqiang2026')
    expect(await seen(colleague)).toContain(adminAccount.id)
    expect(await seen(clerk)).not.toContain(adminAccount.id)

    const hidden = await ok<WorkAccount>('/b2b/user/change/accountVisibility', admin, {
      id: adminAccount.id,
      version: adminAccount.version,
      visibility: 3,
    })
    expect(await seen(colleague)).not.toContain(adminAccount.id)
    await ok('/b2b/user/change/accountVisibility', admin, { id: hidden.id, version: hidden.version, visibility: 1 })
    expect(await seen(clerk)).toContain(adminAccount.id)
    // Someone else's account is not theirs to change.
    const mine = (await ok<{ list: WorkAccount[] }>('/b2b/user/companyUserList', colleague)).list[0] as WorkAccount
    expect(
      (
        await post('/b2b/user/change/accountVisibility', admin, { id: mine.id, version: mine.version, visibility: 3 })
      ).json().code,
    ).toBe('404')
  })
})
