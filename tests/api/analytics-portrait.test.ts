import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { fillUserAsks } from '../../server/db/migrations/0040_user_asks.ts'
import { pruneAnalyticsActors } from '../../server/domain/analytics/prune.ts'
import { XLSX_TYPE } from '../../server/engine/export/sheet.ts'
import { setupTestApp } from '../support/app.ts'
import { inDays, now } from '../support/clock.ts'
import { codeSentTo } from '../support/codes.ts'
import { seaInquiry } from '../support/fixtures.ts'
import { readXlsx } from '../support/xlsx.ts'

/**
 * UserPortrait (issue #28; server/domain/analytics/portrait.ts, screens/analytics.yaml userPortrait): the tenant's
 * personal users by region, registration channel, last sign-in and what they asked for, through the HTTP calls an
 * operation administrator makes. A registration with a region moves region and channel, a sign-in moves activity,
 * a rate search or an inquiry moves asks; enterprise users, another tenant's users and users registered after the
 * window's end never count; the export is the answer.
 */
const test = setupTestApp()
let opadmin = ''
let nextIp = 1

interface Chart {
  days: string[]
  group?: string
  categories?: { key: string; label: string }[]
  series: { key: string; label: string; values: number[]; total: number }[]
}

function inject(method: 'GET' | 'POST', url: string, token?: string, payload?: object, host = 'localhost') {
  return test.app.inject({
    method,
    url: `/api${url}`,
    headers: {
      host,
      language: 'en_US',
      resource: '1',
      'x-forwarded-for': `10.28.0.${nextIp++ % 250}`,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(payload ? { payload } : {}),
  })
}

async function portrait(group: string, token = opadmin, host = 'localhost', window = 'window=30'): Promise<Chart> {
  const response = await inject(
    'GET',
    `/b2b/count/personalUserProfile?${window}&group=${group}`,
    token,
    undefined,
    host,
  )
  expect(response.json().code, response.body.slice(0, 300)).toBe('0000')
  return response.json().content as Chart
}

/** The users counted under a category of a group (0 when it is not there), and its label. */
function count(chart: Chart, key: string): number {
  const at = chart.categories?.findIndex((c) => c.key === key) ?? -1
  return at < 0 ? 0 : (chart.series[0]?.values[at] ?? 0)
}

async function register(username: string, mobile: string, extra: Record<string, unknown> = {}, host = 'localhost') {
  expect((await inject('POST', '/b2b/user/sendRegisterSms', undefined, { key: mobile }, host)).json().code).toBe('0000')
  const code = await codeSentTo(test.database.db, mobile)
  return inject(
    'POST',
    '/b2b/user/register',
    undefined,
    {
      username,
      password: 'Freight@2026',
      confirmPassword: 'Freight@2026',
      mobile,
      code,
      agreement: true,
      ...extra,
    },
    host,
  )
}

async function signIn(username: string, host = 'localhost'): Promise<string> {
  const response = await inject('POST', '/b2b/user/login', undefined, { username, password: 'Freight@2026' }, host)
  expect(response.json().code).toBe('0000')
  return response.json().token as string
}

const search = (token: string, mode: string) =>
  inject('POST', '/price/public/api/rate/search', token, {
    mode,
    origin: 'CNSHA',
    destination: 'USLAX',
    ...(mode === 'FCL' ? { containerType: '45G1' } : {}),
  })

/** The tenant's personal users, as the superuser counts them (no company, enterprise side). */
async function personalUsers(code: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from app_user u join tenant t on t.id = u.tenant_id
    where t.code = ${code} and u.company_id is null and u.company_user_type = 2`.execute(test.database.db)
  return rows[0]?.n ?? 0
}

const total = (chart: Chart) => chart.series[0]?.total ?? 0

beforeAll(async () => {
  opadmin = await test.login('opadmin')
})

describe('UserPortrait', () => {
  it('counts a registration with a region under its country and its channel, labelled in the reader’s language', async () => {
    const regions = await portrait('region')
    const channels = await portrait('channel')
    expect(regions.days).toEqual([])
    expect(regions.group).toBe('region')
    // Every personal user once, and no one else: the seeded `personal` (CN) among them.
    expect(total(regions)).toBe(await personalUsers('demo'))
    expect(count(regions, 'CN')).toBeGreaterThanOrEqual(1)

    const refused = await register('tokyoshipper', '13700002811', { region: 'ZZ' })
    expect(refused.statusCode).toBe(400)
    expect(refused.json().content.fieldErrors).toContainEqual(
      expect.objectContaining({ field: 'region', key: 'validation.unknownReference' }),
    )
    const created = await register('tokyoshipper', '13700002801', { region: 'JP' })
    expect(created.json().code).toBe('0000')

    const after = await portrait('region')
    expect(count(after, 'JP')).toBe(count(regions, 'JP') + 1)
    expect(after.categories?.find((c) => c.key === 'JP')?.label).toBe('Japan')
    expect(total(after)).toBe(total(regions) + 1)
    const channelsAfter = await portrait('channel')
    expect(count(channelsAfter, 'mobile')).toBe(count(channels, 'mobile') + 1)
    expect(channelsAfter.categories?.find((c) => c.key === 'mobile')?.label).toBe('Mobile number')

    // The profile moves the region: the user now ships from Korea.
    const token = await signIn('tokyoshipper')
    const me = (await inject('GET', '/b2b/user/getCurrentUserInfo', token)).json().content
    expect(me.region).toBe('JP')
    const changed = await inject('POST', '/b2b/user/change/userInfo', token, { realName: 'Sato', region: 'KR' })
    expect(changed.json().content.region).toBe('KR')
    const unknown = await inject('POST', '/b2b/user/change/userInfo', token, { realName: 'Sato', region: 'QQ' })
    expect(unknown.statusCode).toBe(400)
    const moved = await portrait('region')
    expect(count(moved, 'KR')).toBe(count(regions, 'KR') + 1)
    expect(count(moved, 'JP')).toBe(count(regions, 'JP'))
  })

  it('moves a user from “never signed in” to “within 7 days” when they sign in', async () => {
    expect((await register('osakabuyer', '13700002802')).json().code).toBe('0000')
    const before = await portrait('activity')
    await signIn('osakabuyer')
    const after = await portrait('activity')
    expect(count(after, 'never')).toBe(count(before, 'never') - 1)
    expect(count(after, 'd7')).toBe(count(before, 'd7') + 1)
    expect(total(after)).toBe(total(before))
    expect(after.categories?.find((c) => c.key === 'd7')?.label).toBe('Within 7 days')
  })

  it('counts a personal user’s rate search under its mode once, and not an enterprise user’s', async () => {
    expect((await register('airbuyer', '13700002803', { region: 'DE' })).json().code).toBe('0000')
    const token = await signIn('airbuyer')
    const before = await portrait('asks')
    expect((await search(token, 'AIR')).json().code).toBe('0000')
    expect((await search(token, 'AIR')).json().code).toBe('0000')
    const after = await portrait('asks')
    expect(count(after, 'AIR')).toBe(count(before, 'AIR') + 1)
    expect(after.categories?.find((c) => c.key === 'AIR')?.label).toBe('Air rates')

    // An enterprise user searches and signs in: no group moves.
    const regions = await portrait('region')
    const activity = await portrait('activity')
    const entadmin = await test.login('entadmin')
    expect((await search(entadmin, 'LCL')).json().code).toBe('0000')
    expect(await portrait('asks')).toEqual(after)
    expect(await portrait('region')).toEqual(regions)
    expect(await portrait('activity')).toEqual(activity)
  })

  it('counts in every group, asks included, only the personal users registered by the window’s end', async () => {
    expect((await register('laterbuyer', '13700002805', { region: 'VN' })).json().code).toBe('0000')
    const token = await signIn('laterbuyer')
    expect((await search(token, 'LCL')).json().code).toBe('0000')
    const groups = ['region', 'channel', 'activity', 'asks'] as const
    const counted = new Map<string, Chart>()
    for (const group of groups) counted.set(group, await portrait(group))
    // The account's registration as recorded after the window's end (tomorrow, tenant time — an imported account,
    // a replica's clock ahead): it is in none of the window's groups, though it searched within the window.
    const tomorrow = new Date(now().getTime() + 86_400_000)
    await sql`update app_user set created_at = ${tomorrow} where username = 'laterbuyer'`.execute(test.database.db)
    const asks = await portrait('asks')
    expect(count(asks, 'LCL')).toBe(count(counted.get('asks') as Chart, 'LCL') - 1)
    expect(count(await portrait('region'), 'VN')).toBe(count(counted.get('region') as Chart, 'VN') - 1)
    for (const group of ['region', 'channel', 'activity'] as const)
      expect(total(await portrait(group))).toBe(total(counted.get(group) as Chart) - 1)
    // Registered by the window's end again: counted again, under what it asked for.
    await sql`update app_user set created_at = ${now()} where username = 'laterbuyer'`.execute(test.database.db)
    expect(await portrait('asks')).toEqual(counted.get('asks'))
  })

  it('counts a search in a window that holds its day only', async () => {
    expect((await register('seabuyer', '13700002806')).json().code).toBe('0000')
    const token = await signIn('seabuyer')
    const ranges = [`beginDate=${inDays(-20)}&endDate=${inDays(-1)}`, `beginDate=${inDays(-20)}&endDate=${inDays(0)}`]
    const before = await Promise.all(ranges.map((range) => portrait('asks', opadmin, 'localhost', range)))
    expect((await search(token, 'FCL')).json().code).toBe('0000')
    const after = await Promise.all(ranges.map((range) => portrait('asks', opadmin, 'localhost', range)))
    // Searched today: not in a range that ended yesterday, once in one that ends today.
    expect(after[0]).toEqual(before[0])
    expect(count(after[1] as Chart, 'FCL')).toBe(count(before[1] as Chart, 'FCL') + 1)
  })

  it('counts the inquiries of a user who is a personal user now, once', async () => {
    const operator = await test.login('entop')
    const before = await portrait('asks')
    for (const origin of ['CNSHA', 'CNNGB']) {
      const sent = await inject('POST', '/booking/inquiry/save', operator, seaInquiry({ origin }))
      expect(sent.json().code, sent.body.slice(0, 300)).toBe('0000')
    }
    // An enterprise user's inquiries are not a personal user's.
    expect(count(await portrait('asks'), 'inquiry')).toBe(count(before, 'inquiry'))
    // They leave their enterprise and are a personal user again: what they asked for counts, the inquiry once.
    const accounts = (await inject('POST', '/b2b/user/companyUserList', operator, {})).json().content.list
    const account = accounts[0] as { id: number; version: number }
    const left = await inject('POST', '/companyMember/transition', operator, {
      id: account.id,
      version: account.version,
      transition: 'leave',
    })
    expect(left.json().code, left.body.slice(0, 300)).toBe('0000')
    const after = await portrait('asks')
    expect(count(after, 'inquiry')).toBe(count(before, 'inquiry') + 1)
    expect(after.categories?.find((c) => c.key === 'inquiry')?.label).toBe('Inquiries')
  })

  it('never counts another tenant’s users', async () => {
    const demo = await portrait('region')
    const acmeAdmin = await test.login('opadmin', 'acme.localhost')
    const acme = await portrait('region', acmeAdmin, 'acme.localhost')
    expect(total(acme)).toBe(await personalUsers('acme'))
    expect(count(acme, 'JP') + count(acme, 'KR') + count(acme, 'DE')).toBe(0)
    // A personal user of acme's counts on acme's chart only.
    expect((await register('madridshipper', '13700002804', { region: 'ES' }, 'acme.localhost')).json().code).toBe(
      '0000',
    )
    expect(count(await portrait('region', acmeAdmin, 'acme.localhost'), 'ES')).toBe(count(acme, 'ES') + 1)
    expect(await portrait('region')).toEqual(demo)
    // acme's administrator on demo's host is not demo's: the session is refused there.
    expect((await inject('GET', '/b2b/count/personalUserProfile?group=region', acmeAdmin)).statusCode).toBe(401)
  })

  it('refuses a group the screen does not offer', async () => {
    const response = await inject('GET', '/b2b/count/personalUserProfile?window=30&group=lane', opadmin)
    expect(response.statusCode).toBe(400)
    expect(response.json().content.fieldErrors).toContainEqual(
      expect.objectContaining({ field: 'group', key: 'validation.enum' }),
    )
  })

  it('exports the rows of the answer as .xlsx on SPEC §7’s POST, the query its body', async () => {
    for (const group of ['region', 'asks']) {
      const figures = await portrait(group)
      const file = await inject('POST', '/b2b/count/export/userPortraitExportExcel', opadmin, { window: '30', group })
      expect(file.statusCode, file.body.slice(0, 300)).toBe(200)
      expect(file.headers['content-type']).toContain(XLSX_TYPE)
      expect(file.headers['content-disposition']).toMatch(
        /^attachment; filename="userPortrait-\d{4}-\d{2}-\d{2}\.xlsx"$/,
      )
      const sheet = await readXlsx(file.rawPayload)
      const groupLabel = group === 'region' ? 'Country/Region' : 'What they ask for'
      expect(sheet.headers).toEqual([groupLabel, 'Personal users'])
      const read = sheet.rows.map((row) => row.map((cell) => cell.value))
      expect(read.slice(0, -1)).toEqual(
        (figures.categories ?? []).map((c, i) => [c.label, figures.series[0]?.values[i]]),
      )
      expect(read.at(-1)).toEqual(['Total', total(figures)])
      expect(read.length).toBeGreaterThan(1)
    }
    // A group the screen does not offer is refused in the body as in the chart call's address; the GET is gone.
    const refused = await inject('POST', '/b2b/count/export/userPortraitExportExcel', opadmin, { group: 'lane' })
    expect(refused.statusCode).toBe(400)
    expect(refused.json().content.fieldErrors).toContainEqual(
      expect.objectContaining({ field: 'group', key: 'validation.enum' }),
    )
    const bounded = await inject('POST', '/b2b/count/export/userPortraitExportExcel', opadmin, {
      group: 'g'.repeat(41),
    })
    expect(bounded.statusCode).toBe(400)
    expect(bounded.json().content.fieldErrors).toContainEqual(
      expect.objectContaining({ field: 'group', key: 'validation.maxLength' }),
    )
    expect((await inject('GET', '/b2b/count/export/userPortraitExportExcel?group=region', opadmin)).statusCode).toBe(
      404,
    )
  })

  it('fills the asks from the kept rows on migrating as the searches and inquiries wrote them', async () => {
    const db = test.database.db
    const rows = async () =>
      (
        await sql<{ row: string }>`
          select tenant_id || ' ' || user_id || ' ' || mode || ' ' || first_day || ' ' || last_day as row
          from analytics_user_ask order by 1`.execute(db)
      ).rows.map((r) => r.row)
    const written = await rows()
    // The seeded year's searches, this file's searches and inquiries, across both tenants.
    expect(written.length).toBeGreaterThan(5)
    expect(written.some((row) => row.includes(' inquiry '))).toBe(true)
    const charts = await Promise.all(['asks', 'region'].map((group) => portrait(group)))
    await sql`delete from analytics_user_ask`.execute(db)
    await fillUserAsks(db as never)
    expect(await rows()).toEqual(written)
    expect(await Promise.all(['asks', 'region'].map((group) => portrait(group)))).toEqual(charts)
  })

  it('keeps what users asked for when the actor rows of closed days are pruned', async () => {
    const asks = await portrait('asks', opadmin, 'localhost', 'window=360')
    expect(total(asks)).toBeGreaterThan(0)
    expect(await pruneAnalyticsActors(test.database.db, test.database.api)).toBeGreaterThan(0)
    expect(await portrait('asks', opadmin, 'localhost', 'window=360')).toEqual(asks)
  })
})
