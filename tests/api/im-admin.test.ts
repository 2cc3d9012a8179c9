import { beforeAll, describe, expect, it } from 'vitest'
import { setupTestApp } from '../support/app.ts'
import { bearerCalls } from '../support/calls.ts'

/**
 * Chat administration (issue #27, screens/im.yaml): tags (name required and unique whatever its case, SPEC §5),
 * chat filters (only patterns the linear matcher takes), the tenant's one auto-reply (save and get), the
 * tenant's chat settings (WeChat and QQ app ids required when on; only its own tenant selectable), the
 * operators who chat and an enterprise's chat switch (changeCompanyIMState). Another tenant sees none of it,
 * and a user without the permission is refused.
 */

const test = setupTestApp()
const { answer, ok } = bearerCalls(test)
const ACME = { host: 'acme.localhost' }

let operator: string
let acmeOperator: string
let cs: string
let customer: string

beforeAll(async () => {
  operator = await test.login('opadmin')
  acmeOperator = await test.login('opadmin', 'acme.localhost')
  cs = await test.login('opcs')
  customer = await test.login('entadmin')
})

type Row = Record<string, unknown> & { id: number; version: number }
const list = async (path: string, token: string, searchParams = {}, options?: { host: string }) =>
  (await ok('POST', `/api/b2b/im/${path}/list`, token, { searchParams, pageSize: 50 }, options)).list as Row[]
const fieldErrors = (body: { content: { fieldErrors?: unknown[] } }) => body.content.fieldErrors ?? []

describe('tags', () => {
  it('adds a tag, refuses its name again in another case in the caller language, edits and deletes it', async () => {
    expect((await list('tag', operator)).map((t) => t.name)).toEqual(expect.arrayContaining(['VIP', '报关']))
    const created = (await ok('POST', '/api/b2b/im/tag/add', operator, {
      name: 'Dangerous goods',
      color: '#CA5010',
      description: 'DG declarations',
    })) as Row
    expect(created).toMatchObject({ name: 'Dangerous goods', color: '#CA5010' })

    const again = await answer(
      'POST',
      '/api/b2b/im/tag/add',
      operator,
      { name: ' DANGEROUS goods ', color: '#000000' },
      { language: 'zh_CN' },
    )
    expect(again.code).toBe('validation')
    expect(fieldErrors(again)).toContainEqual(expect.objectContaining({ field: 'name', message: '该标签名称已存在' }))
    const vip = await answer('POST', '/api/b2b/im/tag/add', operator, { name: 'vip', color: '#000000' })
    expect(fieldErrors(vip)).toContainEqual(expect.objectContaining({ field: 'name' }))
    const empty = await answer('POST', '/api/b2b/im/tag/add', operator, { color: '#000000' }, { language: 'ja_JP' })
    expect(fieldErrors(empty)).toContainEqual(expect.objectContaining({ field: 'name' }))
    const colour = await answer('POST', '/api/b2b/im/tag/add', operator, { name: 'Red', color: 'red' })
    expect(fieldErrors(colour)).toContainEqual(expect.objectContaining({ field: 'color' }))

    // Its own name, in another case, is no duplicate of itself.
    const edited = (await ok('POST', '/api/b2b/im/tag/edit', operator, {
      id: created.id,
      version: created.version,
      name: 'Dangerous Goods',
    })) as Row
    expect(edited.name).toBe('Dangerous Goods')
    await ok('DELETE', `/api/b2b/im/tag/delete?id=${created.id}`, operator)
    expect((await list('tag', operator)).some((t) => t.id === created.id)).toBe(false)
    // Gone, the name is free again.
    await ok('POST', '/api/b2b/im/tag/add', operator, { name: 'dangerous goods', color: '#CA5010' })
  })

  it('keeps each tenant to its own tags, and the same name may exist in both', async () => {
    const demo = await list('tag', operator)
    const acme = await list('tag', acmeOperator, {}, ACME)
    expect(acme.map((t) => t.name)).toContain('Key account')
    expect(acme.map((t) => t.name)).not.toContain('VIP')
    const vip = demo.find((t) => t.name === 'VIP') as Row
    expect((await answer('GET', `/api/b2b/im/tag/detail?id=${vip.id}`, acmeOperator, undefined, ACME)).code).toBe('404')
    const edit = await answer(
      'POST',
      '/api/b2b/im/tag/edit',
      acmeOperator,
      { id: vip.id, version: vip.version, name: 'x' },
      ACME,
    )
    expect(edit.code).toBe('404')
    await ok('POST', '/api/b2b/im/tag/add', acmeOperator, { name: 'VIP', color: '#C50F1F' }, ACME)
  })

  it('refuses callers without the permission', async () => {
    for (const token of [cs, customer]) {
      const body = await answer('POST', '/api/b2b/im/tag/list', token, { searchParams: {} })
      expect(body.code).toBe('220000')
      expect((await answer('POST', '/api/b2b/im/tag/add', token, { name: 'x', color: '#000000' })).code).toBe('220000')
    }
    expect((await answer('POST', '/api/b2b/im/chatFilter/list', customer, { searchParams: {} })).code).toBe('220000')
    expect((await answer('POST', '/api/b2b/im/autoResponse/save', cs, {})).code).toBe('220000')
    expect((await answer('POST', '/api/b2b/company/changeCompanyIMState', cs, { id: 1, imState: 1 })).code).toBe(
      '220000',
    )
  })
})

describe('chat filters', () => {
  it('adds words and safe patterns, refuses unsafe ones at their field, and is per tenant', async () => {
    const word = (await ok('POST', '/api/b2b/im/chatFilter/add', operator, {
      kind: 'word',
      text: '回扣',
      action: 'refuse',
    })) as Row
    expect(word).toMatchObject({ text: '回扣', action: 'refuse', enabled: true })
    await ok('POST', '/api/b2b/im/chatFilter/add', operator, { kind: 'pattern', text: 'q?q*号', action: 'mask' })
    for (const text of ['*abc', 'a**b', 'a*b*c*d*e']) {
      const bad = await answer(
        'POST',
        '/api/b2b/im/chatFilter/add',
        operator,
        { kind: 'pattern', text, action: 'mask' },
        { language: 'es_ES' },
      )
      expect(bad.code).toBe('validation')
      expect(fieldErrors(bad)).toContainEqual(expect.objectContaining({ field: 'text' }))
    }
    // The same text as a word is fine: it is matched literally.
    await ok('POST', '/api/b2b/im/chatFilter/add', operator, { kind: 'word', text: '*abc', action: 'mask' })
    const action = await answer('POST', '/api/b2b/im/chatFilter/add', operator, {
      kind: 'word',
      text: 'x',
      action: 'delete',
    })
    expect(fieldErrors(action)).toContainEqual(expect.objectContaining({ field: 'action' }))
    const long = await answer('POST', '/api/b2b/im/chatFilter/add', operator, {
      kind: 'word',
      text: 'x'.repeat(51),
      action: 'mask',
    })
    expect(fieldErrors(long)).toContainEqual(expect.objectContaining({ field: 'text' }))

    // The filter matches whatever the case, so an entry differing only by case is the same one: refused at its
    // field in the caller's language, as a kind's other spelling (a word and a pattern of the same text).
    const cash = (await ok('POST', '/api/b2b/im/chatFilter/add', operator, {
      kind: 'word',
      text: 'Cash',
      action: 'mask',
    })) as Row
    for (const [text, kind, language, message] of [
      ['cash', 'word', 'en_US', 'This word or pattern is already in the filter (whatever its case)'],
      [' CASH ', 'pattern', 'zh_CN', '该词语或模式已在过滤列表中（不区分大小写）'],
      ['cAsH', 'word', 'ja_JP', 'この語句またはパターンは既に登録されています（大文字・小文字は区別しません）'],
    ] as const) {
      const again = await answer(
        'POST',
        '/api/b2b/im/chatFilter/add',
        operator,
        { kind, text, action: 'refuse' },
        { language },
      )
      expect(again.code).toBe('validation')
      expect(fieldErrors(again)).toContainEqual(expect.objectContaining({ field: 'text', message }))
    }
    // Seeded entries count too (返点), an edit to another's text in another case is refused, its own case is not.
    expect(
      fieldErrors(
        await answer('POST', '/api/b2b/im/chatFilter/add', operator, { kind: 'word', text: '返点', action: 'mask' }),
      ),
    ).toContainEqual(expect.objectContaining({ field: 'text' }))
    const other = (await ok('POST', '/api/b2b/im/chatFilter/add', operator, {
      kind: 'word',
      text: 'Tips',
      action: 'mask',
    })) as Row
    const clash = await answer('POST', '/api/b2b/im/chatFilter/edit', operator, {
      id: other.id,
      version: other.version,
      text: 'CASH',
    })
    expect(fieldErrors(clash)).toContainEqual(expect.objectContaining({ field: 'text' }))
    const recased = (await ok('POST', '/api/b2b/im/chatFilter/edit', operator, {
      id: cash.id,
      version: cash.version,
      text: 'CASH',
    })) as Row
    expect(recased.text).toBe('CASH')
    // Another tenant may hold the same text.
    await ok('POST', '/api/b2b/im/chatFilter/add', acmeOperator, { kind: 'word', text: 'cash', action: 'mask' }, ACME)

    const acme = await list('chatFilter', acmeOperator, {}, ACME)
    expect(acme.map((f) => f.text)).toContain('kickback')
    expect(acme.map((f) => f.text)).not.toContain('回扣')
    expect((await list('chatFilter', operator, { action: 'refuse' })).map((f) => f.text)).toEqual(
      expect.arrayContaining(['回扣', '私下转账']),
    )
  })
})

describe('auto-reply', () => {
  it('gets the seeded setting and saves changes at its version, one record per tenant', async () => {
    const [seeded] = await list('autoResponse', operator)
    expect(seeded).toMatchObject({
      enabled: true,
      waitUnit: 'minutes',
      serviceDays: [1, 2, 3, 4, 5],
      serviceStart: '09:00',
    })
    const got = (await ok('GET', `/api/b2b/im/autoResponse/get?id=${seeded?.id}`, operator)) as Row
    expect(got.message).toContain('客服')

    const saved = (await ok('POST', '/api/b2b/im/autoResponse/save', operator, {
      ...pick(got),
      version: got.version,
      waitValue: 45,
      waitUnit: 'seconds',
      serviceDays: [1, 2, 3, 4, 5, 6],
    })) as Row
    expect(saved).toMatchObject({ id: got.id, waitValue: 45, waitUnit: 'seconds', serviceDays: [1, 2, 3, 4, 5, 6] })
    expect(saved.version).toBe(got.version + 1)
    expect(await list('autoResponse', operator)).toHaveLength(1)

    const stale = await answer('POST', '/api/b2b/im/autoResponse/save', operator, {
      ...pick(got),
      version: got.version,
    })
    expect(stale.code).toBe('330002')
    const order = await answer('POST', '/api/b2b/im/autoResponse/save', operator, {
      ...pick(got),
      serviceStart: '18:00',
      serviceEnd: '09:00',
    })
    expect(fieldErrors(order)).toContainEqual(expect.objectContaining({ field: 'serviceEnd' }))
    const week = await answer('POST', '/api/b2b/im/autoResponse/save', operator, {
      ...pick(got),
      waitValue: 25,
      waitUnit: 'hours',
    })
    expect(fieldErrors(week)).toContainEqual(expect.objectContaining({ field: 'waitValue' }))
    const unit = await answer('POST', '/api/b2b/im/autoResponse/save', operator, { ...pick(got), waitUnit: 'days' })
    expect(fieldErrors(unit)).toContainEqual(expect.objectContaining({ field: 'waitUnit' }))

    // acme's is its own: another id is not found, and its save does not touch the demo tenant's.
    const [acme] = await list('autoResponse', acmeOperator, {}, ACME)
    expect(acme?.id).not.toBe(got.id)
    expect((await answer('GET', `/api/b2b/im/autoResponse/get?id=${got.id}`, acmeOperator, undefined, ACME)).code).toBe(
      '404',
    )
    const wrong = await answer(
      'POST',
      '/api/b2b/im/autoResponse/save',
      acmeOperator,
      { ...pick(got), id: got.id },
      ACME,
    )
    expect(wrong.code).toBe('404')
  })
})

describe('IM tenant settings and accounts', () => {
  it('requires the app ids when chat is on and lets a tenant select only itself', async () => {
    const [own] = await list('tenant', operator)
    expect(own).toMatchObject({ imEnabled: true, wechatAppId: 'wx8a3f5c2e1b9d0476' })
    const noIds = await answer('POST', '/api/b2b/im/tenant/edit', operator, {
      id: own?.id,
      version: own?.version,
      imEnabled: true,
      wechatAppId: '',
      qqAppId: '',
    })
    expect(noIds.code).toBe('validation')
    expect(fieldErrors(noIds)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'wechatAppId' }),
        expect.objectContaining({ field: 'qqAppId' }),
      ]),
    )
    const other = await answer('POST', '/api/b2b/im/tenant/edit', operator, {
      id: own?.id,
      version: own?.version,
      tenantId: Number(own?.tenantId) + 1,
    })
    expect(fieldErrors(other)).toContainEqual(expect.objectContaining({ field: 'tenantId' }))
    const noTenant = await answer('POST', '/api/b2b/im/tenant/add', acmeOperator, { imEnabled: false }, ACME)
    expect(fieldErrors(noTenant)).toContainEqual(expect.objectContaining({ field: 'tenantId' }))

    const [acme] = await list('tenant', acmeOperator, {}, ACME)
    expect(acme?.imEnabled).toBe(false)
    const turnedOn = (await ok(
      'POST',
      '/api/b2b/im/tenant/edit',
      acmeOperator,
      {
        id: acme?.id,
        version: acme?.version,
        imEnabled: true,
        wechatAppId: 'wx0123456789abcdef',
        qqAppId: '102345678',
      },
      ACME,
    )) as Row
    expect(turnedOn.imEnabled).toBe(true)
    expect((await list('tenant', operator)).map((t) => t.id)).not.toContain(acme?.id)
  })

  it('keeps the operators who chat, only the tenant operation accounts', async () => {
    const accounts = await list('operateAccount', operator)
    expect(accounts.map((a) => a.displayName)).toContain('客服 张敏')
    const users = await test.database.db
      .selectFrom('app_user')
      .innerJoin('tenant', 'tenant.id', 'app_user.tenant_id')
      .select(['app_user.id', 'app_user.username', 'tenant.code'])
      .execute()
    const entadmin = users.find((u) => u.username === 'entadmin' && u.code === 'demo')
    const notOperator = await answer('POST', '/api/b2b/im/operateAccount/add', operator, {
      user: entadmin?.id,
      displayName: 'x',
      chatState: 1,
    })
    expect(fieldErrors(notOperator)).toContainEqual(expect.objectContaining({ field: 'user' }))
    const acmeUser = users.find((u) => u.username === 'opadmin' && u.code === 'acme')
    const foreign = await answer('POST', '/api/b2b/im/operateAccount/add', operator, {
      user: acmeUser?.id,
      displayName: 'x',
      chatState: 1,
    })
    expect(fieldErrors(foreign)).toContainEqual(expect.objectContaining({ field: 'user' }))
    const cs = accounts.find((a) => a.displayName === '客服 张敏') as Row
    const off = (await ok('POST', '/api/b2b/im/operateAccount/edit', operator, {
      id: cs.id,
      version: cs.version,
      chatState: 0,
    })) as Row
    expect(off.chatState).toBe(0)
  })

  it('turns an enterprise chat on and off, never a provider company or another tenant', async () => {
    const enterprises = await list('companyAccount', operator)
    expect(enterprises.length).toBeGreaterThan(0)
    const first = enterprises[0] as Row
    const on = (await ok('POST', '/api/b2b/company/changeCompanyIMState', operator, {
      id: first.id,
      imState: 1,
    })) as Row
    expect(on.imService).toBe(true)
    const off = (await ok('POST', '/api/b2b/company/changeCompanyIMState', operator, {
      id: first.id,
      version: on.version,
      imState: 0,
    })) as Row
    expect(off.imService).toBe(false)
    const stale = await answer('POST', '/api/b2b/company/changeCompanyIMState', operator, {
      id: first.id,
      version: on.version,
      imState: 1,
    })
    expect(stale.code).toBe('330002')
    const bad = await answer('POST', '/api/b2b/company/changeCompanyIMState', operator, { id: first.id, imState: 2 })
    expect(bad.code).toBe('validation')

    const provider = await test.database.db
      .selectFrom('company')
      .innerJoin('tenant', 'tenant.id', 'company.tenant_id')
      .select('company.id')
      .where('company.company_type', '=', 1)
      .where('tenant.code', '=', 'demo')
      .executeTakeFirstOrThrow()
    expect(
      (await answer('POST', '/api/b2b/company/changeCompanyIMState', operator, { id: provider.id, imState: 1 })).code,
    ).toBe('404')
    const acme = await answer(
      'POST',
      '/api/b2b/company/changeCompanyIMState',
      acmeOperator,
      { id: first.id, imState: 1 },
      ACME,
    )
    expect(acme.code).toBe('404')
  })

  it("names an enterprise for the chat, bounded, only the tenant's own customer enterprises", async () => {
    const enterprises = await list('companyAccount', operator)
    const first = enterprises[0] as Row
    const path = '/api/b2b/im/companyAccount/displayName'
    const named = (await ok('POST', path, operator, { id: first.id, imDisplayName: ' 明辉纺织 ' })) as Row
    expect(named.imDisplayName).toBe('明辉纺织')
    expect((await list('companyAccount', operator)).find((c) => c.id === first.id)?.imDisplayName).toBe('明辉纺织')
    const long = await answer('POST', path, operator, { id: first.id, imDisplayName: 'x'.repeat(33) })
    expect(fieldErrors(long)).toContainEqual(expect.objectContaining({ field: 'imDisplayName' }))
    const stale = await answer('POST', path, operator, { id: first.id, version: first.version, imDisplayName: 'y' })
    expect(stale.code).toBe('330002')
    // Empty: the company's own name again (the chat reads null as that).
    const cleared = (await ok('POST', path, operator, { id: first.id, imDisplayName: '' })) as Row
    expect(cleared.imDisplayName ?? null).toBeNull()
    expect((await answer('POST', path, cs, { id: first.id, imDisplayName: 'z' })).code).toBe('220000')
    expect((await answer('POST', path, acmeOperator, { id: first.id, imDisplayName: 'z' }, ACME)).code).toBe('404')
  })
})

/** The writable fields of an auto-reply as the form sends them back. */
function pick(row: Row) {
  const { enabled, message, waitValue, waitUnit, serviceDays, serviceStart, serviceEnd, outsideHoursMessage } = row
  return { enabled, message, waitValue, waitUnit, serviceDays, serviceStart, serviceEnd, outsideHoursMessage }
}
