import { beforeAll, describe, expect, it } from 'vitest'
import { onRegistered, type Registered } from '../../server/auth/registration.ts'
import { ApiError } from '../../server/http/errors.ts'
import { inDays } from '../support/clock.ts'
import { codeSentTo } from '../support/codes.ts'
import { setupSignInTest } from '../support/sign-in.ts'

/**
 * Issue #21: the registration page passes ?inviteCode= on to userRegister, and the registration hooks
 * (server/auth/registration.ts) receive it inside the registration's transaction — the point where the
 * invitations module joins the new user to the inviting enterprise. A hook's refusal keeps nothing.
 */
const { test, call } = setupSignInTest()
const seen: Omit<Registered, 'trx'>[] = []

beforeAll(() => {
  onRegistered(async ({ trx: _trx, ...registered }) => {
    seen.push(registered)
    // A code no invitation has: refused the way the invitations module refuses it.
    return registered.input.inviteCode === 'EXPIRED1'
      ? new ApiError('validation', {}, [{ field: 'inviteCode', message: 'error.inviteCodeInvalid', params: {} }])
      : null
  })
})

const post = (url: string, payload: object, language = 'en_US') => call('POST', url, payload, { language })

/** An invite code issued by the seeded enterprise administrator through the API (valid a week, one use). */
async function issuedInvite(): Promise<string> {
  const login = (await post('/b2b/user/login', { username: 'entadmin', password: 'Demo@2026' })).json()
  expect(login.code).toBe('0000')
  const issued = await call(
    'POST',
    '/inviteCode/add',
    { validUntil: inDays(7), maxUses: 1 },
    { authorization: `Bearer ${login.token}` },
  )
  expect(issued.json().code).toBe('0000')
  return issued.json().content.code as string
}

const body = (mobile: string, username: string, code: string) => ({
  username,
  password: 'Harbour#2026',
  confirmPassword: 'Harbour#2026',
  mobile,
  code,
  realName: '周敏',
  agreement: true,
})

describe('the invitation code on a registration', () => {
  it('reaches the registration hooks with the new user, inside the registration', async () => {
    // A code Minghui's administrator really issued: the membership area's own hook redeems it too.
    const code = await issuedInvite()
    const mobile = '13600021001'
    expect((await post('/b2b/user/sendRegisterSms', { key: mobile })).json().code).toBe('0000')
    const response = await post('/b2b/user/register', {
      ...body(mobile, 'zhoumin21', await codeSentTo(test.database.db, mobile)),
      inviteCode: code,
    })
    expect(response.json().code).toBe('0000')
    const userId = response.json().content.userId as number
    expect(seen.at(-1)).toMatchObject({ userId, input: { inviteCode: code, username: 'zhoumin21' } })
  })

  it('is optional: a registration without one reaches the hooks with none', async () => {
    const mobile = '13600021002'
    await post('/b2b/user/sendRegisterSms', { key: mobile })
    const response = await post(
      '/b2b/user/register',
      body(mobile, 'wanglei21', await codeSentTo(test.database.db, mobile)),
    )
    expect(response.json().code).toBe('0000')
    expect(seen.at(-1)?.input.inviteCode).toBeUndefined()
  })

  it('is at most 32 characters, said in the caller’s language', async () => {
    const long = 'A'.repeat(33)
    const en = await post('/b2b/user/register', { ...body('13600021003', 'lina21', '123456'), inviteCode: long })
    expect(en.statusCode).toBe(400)
    expect(en.json().content.fieldErrors).toEqual([
      { field: 'inviteCode', key: 'validation.maxLength', message: 'At most 32 characters' },
    ])
    const zh = await post(
      '/b2b/user/register',
      { ...body('13600021003', 'lina21', '123456'), inviteCode: long },
      'zh_CN',
    )
    expect(zh.json().content.fieldErrors[0].message).toBe('最多 32 个字符')
  })

  it('refused by a hook keeps nothing: no user, no role, and the code still works', async () => {
    const mobile = '13600021004'
    await post('/b2b/user/sendRegisterSms', { key: mobile })
    const code = await codeSentTo(test.database.db, mobile)
    const refused = await post('/b2b/user/register', { ...body(mobile, 'sunli21', code), inviteCode: 'EXPIRED1' })
    expect(refused.statusCode).toBe(400)
    expect(refused.json().content.fieldErrors).toEqual([
      { field: 'inviteCode', key: 'error.inviteCodeInvalid', message: 'Invalid invitation code' },
    ])
    const users = await test.database.db.selectFrom('app_user').select('id').where('username', '=', 'sunli21').execute()
    expect(users).toEqual([])
    // The same code registers without the refused invitation: the refusal did not spend it.
    const again = await post('/b2b/user/register', body(mobile, 'sunli21', code))
    expect(again.json().code).toBe('0000')
  })
})

describe('the agreement on a registration', () => {
  it('unticked is refused in Chinese too, before any code is looked at', async () => {
    const response = await post(
      '/b2b/user/register',
      { ...body('13600021005', 'gaofei21', '123456'), agreement: false },
      'zh_CN',
    )
    expect(response.statusCode).toBe(400)
    expect(response.json().content.fieldErrors).toEqual([
      { field: 'agreement', key: 'rule.agreementRequired', message: '请阅读并勾选同意《服务协议》和《隐私协议》' },
    ])
  })
})
