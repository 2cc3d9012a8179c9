import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { CARGO_AIRPORTS } from '../../server/db/seed/reference/airports.ts'
import { OCEAN_CARRIERS } from '../../server/db/seed/reference/carriers.ts'
import { SEA_PORTS } from '../../server/db/seed/reference/ports.ts'
import { loadReferenceData } from '../../server/db/seed/reference-tables.ts'
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

describe("names in the caller's language, else English, else the code (issue #16)", () => {
  const port = (language: string) =>
    get('/api/booking/public/api/basic/port/fuzzyQuery?codes=CNSHA,USLAX', { language }).then((r) =>
      Object.fromEntries(r.body.content.list.map((o) => [o.value, o.name])),
    )

  it('names a port in Chinese for zh, and in English for ja and es (UN/LOCODE has no Japanese or Spanish names)', async () => {
    expect(await port('zh_CN')).toEqual({ CNSHA: '上海', USLAX: '洛杉矶' })
    expect(await port('en_US')).toEqual({ CNSHA: 'Shanghai', USLAX: 'Los Angeles' })
    expect(await port('ja_JP')).toEqual({ CNSHA: 'Shanghai', USLAX: 'Los Angeles' })
    expect(await port('es_ES')).toEqual({ CNSHA: 'Shanghai', USLAX: 'Los Angeles' })
    // Airports and carriers likewise.
    const airport = await get('/api/booking/public/api/basic/airport/fuzzyQuery?codes=PVG', { language: 'ja_JP' })
    expect(airport.body.content.list[0]?.name).toBe(CARGO_AIRPORTS.find((a) => a.iata === 'PVG')?.name_en)
    const carrier = await get('/api/booking/public/api/basic/carrier/fuzzyQuery?codes=MAEU', { language: 'es_ES' })
    expect(carrier.body.content.list[0]?.name).toBe(OCEAN_CARRIERS.find((c) => c.scac === 'MAEU')?.name_en)
  })

  it('names a country in every language, from i18n-iso-countries, and finds it by that name', async () => {
    const names = async (language: string) =>
      (await get('/api/booking/public/api/basic/country/fuzzyQuery?codes=CN,DE,JP', { language })).body.content.list
        .map((o) => [o.value, o.name])
        .sort()
    expect(await names('ja_JP')).toEqual([
      ['CN', '中華人民共和国'],
      ['DE', 'ドイツ'],
      ['JP', '日本'],
    ])
    expect(await names('es_ES')).toEqual([
      ['CN', 'China'],
      ['DE', 'Alemania'],
      ['JP', 'Japón'],
    ])
    expect(Object.fromEntries(await names('zh_CN')).DE).toBe('德国')
    expect(Object.fromEntries(await names('en_US')).DE).toBe('Germany')
    const byName = await get(
      `/api/booking/public/api/basic/country/fuzzyQuery?keyword=${encodeURIComponent('Alemania')}`,
      {
        language: 'es_ES',
      },
    )
    expect(byName.body.content.list.map((o) => o.label)).toContain('DE — Alemania')
  })

  it('falls back to English, then to the code, where a list has no name in the language', async () => {
    const db = fixture.database.db
    // An operator's port with only an English name, and a country whose Spanish name was cleared.
    await sql`insert into ref_port (code, name_en, name_zh, country) values ('ZZTST', 'Testport', null, 'CN')`.execute(
      db,
    )
    await sql`update ref_country set name_es = null where code = 'FR'`.execute(db)
    await sql`insert into ref_country (code, name_en) values ('XA', '')`.execute(db)
    try {
      const zh = await get('/api/booking/public/api/basic/port/fuzzyQuery?codes=ZZTST', { language: 'zh_CN' })
      expect(zh.body.content.list[0]?.name).toBe('Testport')
      const es = await get('/api/booking/public/api/basic/country/fuzzyQuery?codes=FR,XA', { language: 'es_ES' })
      expect(Object.fromEntries(es.body.content.list.map((o) => [o.value, o.name]))).toEqual({
        FR: 'France',
        XA: 'XA',
      })
    } finally {
      await sql`delete from ref_port where code = 'ZZTST'`.execute(db)
      await sql`delete from ref_country where code = 'XA'`.execute(db)
      await sql`update ref_country set name_es = 'Francia' where code = 'FR'`.execute(db)
    }
  })
})

describe('names added to a list a deployment had loaded', () => {
  it("fills the Japanese and Spanish country names where they are empty, keeping an operator's", async () => {
    const db = fixture.database.db
    await sql`update ref_country set name_ja = null, name_es = null`.execute(db)
    await sql`update ref_country set name_ja = 'ドイツ連邦共和国' where code = 'DE'`.execute(db)
    const filled = await loadReferenceData(db as never)
    expect(filled).toBeGreaterThan(2 * 240)
    const { rows } = await sql<{ code: string; name_ja: string; name_es: string }>`select code, name_ja, name_es
      from ref_country where code in ('DE', 'JP') order by code`.execute(db)
    expect(rows).toEqual([
      { code: 'DE', name_ja: 'ドイツ連邦共和国', name_es: 'Alemania' },
      { code: 'JP', name_ja: '日本', name_es: 'Japón' },
    ])
    // Nothing left to fill: the next start changes nothing.
    expect(await loadReferenceData(db as never)).toBe(0)
    await sql`update ref_country set name_ja = 'ドイツ' where code = 'DE'`.execute(db)
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
    expect(english.body.content.list[0]?.label).toBe('Hangzhou Minghui Textile Import and Export Co Ltd')
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
    // Ten digits beyond the id column's range name no company: skipped, never sent to the database.
    const beyond = await get('/api/b2b/basicData/company/fuzzyQuery?codes=9999999999', auth(token))
    expect(beyond.status).toBe(200)
    expect(beyond.body.content.list).toEqual([])
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
