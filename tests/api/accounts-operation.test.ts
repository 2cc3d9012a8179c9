import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../server/app.ts'
import type { Database } from '../../server/db/database.ts'
import { DEMO_PASSWORD } from '../../server/db/seed/demo.ts'
import { outboxBody } from '../../server/jobs/sealed.ts'
import { TEST_PROXIES } from '../support/app.ts'
import { freshDatabase } from '../support/database.ts'

let database: Database
let app: FastifyInstance
let nextIp = 1
/** The demo tenant's role ids by code, and another tenant's. */
const roles: Record<string, number> = {}
let acmeRole = 0
let opadmin = ''
let acmeAdmin = ''

const LIST = '/api/b2b/user/operationAccount/list'
const DETAIL = '/api/b2b/user/operationAccount/detail'
const ADD = '/api/b2b/user/operationAccount/add'
const UPDATE = '/api/b2b/user/operationAccount/update'
const ACME = 'acme.localhost'

async function login(username: string, password = DEMO_PASSWORD, host = 'localhost') {
  const response = await app.inject({
    method: 'POST',
    url: '/api/b2b/user/login',
    headers: { host, 'x-forwarded-for': `10.4.0.${nextIp++}`, resource: '1' },
    payload: { username, password },
  })
  return response
}

async function tokenOf(username: string, host = 'localhost', password = DEMO_PASSWORD) {
  const response = await login(username, password, host)
  expect(response.json().code, `login ${username}`).toBe('0000')
  return response.json().token as string
}

function call(
  method: 'GET' | 'POST',
  url: string,
  token: string | null,
  payload?: object,
  options: { host?: string; language?: string } = {},
) {
  const headers: Record<string, string> = { host: options.host ?? 'localhost' }
  // The portal's header beside the cookie, as a cookie-authorised change needs (server/http/csrf.ts).
  if (token) Object.assign(headers, { cookie: `b2b_token=${token}`, resource: '1' })
  if (options.language) headers.language = options.language
  return app.inject({ method, url, headers, ...(payload ? { payload } : {}) })
}

const list = (token: string, body: object = {}, host?: string) => call('POST', LIST, token, body, { host })
const detail = (token: string, id: number | string, host?: string) =>
  call('GET', `${DETAIL}?id=${id}`, token, undefined, { host })

async function userId(username: string, tenant = 'demo') {
  const row = await database.db
    .selectFrom('app_user')
    .innerJoin('tenant', 'tenant.id', 'app_user.tenant_id')
    .select(['app_user.id'])
    .where('tenant.code', '=', tenant)
    .where('app_user.username', '=', username)
    .executeTakeFirstOrThrow()
  return row.id
}

async function current(id: number) {
  const response = await detail(opadmin, id)
  expect(response.json().code).toBe('0000')
  return response.json().content as Record<string, unknown> & { id: number; version: number }
}

/** The form as the edit dialog sends it: the entity's fields plus id and version. */
function formOf(row: Record<string, unknown>, changes: object = {}) {
  const { username, realName, email, mobile, qq, companyAppRoleId, isUsed, id, version } = row
  return { username, realName, email, mobile, qq, companyAppRoleId, isUsed, id, version, ...changes }
}

let serial = 0
function newAccount(overrides: object = {}) {
  serial++
  return {
    username: `opnew${serial}`,
    realName: `New Operator ${serial}`,
    email: `opnew${serial}@demo.example`,
    mobile: `1390000${String(serial).padStart(4, '0')}`,
    qq: `2819374${serial}`,
    companyAppRoleId: roles.OperationCS,
    isUsed: true,
    ...overrides,
  }
}

beforeAll(async () => {
  database = await freshDatabase()
  app = await buildApp({ database, trustedProxies: TEST_PROXIES })
  const rows = await database.db
    .selectFrom('role')
    .innerJoin('tenant', 'tenant.id', 'role.tenant_id')
    .select(['role.id', 'role.code', 'tenant.code as tenant'])
    .execute()
  for (const row of rows) if (row.tenant === 'demo') roles[row.code] = row.id
  acmeRole = rows.find((r) => r.tenant === 'acme' && r.code === 'OperationCS')?.id ?? 0
  opadmin = await tokenOf('opadmin')
  acmeAdmin = await tokenOf('opadmin', ACME)
})
afterAll(async () => {
  await app?.close()
  await database?.close()
})

describe('POST /b2b/user/operationAccount/list', () => {
  it('lists the provider-side accounts of the tenant only, newest first, shaped as the entity', async () => {
    const response = await list(opadmin)
    expect(response.statusCode).toBe(200)
    const { code, content } = response.json()
    expect(code).toBe('0000')
    expect(content).toMatchObject({ total: 3, pageNum: 1, pageSize: 10 })
    const names = content.list.map((r: { username: string }) => r.username)
    expect(names.sort()).toEqual(['opadmin', 'opcs', 'platform'])
    const ids = content.list.map((r: { id: number }) => r.id)
    expect(ids).toEqual([...ids].sort((a, b) => b - a))
    const row = content.list.find((r: { username: string }) => r.username === 'opcs')
    expect(Object.keys(row).sort()).toEqual(
      [
        'companyAppRoleId',
        'createdAt',
        'email',
        'id',
        'isUsed',
        'labels',
        'lastLoginAt',
        'mobile',
        'qq',
        'realName',
        'updatedAt',
        'username',
        'version',
      ].sort(),
    )
    expect(row).toMatchObject({
      realName: 'Zhang Min',
      email: 'opcs@demo.example',
      companyAppRoleId: roles.OperationCS,
      isUsed: true,
      version: 1,
    })
    // The role id comes with the role's name (one lookup for the page, inside the tenant).
    expect(row.labels).toEqual({ companyAppRoleId: '运营客服' })
    expect(row.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/)
    // opadmin has logged in: the time is there.
    const admin = content.list.find((r: { username: string }) => r.username === 'opadmin')
    expect(admin.lastLoginAt).toMatch(/^\d{4}-\d\d-\d\dT/)
    expect(JSON.stringify(content)).not.toMatch(/password|argon/i)
  })

  it('filters by the declared search parameters: contains (any case, % and _ literal), role, enabled', async () => {
    const names = async (searchParams: object) => {
      const response = await list(opadmin, { searchParams })
      expect(response.json().code, JSON.stringify(searchParams)).toBe('0000')
      return response
        .json()
        .content.list.map((r: { username: string }) => r.username)
        .sort()
    }
    expect(await names({ realName: 'zhang' })).toEqual(['opcs'])
    expect(await names({ email: 'OPADMIN@' })).toEqual(['opadmin'])
    expect(await names({ email: '%' })).toEqual([])
    expect(await names({ email: '_' })).toEqual([])
    expect(await names({ companyAppRoleId: roles.OperationCS })).toEqual(['opcs'])
    // Text from the address bar is read as the field's type.
    expect(await names({ companyAppRoleId: String(roles.SystemAdministrator) })).toEqual(['platform'])
    expect(await names({ isUsed: false })).toEqual([])
    expect(await names({ isUsed: 'true', realName: 'li' })).toEqual(['opadmin'])
    // Empty values are no filter.
    expect(await names({ mobile: '', qq: null })).toEqual(['opadmin', 'opcs', 'platform'])
  })

  it('pages without overlap and sorts by a sortable column', async () => {
    const first = (await list(opadmin, { pageNum: 1, pageSize: 2 })).json().content
    const second = (await list(opadmin, { pageNum: 2, pageSize: 2 })).json().content
    expect(first).toMatchObject({ total: 3, pageNum: 1, pageSize: 2 })
    expect(first.list).toHaveLength(2)
    expect(second).toMatchObject({ total: 3, pageNum: 2, pageSize: 2 })
    expect(second.list).toHaveLength(1)
    const all = [...first.list, ...second.list].map((r: { id: number }) => r.id)
    expect(new Set(all).size).toBe(3)
    const sorted = (await list(opadmin, { sort: { field: 'lastLoginAt', order: 'desc' } })).json().content.list
    expect(sorted[0].username).toBe('opadmin')
  })

  it('refuses undeclared search keys, bad page sizes and bad values with validation', async () => {
    const unknown = await call('POST', LIST, opadmin, { searchParams: { passwordHash: 'x' } }, { language: 'en_US' })
    expect(unknown.statusCode).toBe(400)
    expect(unknown.json().code).toBe('validation')
    expect(unknown.json().content.fieldErrors).toEqual([
      { field: 'searchParams.passwordHash', key: 'validation.unknownField', message: 'This field is not allowed' },
    ])
    expect((await list(opadmin, { pageSize: 500 })).statusCode).toBe(400)
    expect((await list(opadmin, { searchParams: { companyAppRoleId: 'admin' } })).statusCode).toBe(400)
    expect((await list(opadmin, { sort: { field: 'passwordHash' } })).statusCode).toBe(400)
  })

  it('answers 401 without a login and 220000 without the operationAccount permission', async () => {
    const anonymous = await call('POST', LIST, null, {})
    expect(anonymous.statusCode).toBe(401)
    expect(anonymous.json().code).toBe('401')
    for (const username of ['personal', 'entadmin', 'opcs']) {
      const response = await list(await tokenOf(username))
      expect(response.statusCode, username).toBe(403)
      expect(response.json(), username).toMatchObject({ code: '220000', content: null })
    }
    expect((await call('GET', `${DETAIL}?id=1`, null)).statusCode).toBe(401)
    expect((await call('POST', ADD, null, newAccount())).statusCode).toBe(401)
    expect((await call('POST', UPDATE, null, {})).statusCode).toBe(401)
  })

  it('shows another tenant only its own accounts', async () => {
    const response = await list(acmeAdmin, {}, ACME)
    expect(response.json().content.list.map((r: { username: string }) => r.username)).toEqual(['opadmin'])
  })
})

describe('GET /b2b/user/operationAccount/detail', () => {
  it('answers the account with its history', async () => {
    const id = await userId('opcs')
    const response = await detail(opadmin, id)
    expect(response.json()).toMatchObject({
      code: '0000',
      content: { id, username: 'opcs', realName: 'Zhang Min', history: [] },
    })
  })

  it('answers 404 for another tenant, an enterprise user and a missing id alike, validation for a bad id', async () => {
    const acme = await acmeDetail(await userId('opcs'))
    expect(acme.statusCode).toBe(404)
    expect(acme.json()).toMatchObject({ code: '404', content: null })
    const missing = await detail(opadmin, 999_999)
    expect(missing.statusCode).toBe(404)
    expect(missing.json()).toEqual(acme.json())
    expect((await detail(opadmin, await userId('entadmin'))).statusCode).toBe(404)
    const bad = await detail(opadmin, 'abc')
    expect(bad.statusCode).toBe(400)
    expect(bad.json().content.fieldErrors[0].field).toBe('id')
    expect((await call('GET', DETAIL, opadmin)).statusCode).toBe(400)
  })
})

function acmeDetail(id: number) {
  return detail(acmeAdmin, id, ACME)
}

describe('POST /b2b/user/operationAccount/add', () => {
  it('creates a provider account with the role, mails a working initial password, writes the audit', async () => {
    const body = newAccount({ email: 'Op.New@Demo.Example' })
    const response = await call('POST', ADD, opadmin, body)
    expect(response.json().code).toBe('0000')
    const row = response.json().content
    expect(row).toMatchObject({
      username: body.username,
      realName: body.realName,
      email: 'op.new@demo.example',
      mobile: body.mobile,
      qq: body.qq,
      companyAppRoleId: roles.OperationCS,
      isUsed: true,
      version: 1,
      lastLoginAt: null,
    })
    const stored = await database.db
      .selectFrom('app_user')
      .innerJoin('company', 'company.id', 'app_user.company_id')
      .select(['app_user.company_user_type', 'company.company_type', 'app_user.password_hash', 'app_user.state'])
      .where('app_user.id', '=', row.id)
      .executeTakeFirstOrThrow()
    expect(stored).toMatchObject({ company_user_type: 1, company_type: 1, state: 1 })
    expect(stored.password_hash).toMatch(/^\$argon2id\$/)

    const mail = await database.db
      .selectFrom('outbox')
      .select(['payload'])
      .where('kind', '=', 'mail')
      .where(sql<boolean>`payload->>'to' = ${'op.new@demo.example'}`)
      .executeTakeFirstOrThrow()
    const text = outboxBody('mail', mail.payload).text
    const password = /初始密码：(\S+?)。/.exec(text)?.[1] ?? ''
    expect(text).toContain(body.username)
    expect(password).toHaveLength(12)
    expect(stored.password_hash).not.toContain(password)
    const signedIn = await login(body.username, password)
    expect(signedIn.json().code).toBe('0000')
    const me = await call('GET', '/api/b2b/user/getCurrentUserInfo', signedIn.json().token)
    expect(me.json().content.roles).toEqual(['OperationCS'])

    const audit = await sql<{ action: string; user_id: number; after: Record<string, unknown> }>`
      select action, user_id, after from audit_log where entity = 'operationAccount' and record_id = ${row.id}
    `.execute(database.db)
    expect(audit.rows).toHaveLength(1)
    expect(audit.rows[0]).toMatchObject({ action: 'create', user_id: await userId('opadmin') })
    expect(audit.rows[0]?.after).toMatchObject({ username: body.username, companyAppRoleId: roles.OperationCS })
    expect(JSON.stringify(audit.rows[0]?.after)).not.toContain(password)
  })

  it('answers 300010, 300009 and 300002 for a user name, e-mail or mobile another account has', async () => {
    const taken = newAccount()
    expect((await call('POST', ADD, opadmin, taken)).json().code).toBe('0000')
    const again = newAccount()
    const cases = [
      [{ ...again, username: taken.username.toUpperCase() }, '300010'],
      [{ ...again, email: taken.email.toUpperCase() }, '300009'],
      [{ ...again, mobile: taken.mobile }, '300002'],
      // Another tenant's account is no duplicate; the seed's entadmin of this tenant is.
      [{ ...again, email: 'entadmin@demo.example' }, '300009'],
    ] as const
    for (const [body, code] of cases) {
      const response = await call('POST', ADD, opadmin, body, { language: 'en_US' })
      expect(response.statusCode).toBe(200)
      expect(response.json(), JSON.stringify(body)).toMatchObject({ code, content: null })
    }
    expect((await call('POST', ADD, opadmin, { ...again, email: 'opadmin@acme.example' })).json().code).toBe('0000')
  })

  it('refuses an enterprise role, another tenant role and a role beyond the caller with validation', async () => {
    const messages = {
      'rule.providerRole': 'Choose an enabled role of the operator side',
      'rule.roleNotGrantable': 'You cannot assign a role with permissions you do not have yourself',
    }
    for (const [roleId, key] of [
      [roles.EnterpriseAdministrator, 'rule.providerRole'],
      [roles.PersonalUser, 'rule.providerRole'],
      [acmeRole, 'rule.providerRole'],
      [999_999, 'rule.providerRole'],
      // OperationAdministrator may not hand out SystemAdministrator (it holds the platform permission).
      [roles.SystemAdministrator, 'rule.roleNotGrantable'],
    ] as const) {
      const body = newAccount({ companyAppRoleId: roleId })
      const response = await call('POST', ADD, opadmin, body, { language: 'en_US' })
      expect(response.statusCode, key).toBe(400)
      expect(response.json().content.fieldErrors).toEqual([{ field: 'companyAppRoleId', key, message: messages[key] }])
      const exists = await database.db
        .selectFrom('app_user')
        .select('id')
        .where('username', '=', body.username)
        .executeTakeFirst()
      expect(exists).toBeUndefined()
    }
  })

  it('names the wrong fields in the language asked for', async () => {
    const body = { ...newAccount(), realName: '', email: 'not-an-email', qq: 'qq-1', username: 'op.zhang' }
    for (const [language, message, fields] of [
      [
        'en_US',
        'Please correct the highlighted fields',
        [
          ['email', 'rule.emailFormat', 'Invalid e-mail address'],
          ['qq', 'rule.qqNumber', 'Invalid QQ number'],
          ['realName', 'validation.required', 'Required'],
          [
            'username',
            'rule.usernameFormat',
            'Username: letters and digits only, fewer than 32 characters, not digits only',
          ],
        ],
      ],
      [
        'zh_CN',
        '请修改标出的字段',
        [
          ['email', 'rule.emailFormat', '邮箱格式错误'],
          ['qq', 'rule.qqNumber', 'QQ号格式错误'],
          ['realName', 'validation.required', '此项为必填项'],
          ['username', 'rule.usernameFormat', '用户名只能包含字母和数字，少于32位且不能为纯数字'],
        ],
      ],
      [
        'ja_JP',
        '強調表示された項目を修正してください',
        [
          ['email', 'rule.emailFormat', 'メールアドレスの形式が正しくありません'],
          ['qq', 'rule.qqNumber', 'QQ番号の形式が正しくありません'],
          ['realName', 'validation.required', '必須項目です'],
          ['username', 'rule.usernameFormat', 'ユーザー名は英数字のみ、32文字未満で、数字のみは使用できません'],
        ],
      ],
    ] as const) {
      const response = await call('POST', ADD, opadmin, body, { language })
      expect(response.statusCode).toBe(400)
      expect(response.json().message).toBe(message)
      const errors = response.json().content.fieldErrors as { field: string; key: string; message: string }[]
      expect(errors.map((e) => [e.field, e.key, e.message]).sort()).toEqual(fields)
    }
    const en = await call('POST', ADD, opadmin, body, { language: 'en_US' })
    expect(en.json().content.fieldErrors.find((e: { field: string }) => e.field === 'email').message).toBe(
      'Invalid e-mail address',
    )
  })
})

describe('POST /b2b/user/operationAccount/update', () => {
  it('changes the account at its version, keeps the user name, and records the change', async () => {
    const created = (await call('POST', ADD, opadmin, newAccount())).json().content
    const response = await call(
      'POST',
      UPDATE,
      opadmin,
      formOf(created, {
        username: 'renamedop',
        realName: 'Renamed Operator',
        qq: null,
        companyAppRoleId: roles.OperationAdministrator,
      }),
    )
    expect(response.json().code).toBe('0000')
    const row = response.json().content
    expect(row).toMatchObject({
      id: created.id,
      username: created.username,
      realName: 'Renamed Operator',
      qq: null,
      mobile: created.mobile,
      companyAppRoleId: roles.OperationAdministrator,
      version: 2,
    })
    const history = (await current(created.id)).history as { action: string; before: object; after: object }[]
    expect(history[0]).toMatchObject({
      action: 'update',
      before: { realName: created.realName, qq: created.qq, version: 1 },
      after: { realName: 'Renamed Operator', qq: null, version: 2 },
    })
    expect(history.map((h) => h.action)).toEqual(['update', 'create'])
    // Fields left out stay as they are.
    const { mobile: _mobile, qq: _qq, isUsed: _isUsed, ...partial } = formOf(row, { realName: 'Again' })
    const again = (await call('POST', UPDATE, opadmin, partial)).json().content
    expect(again).toMatchObject({ mobile: created.mobile, isUsed: true, realName: 'Again', version: 3 })
  })

  it('answers 330002 for a stale version and changes nothing', async () => {
    const created = (await call('POST', ADD, opadmin, newAccount())).json().content
    expect((await call('POST', UPDATE, opadmin, formOf(created, { realName: 'First' }))).json().code).toBe('0000')
    const stale = await call('POST', UPDATE, opadmin, formOf(created, { realName: 'Second' }))
    expect(stale.statusCode).toBe(200)
    expect(stale.json()).toMatchObject({ code: '330002', content: null })
    expect(await current(created.id)).toMatchObject({ realName: 'First', version: 2 })
  })

  it('needs id and version', async () => {
    const created = (await call('POST', ADD, opadmin, newAccount())).json().content
    const { id: _id, version: _version, ...body } = formOf(created)
    const response = await call('POST', UPDATE, opadmin, body)
    expect(response.statusCode).toBe(400)
    expect(response.json().content.fieldErrors.map((e: { field: string }) => e.field)).toEqual(['id', 'version'])
  })

  it('answers duplicates with 300009 / 300002 and a role outside the rules with validation', async () => {
    const created = (await call('POST', ADD, opadmin, newAccount())).json().content
    const other = (await call('POST', ADD, opadmin, newAccount())).json().content
    expect((await call('POST', UPDATE, opadmin, formOf(created, { email: other.email }))).json().code).toBe('300009')
    expect((await call('POST', UPDATE, opadmin, formOf(created, { mobile: other.mobile }))).json().code).toBe('300002')
    const role = await call('POST', UPDATE, opadmin, formOf(created, { companyAppRoleId: roles.EnterpriseOperation }))
    expect(role.statusCode).toBe(400)
    expect(role.json().content.fieldErrors[0]).toMatchObject({ field: 'companyAppRoleId', key: 'rule.providerRole' })
    expect(await current(created.id)).toMatchObject({ version: 1, companyAppRoleId: roles.OperationCS })
  })

  it("cannot see or change another tenant's account: 404, and the row stays as it was", async () => {
    const id = await userId('opcs')
    const before = await database.db.selectFrom('app_user').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
    const response = await call(
      'POST',
      UPDATE,
      acmeAdmin,
      {
        id,
        version: before.version,
        username: 'opcs',
        realName: 'Taken Over',
        email: 'opcs@demo.example',
        companyAppRoleId: acmeRole,
        isUsed: false,
      },
      { host: ACME },
    )
    expect(response.statusCode).toBe(404)
    expect(response.json()).toMatchObject({ code: '404', content: null })
    const after = await database.db.selectFrom('app_user').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
    expect(after).toEqual(before)
  })

  it('answers 220000 for an account whose role holds more than the caller', async () => {
    const platform = await current(await userId('platform'))
    const response = await call('POST', UPDATE, opadmin, formOf(platform, { isUsed: false }))
    expect(response.statusCode).toBe(403)
    expect(response.json().code).toBe('220000')
    expect(await current(platform.id)).toMatchObject({ isUsed: true, version: platform.version })
  })

  it('disabling signs the account out everywhere; it cannot log in until it is enabled again', async () => {
    const body = newAccount()
    const created = (await call('POST', ADD, opadmin, body)).json().content
    const mail = await database.db
      .selectFrom('outbox')
      .select('payload')
      .where(sql<boolean>`payload->>'to' = ${body.email}`)
      .executeTakeFirstOrThrow()
    const password = /初始密码：(\S+?)。/.exec(outboxBody('mail', mail.payload).text)?.[1] ?? ''
    const token = await tokenOf(body.username, 'localhost', password)
    const me = () => call('GET', '/api/b2b/user/getCurrentUserInfo', token)
    expect((await me()).statusCode).toBe(200)

    const disabled = await call('POST', UPDATE, opadmin, formOf(await current(created.id), { isUsed: false }))
    expect(disabled.json()).toMatchObject({ code: '0000', content: { isUsed: false } })
    expect((await me()).statusCode).toBe(401)
    const sessions = await database.db
      .selectFrom('session')
      .select('revoked_at')
      .where('user_id', '=', created.id)
      .execute()
    expect(sessions.length).toBeGreaterThan(0)
    for (const s of sessions) expect(s.revoked_at).not.toBeNull()
    expect((await login(body.username, password)).json().code).toBe('300007')
    const found = await list(opadmin, { searchParams: { isUsed: false } })
    expect(found.json().content.list.map((r: { id: number }) => r.id)).toEqual([created.id])

    const enabled = await call('POST', UPDATE, opadmin, formOf(await current(created.id), { isUsed: true }))
    expect(enabled.json().content.isUsed).toBe(true)
    // The old session stays revoked; a new login works.
    expect((await me()).statusCode).toBe(401)
    expect((await login(body.username, password)).json().code).toBe('0000')
  })

  it('answers 350001 when the caller disables their own account', async () => {
    const self = await current(await userId('opadmin'))
    const response = await call('POST', UPDATE, opadmin, formOf(self, { isUsed: false }), { language: 'en_US' })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toMatchObject({
      code: '350001',
      message: 'You cannot disable the account you are logged in as',
      content: null,
    })
    expect(await current(self.id)).toMatchObject({ isUsed: true, version: self.version })
    expect((await list(opadmin)).statusCode).toBe(200)
    // Changing one's own name is fine.
    expect((await call('POST', UPDATE, opadmin, formOf(self, { realName: 'Li Wei' }))).json().code).toBe('0000')
  })
})
