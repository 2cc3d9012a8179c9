import { describe, expect, it } from 'vitest'
import { SEA_PORTS } from '../../server/db/seed/reference/ports.ts'
import { setupTestApp } from '../support/app.ts'

/**
 * The look-ups of screens/basicData.yaml (server/domain/reference/): shared reference lists by code or
 * name in the caller's language, public; tenant records (company, role) logged in, inside the tenant.
 */

const fixture = setupTestApp()

type Option = { value: string; code?: string; name: string; label: string }

async function get(url: string, headers: Record<string, string> = {}) {
  const response = await fixture.app.inject({ method: 'GET', url, headers: { host: 'localhost', ...headers } })
  return { status: response.statusCode, body: response.json() as { code: string; content: { list: Option[] } } }
}
const auth = (token: string) => ({ authorization: token })

describe('reference lists', () => {
  it('finds a port by the start of its code, without a login (SPEC §7 fuzzyQuery), exact code first', async () => {
    const { status, body } = await get('/api/booking/public/api/basic/port/fuzzyQuery?keyword=cnsha', {
      language: 'en_US',
    })
    expect(status).toBe(200)
    expect(body.code).toBe('0000')
    expect(body.content.list[0]).toEqual({ value: 'CNSHA', code: 'CNSHA', name: 'Shanghai', label: 'CNSHA — Shanghai' })
  })

  it('finds ports by name in the caller language and labels them in it', async () => {
    const zh = await get(`/api/booking/public/api/basic/port/fuzzyQuery?keyword=${encodeURIComponent('上海')}`, {
      language: 'zh_CN',
    })
    expect(zh.body.content.list.map((o) => o.value)).toContain('CNSHA')
    expect(zh.body.content.list.find((o) => o.value === 'CNSHA')?.label).toBe('CNSHA — 上海')
    const en = await get('/api/booking/public/api/basic/port/fuzzyQuery?keyword=rotter', { language: 'en_US' })
    expect(en.body.content.list.map((o) => o.label)).toContain('NLRTM — Rotterdam')
    // Every match really contains the keyword in its code or names.
    for (const option of en.body.content.list) {
      const port = SEA_PORTS.find((p) => p.code === option.value)
      expect(`${port?.code} ${port?.name_en} ${port?.name_zh}`.toLowerCase()).toContain('rotter')
    }
  })

  it('answers the labels of given codes (a stored value) and honours the limit', async () => {
    const { body } = await get('/api/booking/public/api/basic/port/fuzzyQuery?codes=USLAX,CNSHA,XXXXX', {
      language: 'en_US',
    })
    expect(body.content.list.map((o) => o.value).sort()).toEqual(['CNSHA', 'USLAX'])
    const limited = await get('/api/booking/public/api/basic/port/fuzzyQuery?keyword=cn&limit=3')
    expect(limited.body.content.list).toHaveLength(3)
    const tooMany = await get('/api/booking/public/api/basic/port/fuzzyQuery?keyword=cn&limit=500', {
      language: 'en_US',
    })
    expect(tooMany.status).toBe(400)
    expect(tooMany.body.code).toBe('validation')
  })

  it('treats % and _ in a keyword as themselves, not as wildcards', async () => {
    const { body } = await get('/api/booking/public/api/basic/port/fuzzyQuery?keyword=%25')
    expect(body.content.list).toEqual([])
  })

  it('serves every reference list the forms use, and the carrier mode', async () => {
    const cases: [string, string, string][] = [
      ['airport', 'PVG', 'PVG — '],
      ['currency', 'usd', 'USD — '],
      ['country', 'CN', 'CN — '],
      ['containerType', '45G1', "45G1 — 40'HQ"],
      ['carrier', 'MAEU', 'MAEU — '],
    ]
    for (const [list, keyword, label] of cases) {
      const { body } = await get(`/api/booking/public/api/basic/${list}/fuzzyQuery?keyword=${keyword}`, {
        language: 'en_US',
      })
      expect(body.code, list).toBe('0000')
      expect(body.content.list[0]?.label, list).toContain(label)
    }
    const air = await get('/api/booking/public/api/basic/carrier/fuzzyQuery?keyword=ma&mode=air&limit=50')
    const sea = await get('/api/booking/public/api/basic/carrier/fuzzyQuery?keyword=ma&mode=sea&limit=50')
    expect(sea.body.content.list.map((o) => o.value)).toContain('MAEU')
    expect(air.body.content.list.map((o) => o.value)).not.toContain('MAEU')
  })
})

describe('tenant look-ups', () => {
  it('need a login', async () => {
    const { status } = await get('/api/b2b/basicData/company/fuzzyQuery?keyword=a')
    expect(status).toBe(401)
  })

  it('show a provider user the companies of their own tenant only', async () => {
    const token = await fixture.login('opadmin')
    const { body } = await get(`/api/b2b/basicData/company/fuzzyQuery?keyword=${encodeURIComponent('明辉')}`, {
      ...auth(token),
      language: 'zh_CN',
    })
    expect(body.content.list.map((o) => o.label)).toEqual(['杭州明辉纺织品进出口有限公司'])
    const english = await get('/api/b2b/basicData/company/fuzzyQuery?keyword=minghui', {
      ...auth(token),
      language: 'en_US',
    })
    expect(english.body.content.list[0]?.label).toBe('Hangzhou Minghui Textile Import & Export Co., Ltd.')
    // acme's customer, found by name, is not there; nor by id.
    const acme = await get(`/api/b2b/basicData/company/fuzzyQuery?keyword=${encodeURIComponent('恒达')}`, auth(token))
    expect(acme.body.content.list).toEqual([])
    const acmeIds = await fixture.database.db
      .selectFrom('company')
      .innerJoin('tenant', 'tenant.id', 'company.tenant_id')
      .select('company.id')
      .where('tenant.code', '=', 'acme')
      .execute()
    const byId = await get(
      `/api/b2b/basicData/company/fuzzyQuery?codes=${acmeIds.map((c) => c.id).join(',')}`,
      auth(token),
    )
    expect(byId.body.content.list).toEqual([])
  })

  it('show an enterprise user their own company only (the company wall)', async () => {
    const token = await fixture.login('entadmin')
    const { body } = await get('/api/b2b/basicData/company/fuzzyQuery?keyword=', auth(token))
    expect(body.content.list).toHaveLength(1)
    expect(body.content.list[0]?.label).toBe('杭州明辉纺织品进出口有限公司')
    const provider = await fixture.database.db
      .selectFrom('company')
      .select('id')
      .where('company_type', '=', 1)
      .execute()
    const byId = await get(
      `/api/b2b/basicData/company/fuzzyQuery?codes=${provider.map((c) => c.id).join(',')}`,
      auth(token),
    )
    expect(byId.body.content.list).toEqual([])
  })

  it('offer the roles an operation account may get, to those who manage accounts', async () => {
    const admin = await fixture.login('opadmin')
    const { body } = await get('/api/b2b/basicData/role/fuzzyQuery?limit=50', auth(admin))
    expect(body.code).toBe('0000')
    const codes = await fixture.database.db
      .selectFrom('role')
      .innerJoin('tenant', 'tenant.id', 'role.tenant_id')
      .select(['role.id', 'role.code'])
      .where('tenant.code', '=', 'demo')
      .execute()
    const offered = new Set(body.content.list.map((o) => codes.find((c) => String(c.id) === o.value)?.code))
    expect(offered.has('OperationAdministrator')).toBe(true)
    expect(offered.has('EnterpriseAdministrator')).toBe(false)
    const enterprise = await fixture.login('entadmin')
    expect((await get('/api/b2b/basicData/role/fuzzyQuery', auth(enterprise))).status).toBe(403)
  })
})
