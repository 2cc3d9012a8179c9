import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { channelFor } from '../../server/jobs/channels.ts'
import { registerBuiltInChannels } from '../../server/jobs/index.ts'
import { outboxBody } from '../../server/jobs/sealed.ts'
import { OutboxWorker } from '../../server/jobs/worker.ts'
import { withTenant } from '../../server/tenancy/scope.ts'
import { setupTestApp } from '../support/app.ts'
import { startSmtp } from '../support/smtp.ts'

/**
 * Platform tenants (issue #25): the platform administrator makes a tenant whole in one call — its host answers
 * its own site at once, its first operation administrator's invitation arrives by mail (a real SMTP server), its
 * preset roles, order-number rule and default settings exist — and suspends it: its sign-ins and every call
 * answer 110001 in the caller's language, its pages say so (403, not a server error), its data stays; resuming
 * brings both back. Another tenant is unchanged; nobody but the platform's own walltechAdmin holders gets in,
 * and every change leaves a row in the platform's log.
 */

const test = setupTestApp()
const dataDir = mkdtempSync(join(tmpdir(), 'waybill-platform-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

const PAGE = '/api/b2b/platform/tenant/page'
const DETAIL = '/api/b2b/platform/tenant/detail'
const SAVE = '/api/b2b/platform/tenant/save'
const STATE = '/api/b2b/platform/tenant/state'
const SITE = '/api/b2b/public/api/site/settings'
const STAR = 'star.localhost'

let address = 1
function call(token: string | null, method: 'GET' | 'POST', url: string, payload?: object, host = 'localhost') {
  return test.app.inject({
    method,
    url,
    headers: {
      host,
      resource: '1',
      language: 'en_US',
      'x-forwarded-for': `10.77.0.${address++ % 250}`,
      ...(token ? { cookie: `b2b_token=${token}` } : {}),
    },
    ...(payload ? { payload } : {}),
  })
}

function login(host: string, username: string, password: string, language = 'en_US') {
  return test.app.inject({
    method: 'POST',
    url: '/api/b2b/user/login',
    headers: { host, resource: '1', language, 'x-forwarded-for': `10.78.0.${address++ % 250}` },
    payload: { username, password },
  })
}

const STAR_TENANT = {
  code: 'star',
  nameZh: '宁波星辰物流有限公司',
  nameEn: 'Ningbo Star Logistics',
  websiteDomainName: STAR,
  websiteName: '星辰物流',
  websiteNameEn: 'Star Logistics',
  tenantVersion: 'standard',
  adminUsername: 'staradmin',
  adminName: '王星',
  adminEmail: 'admin@star-logistics.example',
}

describe('platform tenants', () => {
  let starId = 0
  let starPassword = ''

  it('refuses everyone but the platform tenant’s walltechAdmin holders, and changes nothing', async () => {
    const opadmin = await test.login('opadmin')
    expect((await call(opadmin, 'POST', PAGE, { pageNum: 1, pageSize: 10 })).json().code).toBe('220000')
    const refused = await call(opadmin, 'POST', SAVE, STAR_TENANT)
    expect(refused.json().code).toBe('220000')
    expect((await call(null, 'POST', PAGE, { pageNum: 1, pageSize: 10 })).json().code).toBe('401')
    // A system administrator holds every permission, walltechAdmin included; on a tenant that is not the
    // platform's own it reaches no other tenant.
    await withTenant(test.database.api, 2, async (trx) => {
      const user = await trx
        .selectFrom('app_user')
        .select('id')
        .where('username', '=', 'opadmin')
        .executeTakeFirstOrThrow()
      const role = await trx
        .selectFrom('role')
        .select('id')
        .where('code', '=', 'SystemAdministrator')
        .executeTakeFirstOrThrow()
      await trx.updateTable('user_role').set({ role_id: role.id }).where('user_id', '=', user.id).execute()
    })
    const acmeAdmin = await test.login('opadmin', 'acme.localhost')
    const acmeCall = (url: string, payload: object) => call(acmeAdmin, 'POST', url, payload, 'acme.localhost')
    expect((await acmeCall(PAGE, { pageNum: 1, pageSize: 10 })).json().code).toBe('220000')
    expect((await acmeCall(SAVE, STAR_TENANT)).json().code).toBe('220000')
    expect((await acmeCall(STATE, { id: 1, state: 0 })).json().code).toBe('220000')
    // The database function checks the caller again: a tenant user without walltechAdmin cannot call it directly.
    const direct = withTenant(test.database.api, 1, async (trx) => {
      const { id } = await trx
        .selectFrom('app_user')
        .select('id')
        .where('username', '=', 'opadmin')
        .executeTakeFirstOrThrow()
      await sql`select platform_tenant_create(${id}, 'sneak', 'x', 'x', 'basic', '{}'::jsonb, array['sneak.localhost'])`.execute(
        trx,
      )
    })
    await expect(direct).rejects.toThrow(/no platform administrator/)
    // …nor can the API's role write the tenant tables itself: no general bypass.
    const raw = withTenant(test.database.api, 1, (trx) =>
      sql`insert into tenant (code, name_zh, name_en) values ('raw', 'x', 'x')`.execute(trx),
    )
    await expect(raw).rejects.toThrow(/permission denied/)
    const count = await test.database.db
      .selectFrom('tenant')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirst()
    expect(count?.n).toBe(2)
  })

  it('lists the tenants with SPEC §3’s search', async () => {
    const platform = await test.login('platform')
    const all = (await call(platform, 'POST', PAGE, { pageNum: 1, pageSize: 10 })).json()
    expect(all.code).toBe('0000')
    expect(all.content.total).toBe(2)
    const acme = (
      await call(platform, 'POST', PAGE, { pageNum: 1, pageSize: 10, searchParams: { websiteDomainName: 'acme' } })
    ).json()
    expect(acme.content.list.map((t: { code: string }) => t.code)).toEqual(['acme'])
    expect(acme.content.list[0]).toMatchObject({ tenantVersion: 'standard', state: 1, websiteNameEn: 'Acme Logistics' })
  })

  it('makes a tenant whole: its host answers its site, its administrator is invited by mail', async () => {
    const platform = await test.login('platform')
    // Before: no site on that host (and the resolver may have cached that).
    expect((await call(null, 'GET', SITE, undefined, STAR)).statusCode).toBe(404)
    const made = (await call(platform, 'POST', SAVE, STAR_TENANT)).json()
    expect(made.code, JSON.stringify(made)).toBe('0000')
    starId = made.content.id
    expect(made.content).toMatchObject({
      code: 'star',
      websiteDomainName: STAR,
      tenantVersion: 'standard',
      state: 1,
      features: ['inquiryAllowed', 'showSeaFreightTerms', 'operatingOrderIfModify'],
    })
    // The host answers the new tenant's own site at once (no restart, no wait for the cache).
    const site = (await call(null, 'GET', SITE, undefined, STAR)).json()
    expect(site.code).toBe('0000')
    expect(JSON.stringify(site.content)).toContain('Star Logistics')
    // Preset roles, the order-number rule and default settings exist, held to the new tenant.
    await withTenant(test.database.api, starId, async (trx) => {
      const roles = await trx.selectFrom('role').select('code').where('preset', '=', true).execute()
      expect(roles.map((r) => r.code)).toEqual(
        expect.arrayContaining(['OperationAdministrator', 'SystemAdministrator']),
      )
      const { rows } = await sql<{ prefix: string }>`select prefix from order_number_rule`.execute(trx)
      expect(rows).toEqual([{ prefix: 'STAR' }])
    })
    const tenant = await test.database.db
      .selectFrom('tenant')
      .select(['settings', 'platform'])
      .where('id', '=', starId)
      .executeTakeFirstOrThrow()
    expect(tenant.platform).toBe(false)
    expect(tenant.settings).toMatchObject({ themeColor: '#409eff', companyDomainName: STAR, inquiryAllowed: true })
    // The invitation goes out through the outbox to a real SMTP server.
    // Only the new tenant's mail is due here (the seed's letters are another test's).
    await sql`update outbox set sent_at = now() where sent_at is null and tenant_id <> ${starId}`.execute(
      test.database.db,
    )
    const smtp = await startSmtp()
    try {
      registerBuiltInChannels()
      const worker = new OutboxWorker({ db: test.database.api, dataDir, env: { SMTP_URL: smtp.url }, retryBaseMs: 40 })
      for (let i = 0; i < 5 && !smtp.received.some((m) => m.to.includes('admin@star-logistics.example')); i++) {
        await worker.runOnce()
        await new Promise((r) => setTimeout(r, 100))
      }
      const mail = smtp.received.find((m) => m.to.includes('admin@star-logistics.example'))
      expect(mail?.subject).toContain('星辰物流')
      expect(mail?.text).toContain('staradmin')
      expect(mail?.text).toContain(`http://${STAR}`)
      starPassword = /初始密码：(\S+)/.exec(mail?.text ?? '')?.[1] ?? ''
    } finally {
      // The mail channel keeps its connection for the next message: closed first, the server stops at once.
      await channelFor('mail')?.close?.()
      await smtp.close()
    }
    expect(starPassword).toMatch(/^.{12}$/)
    const signedIn = await login(STAR, 'staradmin', starPassword)
    expect(signedIn.json().code).toBe('0000')
    // A second tenant on a domain already taken is refused under the field, naming the domain; nothing is made.
    const taken = (
      await call(platform, 'POST', SAVE, { ...STAR_TENANT, code: 'star2', websiteDomainName: 'acme.localhost' })
    ).json()
    expect(taken.code).toBe('validation')
    expect(taken.content.fieldErrors).toEqual([
      expect.objectContaining({ field: 'websiteDomainName', message: expect.stringContaining('acme.localhost') }),
    ])
    expect(await test.database.db.selectFrom('tenant').select('id').where('code', '=', 'star2').execute()).toEqual([])
  })

  it('writes a tenant made in English in English: its preset roles, its invitation, its default language', async () => {
    const platform = await test.login('platform')
    const made = (
      await call(platform, 'POST', SAVE, {
        ...STAR_TENANT,
        code: 'bay',
        nameEn: 'Bay Freight Forwarding',
        websiteDomainName: 'bay.localhost',
        websiteNameEn: 'Bay Freight',
        adminUsername: 'bayadmin',
        adminEmail: 'admin@bay-freight.example',
        defaultLanguage: 'en',
      })
    ).json()
    expect(made.code, JSON.stringify(made)).toBe('0000')
    expect(made.content.defaultLanguage).toBe('en')
    await withTenant(test.database.api, made.content.id, async (trx) => {
      const role = await trx
        .selectFrom('role')
        .select('name')
        .where('code', '=', 'OperationAdministrator')
        .executeTakeFirst()
      expect(role?.name).toBe('Operations administrator')
      const invitation = await trx.selectFrom('outbox').select(['kind', 'payload']).executeTakeFirstOrThrow()
      const letter = outboxBody(invitation.kind, invitation.payload)
      expect(letter.subject).toBe('Bay Freight: your administrator account is ready')
      expect(letter.text).toContain('Initial password: ')
    })
    // Left out of a change, the language stays; the default for a new tenant is Chinese (STAR above).
    const bay = {
      ...STAR_TENANT,
      code: 'bay',
      nameEn: 'Bay Freight Forwarding',
      websiteDomainName: 'bay.localhost',
      adminUsername: 'bayadmin',
      adminEmail: 'admin@bay-freight.example',
    }
    const changed = (
      await call(platform, 'POST', SAVE, {
        ...bay,
        id: made.content.id,
        version: made.content.version,
        websiteNameEn: 'Bay Freight Co.',
      })
    ).json()
    expect(changed.content).toMatchObject({ defaultLanguage: 'en', websiteNameEn: 'Bay Freight Co.' })
    expect((await call(platform, 'GET', `${DETAIL}?id=${starId}`)).json().content.defaultLanguage).toBe('zh')
  })

  it('suspends a tenant: sign-ins, calls and pages refused, data kept; resuming restores them', async () => {
    const platform = await test.login('platform')
    const acmeBefore = (await call(null, 'GET', SITE, undefined, 'acme.localhost')).body
    const suspended = (await call(platform, 'POST', STATE, { id: starId, state: 0 })).json()
    expect(suspended.content.state).toBe(0)
    for (const [language, text] of [
      ['en_US', 'suspended'],
      ['zh_CN', '暂停'],
      ['ja_JP', '停止'],
      ['es_ES', 'suspendido'],
    ] as const) {
      const refused = await login(STAR, 'staradmin', starPassword, language)
      expect(refused.statusCode).toBe(200)
      expect(refused.json().code).toBe('110001')
      expect(refused.json().message).toContain(text)
    }
    expect((await call(null, 'GET', SITE, undefined, STAR)).json().code).toBe('110001')
    // Its data is untouched.
    const users = await withTenant(test.database.api, starId, (trx) =>
      trx.selectFrom('app_user').select(['username', 'state']).execute(),
    )
    expect(users).toEqual([{ username: 'staradmin', state: 1 }])
    // Another tenant is unchanged.
    expect((await call(null, 'GET', SITE, undefined, 'acme.localhost')).body).toBe(acmeBefore)
    expect((await login('acme.localhost', 'opadmin', 'Demo@2026')).json().code).toBe('0000')
    // The platform's own tenant cannot be suspended.
    const own = (await call(platform, 'POST', STATE, { id: 1, state: 0 })).json()
    expect(own.code).toBe('validation')
    const resumed = (await call(platform, 'POST', STATE, { id: starId, state: 1 })).json()
    expect(resumed.content.state).toBe(1)
    expect((await login(STAR, 'staradmin', starPassword)).json().code).toBe('0000')
  })

  it('changes a tenant at its version and logs every change', async () => {
    const platform = await test.login('platform')
    const detail = (await call(platform, 'GET', `${DETAIL}?id=${starId}`)).json()
    expect(detail.code).toBe('0000')
    expect(detail.content.history.map((h: { action: string }) => h.action)).toEqual(['update', 'update', 'create'])
    const changed = (
      await call(platform, 'POST', SAVE, {
        ...STAR_TENANT,
        id: starId,
        version: detail.content.version,
        tenantVersion: 'flagship',
        features: ['inquiryAllowed', 'hasBookingAgent'],
      })
    ).json()
    expect(changed.content).toMatchObject({
      tenantVersion: 'flagship',
      features: ['inquiryAllowed', 'hasBookingAgent'],
    })
    const stale = (
      await call(platform, 'POST', SAVE, { ...STAR_TENANT, id: starId, version: detail.content.version })
    ).json()
    expect(stale.code).toBe('330002')
    const after = (await call(platform, 'GET', `${DETAIL}?id=${starId}`)).json()
    expect(after.content.history[0]).toMatchObject({ action: 'update', userName: 'Platform Admin' })
    // The log reads in the form's fields: the version and the features it changed, the settings not dumped whole.
    expect(after.content.history[0].before).toMatchObject({ tenantVersion: 'standard', code: 'star' })
    expect(after.content.history[0].after).toMatchObject({
      tenantVersion: 'flagship',
      features: ['inquiryAllowed', 'hasBookingAgent'],
      websiteDomainName: STAR_TENANT.websiteDomainName,
    })
    expect(after.content.history[0].after).not.toHaveProperty('settings')
  })
})
