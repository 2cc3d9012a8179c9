import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { setupTestApp } from '../support/app.ts'

const test = setupTestApp()

function call(method: 'GET' | 'POST', url: string, token: string, payload?: object, host = 'localhost') {
  return test.app.inject({
    method,
    url: `/api${url}`,
    headers: { host, language: 'en_US', authorization: `Bearer ${token}` },
    ...(method === 'GET' ? { query: payload as Record<string, string> } : payload ? { payload } : {}),
  })
}

interface Contact {
  id: number
  version: number
  name: string
  company: number
}

async function contacts(token: string, host = 'localhost'): Promise<Contact[]> {
  const body = (await call('POST', '/contact/list', token, { pageSize: 200 }, host)).json()
  expect(body.code, JSON.stringify(body)).toBe('0000')
  return body.content.list as Contact[]
}

async function setNoticeCheck(on: boolean, notice: string) {
  await sql`update tenant set settings = settings || ${JSON.stringify({
    newContactInformationCheck: on,
    newContactInformation: notice,
  })}::jsonb where code = 'demo'`.execute(test.database.db)
}

const zhou = { name: '周丽', position: '采购经理', mobile: '13957112345', email: 'zhou.li@hzminghui.cn' }

describe('contacts (/contactList, /concatInfo)', () => {
  it('keeps each enterprise to its own contacts: Ningbo Haitong never sees Minghui’s, acme never sees demo’s', async () => {
    const minghui = await test.login('entadmin')
    const created = (
      await call('POST', '/contact/add', minghui, { ...zhou, name: '孙倩', mobile: '13957110001' })
    ).json()
    expect(created.code, JSON.stringify(created)).toBe('0000')
    const ours = await contacts(minghui)
    expect(ours.map((c) => c.name)).toEqual(expect.arrayContaining(['周丽', '黄志强', '孙倩']))
    expect(new Set(ours.map((c) => c.company)).size).toBe(1)

    const ningbo = await test.login('nbclerk')
    // nbclerk's custom role has no contactList: refused outright.
    expect((await call('POST', '/contact/list', ningbo, {})).json().code).toBe('220000')
    const acme = await test.login('entadmin', 'acme.localhost')
    const theirs = await contacts(acme, 'acme.localhost')
    expect(theirs.map((c) => c.name)).toEqual(['李敏'])
    // Another tenant's or enterprise's contact by id is as missing as one that never was.
    const detail = (
      await call('GET', '/contact/detail', acme, { id: String(created.content.id) }, 'acme.localhost')
    ).json()
    expect(detail.code).toBe('404')
    const update = (
      await call(
        'POST',
        '/contact/update',
        acme,
        { id: created.content.id, version: 1, name: '改名' },
        'acme.localhost',
      )
    ).json()
    expect(update.code).toBe('404')
  })

  it('holds a contact to SPEC §5: name 1–50, mainland mobile, e-mail format, and at least one way to reach', async () => {
    const token = await test.login('entop')
    const refused = async (body: object) => {
      const answer = (await call('POST', '/contact/add', token, body)).json()
      expect(answer.code).toBe('validation')
      return answer.content.fieldErrors.map((e: { field: string; message: string }) => `${e.field}: ${e.message}`)
    }
    expect(await refused({ ...zhou, name: '' })).toContain('name: Required')
    expect(await refused({ ...zhou, name: '周'.repeat(51) })).toEqual([expect.stringMatching(/^name: /)])
    expect(await refused({ ...zhou, mobile: '23957112345' })).toContain(
      'mobile: Enter a valid mainland China mobile number',
    )
    expect(await refused({ ...zhou, email: 'zhou.li@' })).toEqual(['email: Invalid e-mail address'])
    expect(await refused({ name: '周丽' })).toContain('mobile: Give at least one way to reach the contact')
    expect(await refused({ ...zhou, qq: '12' })).toContain('qq: A QQ number is 5 to 12 digits')
    expect(await refused({ ...zhou, remark: 'x'.repeat(256) })).toEqual([expect.stringMatching(/^remark: /)])
    // The enterprise is the author's: a company sent along is ignored, never taken.
    const own = (await call('POST', '/contact/add', token, { ...zhou, mobile: '13957110009', company: 99 })).json()
    expect(own.code).toBe('0000')
    expect(own.content.company).toBe((await contacts(token))[0]?.company)
    expect(own.content.company).not.toBe(99)
  })

  it('asks for the new-contact notice to be acknowledged while newContactInformationCheck is on', async () => {
    const token = await test.login('entadmin')
    await setNoticeCheck(true, '<p>新增联系人须经<strong>本人同意</strong>后方可录入。</p>')
    try {
      const before = (await contacts(token)).length
      const answer = (
        await call('POST', '/contact/add', token, { ...zhou, name: '钱进', mobile: '13957110002' })
      ).json()
      expect(answer.code).toBe('validation')
      expect(answer.content.fieldErrors).toEqual([
        {
          field: 'noticeConfirmed',
          key: 'contact.noticeRequired',
          message: 'Read the new-contact notice and tick to accept it',
        },
      ])
      expect((await contacts(token)).length).toBe(before)
      const saved = (
        await call('POST', '/contact/add', token, {
          ...zhou,
          name: '钱进',
          mobile: '13957110002',
          noticeConfirmed: true,
        })
      ).json()
      expect(saved.code).toBe('0000')
      expect(saved.content.noticeConfirmed).toBe(true)
      // An edit of a contact already saved is not asked again.
      const edited = (
        await call('POST', '/contact/update', token, { id: saved.content.id, version: 1, position: '财务经理' })
      ).json()
      expect(edited.code).toBe('0000')
    } finally {
      await setNoticeCheck(false, '')
    }
    const off = (await call('POST', '/contact/add', token, { ...zhou, name: '吴昊', mobile: '13957110003' })).json()
    expect(off.code).toBe('0000')
  })
})
