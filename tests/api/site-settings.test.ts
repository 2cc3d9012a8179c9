import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { setupTestApp } from '../support/app.ts'
import { ico, png } from '../support/images.ts'
import { multipart } from '../support/workbook.ts'

/**
 * /operationSet's site settings (issue #25): saved through the YAML's checks, answered by the public site call
 * on the next request, images checked from their bytes (type, size, exact pixel size) when uploaded and again
 * when saved; another tenant's settings untouched, a customer refused.
 */

const test = setupTestApp()

type Envelope = {
  code: string
  message: string
  content: Record<string, unknown> & { fieldErrors?: { field: string; message: string }[] }
}

async function call(method: 'GET' | 'POST', url: string, token: string | null, payload?: object, host = 'localhost') {
  const response = await test.app.inject({
    method,
    url,
    headers: { host, language: 'en_US', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(payload ? { payload } : {}),
  })
  return response.json() as Envelope
}

async function upload(token: string, field: string, name: string, bytes: Buffer, language = 'en_US') {
  const body = multipart(name, bytes)
  const response = await test.app.inject({
    method: 'POST',
    url: `/api/b2b/file/upload?entity=siteSettingsForm&field=${field}`,
    headers: { host: 'localhost', authorization: token, 'content-type': body.contentType, language },
    payload: body.payload,
  })
  return { status: response.statusCode, body: response.json() as Envelope }
}

const storedSettings = async (code: string) => {
  const { rows } = await sql<{ settings: Record<string, unknown> }>`
    select settings from tenant where code = ${code}`.execute(test.database.db)
  return rows[0]?.settings ?? {}
}

describe('/operationSet: the site settings', () => {
  it('shows the seeded settings, saves a change the public site answers at once, and refuses a stale version', async () => {
    const token = await test.login('opadmin')
    const page = await call('POST', '/api/b2b/site/settings/list', token, { pageNum: 1, pageSize: 1 })
    expect(page.code, JSON.stringify(page)).toBe('0000')
    const record = (page.content.list as Record<string, unknown>[])[0] as Record<string, unknown>
    expect([record.websiteName, record.themeColor, record.pageTemplate, record.homeMode]).toEqual([
      '华远国际物流',
      '#409eff',
      0,
      1,
    ])
    const acmeBefore = await storedSettings('acme')

    const saved = await call('POST', '/api/b2b/site/settings/save', token, {
      ...record,
      themeColor: '#13c2c2',
      pageTemplate: 3,
      homeMode: 2,
      transportationSupport: [1, 2, 4],
      seaBillOriginals: 3,
      seaBillCopies: 2,
      icp: '沪ICP备2026000009号',
    })
    expect(saved.code, JSON.stringify(saved)).toBe('0000')
    expect(saved.content.version).toBe(1)

    // The visitor's next call reads them: no rebuild, no wait for a cache.
    const site = await call('GET', '/api/b2b/public/api/site/settings', null)
    expect([site.content.themeColor, site.content.pageTemplate, site.content.homeMode, site.content.icp]).toEqual([
      '#13c2c2',
      3,
      2,
      '沪ICP备2026000009号',
    ])
    expect(site.content.transportationSupport).toEqual([1, 2, 4])
    const personalization = await call('GET', '/api/b2b/public/api/personalization', null)
    expect(personalization.content).toMatchObject({ pageTemplate: 3, homeMode: 2, themeColor: '#13c2c2' })
    const stored = await storedSettings('demo')
    expect(stored.seaShipmentBillSettings).toEqual({ originals: 3, copies: 2 })
    // What the form does not edit is kept (the direct-order service of the top bar).
    expect((stored.directOrder as { contactName: string }).contactName).toBe('周丽')

    const stale = await call('POST', '/api/b2b/site/settings/save', token, { ...record, themeColor: '#f5222d' })
    expect(stale.code).toBe('330002')
    expect((await storedSettings('demo')).themeColor).toBe('#13c2c2')
    // acme's settings are its own.
    expect(await storedSettings('acme')).toEqual(acmeBefore)
    const acmeSite = await call('GET', '/api/b2b/public/api/site/settings', null, undefined, 'acme.localhost')
    expect([acmeSite.content.themeColor, acmeSite.content.pageTemplate]).toEqual(['#0f7b6c', 2])
    // Put back for the tests below.
    const back = await call('POST', '/api/b2b/site/settings/save', token, { ...record, version: 1 })
    expect(back.code, JSON.stringify(back)).toBe('0000')
  })

  it("keeps the agreements as rich text: the editor's formatting kept, markup beyond it dropped, old plain text as paragraphs", async () => {
    const token = await test.login('opadmin')
    const page = await call('POST', '/api/b2b/site/settings/list', token, { pageNum: 1, pageSize: 1 })
    const record = (page.content.list as Record<string, unknown>[])[0] as Record<string, unknown>
    const service = [
      {
        language: 'en',
        title: 'Terms of service',
        content:
          '<h2>1. Scope</h2><p>Carriage under <strong>these terms</strong> <img src=x onerror="alert(1)">only.</p>' +
          '<script>alert(2)</script><p><a href="javascript:alert(3)">click</a></p>',
      },
    ]
    const saved = await call('POST', '/api/b2b/site/settings/save', token, {
      ...record,
      serviceAgreementList: service,
      newContactInformation: '<p>Check the <em>consignee</em> <span onclick="x()">twice</span>.</p>',
    })
    expect(saved.code, JSON.stringify(saved)).toBe('0000')
    const stored = await storedSettings('demo')
    expect((stored.serviceAgreementList as { content: string }[])[0]?.content).toBe(
      '<h2>1. Scope</h2><p>Carriage under <strong>these terms</strong> only.</p><p><a target="_blank" rel="noopener noreferrer nofollow">click</a></p>',
    )
    expect(stored.newContactInformation).toBe('<p>Check the <em>consignee</em> <span>twice</span>.</p>')
    const site = await call('GET', '/api/b2b/public/api/site/settings', null)
    expect((site.content.serviceAgreementList as { content: string }[])[0]?.content).toBe(
      (stored.serviceAgreementList as { content: string }[])[0]?.content,
    )
    // A text stored before the field was rich (another path, an old row) reaches visitors as escaped paragraphs.
    await sql`update tenant set settings = jsonb_set(settings, '{privacyAgreementList}', ${JSON.stringify([
      { language: 'en', title: 'Privacy', content: 'We keep <your> data.\nOnly here.\n\nAsk us & we delete it.' },
    ])}::jsonb) where code = 'demo'`.execute(test.database.db)
    const resolver = await import('../../server/tenancy/resolve.ts')
    resolver.forgetTenantHosts()
    const old = await call('GET', '/api/b2b/public/api/site/settings', null)
    expect((old.content.privacyAgreementList as { content: string }[])[0]?.content).toBe(
      '<p>We keep &lt;your&gt; data.<br>Only here.</p><p>Ask us &amp; we delete it.</p>',
    )
    const back = await call('POST', '/api/b2b/site/settings/save', token, { ...record, version: saved.content.version })
    expect(back.code, JSON.stringify(back)).toBe('0000')
  })

  it('refuses values outside the YAML in the caller language and saves nothing', async () => {
    const token = await test.login('opadmin')
    const before = await storedSettings('demo')
    const bad = await call('POST', '/api/b2b/site/settings/save', token, {
      websiteName: '华远国际物流',
      themeColor: '#123456',
      pageTemplate: 6,
      homeMode: 1,
      transportationSupport: [1],
      mail: 'not-a-mail',
    })
    expect(bad.code).toBe('validation')
    const fields = (bad.content.fieldErrors ?? []).map((e) => e.field).sort()
    expect(fields).toEqual(expect.arrayContaining(['mail', 'pageTemplate', 'themeColor']))
    expect(await storedSettings('demo')).toEqual(before)
  })

  it('takes a logo of 105×45 and serves it to visitors; refuses an oversize and a wrongly sized image naming the limit', async () => {
    const token = await test.login('opadmin')
    const big = await upload(token, 'logo', 'logo.png', png(105, 45, [200, 30, 30], 1100))
    expect(big.status).toBe(413)
    expect(big.body.message).toContain('1 MB')
    const wrong = await upload(token, 'logo', 'logo.png', png(200, 80))
    expect(wrong.body.code).toBe('validation')
    expect(wrong.body.message).toBe('Wrong image size: logo.png is 200×80 pixels; this takes exactly 105×45 pixels')
    const zh = await upload(token, 'logo', 'logo.png', png(200, 80), 'zh_CN')
    expect(zh.body.message).toBe('图片尺寸不符：logo.png 为 200×80 像素，此处须为 105×45 像素')
    const icon = await upload(token, 'icon', 'favicon.ico', ico([16, 32]))
    expect(icon.body.message).toContain('32×32')
    const iconTooBig = await upload(token, 'icon', 'favicon.png', png(32, 32, [1, 2, 3], 310))
    expect(iconTooBig.status).toBe(413)
    expect(iconTooBig.body.message).toContain('300 KB')

    const good = await upload(token, 'logo', 'logo.png', png(105, 45))
    expect(good.body.code, JSON.stringify(good.body)).toBe('0000')
    const uuid = good.body.content.uuid as string
    const record = (await call('GET', '/api/b2b/site/settings/detail?id=1', token)).content
    const saved = await call('POST', '/api/b2b/site/settings/save', token, { ...record, logo: uuid })
    expect(saved.code, JSON.stringify(saved)).toBe('0000')
    const site = await call('GET', '/api/b2b/public/api/site/settings', null)
    const logoUrl = (site.content.logoList as { url: string }[])[0]?.url
    expect(logoUrl).toBe(`/api/b2b/public/api/site/image?uuid=${uuid}`)
    const image = await test.app.inject({ method: 'GET', url: logoUrl as string, headers: { host: 'localhost' } })
    expect([image.statusCode, image.headers['content-type']]).toEqual([200, 'image/png'])
    expect(image.rawPayload.equals(png(105, 45))).toBe(true)
    // acme's host does not serve demo's logo.
    const elsewhere = await test.app.inject({
      method: 'GET',
      url: logoUrl as string,
      headers: { host: 'acme.localhost' },
    })
    expect(elsewhere.statusCode).toBe(404)
  })

  it('refuses at save an image that is not an upload of its field, or whose bytes are the wrong size; nothing saved', async () => {
    const token = await test.login('opadmin')
    const record = (await call('GET', '/api/b2b/site/settings/detail?id=1', token)).content
    const before = await storedSettings('demo')
    // A good 32×32 icon is not a logo: uploaded for another field.
    const icon = await upload(token, 'icon', 'favicon.png', png(32, 32))
    expect(icon.body.code).toBe('0000')
    const wrongField = await call('POST', '/api/b2b/site/settings/save', token, {
      ...record,
      logo: icon.body.content.uuid,
    })
    expect(wrongField.code).toBe('validation')
    expect(wrongField.content.fieldErrors?.[0]).toMatchObject({ field: 'logo' })
    // A background whose stored bytes are not 1920×1080 (written past the upload check).
    const { rows } = await sql<{ id: string }>`
      insert into file (tenant_id, entity, field, name, content_type, size, sha256, storage, bytes, visibility)
      values (1, 'siteSettingsForm', 'backgroundImages', 'hero.png', 'image/png', 100, 'x', 'db',
              ${png(1280, 720)}, 'public')
      returning id`.execute(test.database.db)
    const sneaked = await call('POST', '/api/b2b/site/settings/save', token, {
      ...record,
      backgroundImages: [rows[0]?.id],
    })
    expect(sneaked.code).toBe('validation')
    expect(JSON.stringify(sneaked.content.fieldErrors)).toContain('1920×1080')
    // More than 3 backgrounds is the YAML's refusal.
    const four = await call('POST', '/api/b2b/site/settings/save', token, {
      ...record,
      backgroundImages: ['/a.png', '/b.png', '/c.png', '/d.png'],
    })
    expect(four.code).toBe('validation')
    expect(await storedSettings('demo')).toEqual(before)
  })

  it("takes the tenant's operation accounts as operating-order reviewers, and nobody else", async () => {
    const token = await test.login('opadmin')
    const { rows } = await sql<{ id: number; username: string; tenant: string }>`
      select u.id, u.username, t.code as tenant from app_user u join tenant t on t.id = u.tenant_id
      where u.username in ('opcs', 'entadmin', 'opadmin')`.execute(test.database.db)
    const id = (username: string, tenant: string) =>
      rows.find((row) => row.username === username && row.tenant === tenant)?.id as number
    const record = (await call('GET', '/api/b2b/site/settings/detail?id=1', token)).content
    const customer = await call('POST', '/api/b2b/site/settings/save', token, {
      ...record,
      operatingOrderReviewReceiver: [id('opcs', 'demo'), id('entadmin', 'demo')],
    })
    expect(customer.code).toBe('validation')
    expect(customer.content.fieldErrors?.[0]).toMatchObject({
      field: 'operatingOrderReviewReceiver',
      message: 'Reviewers must be enabled operation accounts of this site',
    })
    const acmeStaff = await call('POST', '/api/b2b/site/settings/save', token, {
      ...record,
      operatingOrderReviewReceiver: [id('opadmin', 'acme')],
    })
    expect(acmeStaff.code).toBe('validation')
    const saved = await call('POST', '/api/b2b/site/settings/save', token, {
      ...record,
      operatingOrderReviewReceiver: [id('opcs', 'demo')],
    })
    expect(saved.code, JSON.stringify(saved)).toBe('0000')
    expect((await storedSettings('demo')).operatingOrderReviewReceiver).toEqual([id('opcs', 'demo')])
  })

  it('is for the operation administrator: a customer is refused, another tenant id is not found', async () => {
    const customer = await test.login('entadmin')
    expect((await call('POST', '/api/b2b/site/settings/list', customer, { pageNum: 1, pageSize: 1 })).code).toBe(
      '220000',
    )
    expect((await call('POST', '/api/b2b/site/settings/save', customer, { websiteName: 'x' })).code).toBe('220000')
    expect((await upload(customer, 'logo', 'logo.png', png(105, 45))).body.code).toBe('220000')
    const token = await test.login('opadmin')
    expect((await call('GET', '/api/b2b/site/settings/detail?id=2', token)).code).toBe('404')
    const acme = await test.login('opadmin', 'acme.localhost')
    const acmePage = await call(
      'POST',
      '/api/b2b/site/settings/list',
      acme,
      { pageNum: 1, pageSize: 1 },
      'acme.localhost',
    )
    expect((acmePage.content.list as { websiteName: string }[])[0]?.websiteName).toBe('艾克美物流')
  })
})
