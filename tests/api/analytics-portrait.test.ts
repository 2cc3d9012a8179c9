import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { XLSX_TYPE } from '../../server/engine/export/sheet.ts'
import { outboxBody } from '../../server/jobs/sealed.ts'
import { setupTestApp } from '../support/app.ts'
import { readXlsx } from '../support/xlsx.ts'

/**
 * UserPortrait (issue #28; server/domain/analytics/portrait.ts, screens/analytics.yaml userPortrait): the tenant's
 * personal users by region, registration channel, last sign-in and what they asked for, through the HTTP calls an
 * operation administrator makes. A registration with a region moves region and channel, a sign-in moves activity,
 * a rate search moves asks; enterprise users and another tenant's users never count; the export is the answer.
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

async function portrait(group: string, token = opadmin, host = 'localhost'): Promise<Chart> {
  const response = await inject(
    'GET',
    `/b2b/count/personalUserProfile?window=30&group=${group}`,
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

/** The code in the newest message to a mobile number (the outbox is the only place it is in clear). */
async function codeSentTo(to: string): Promise<string> {
  const row = await test.database.db
    .selectFrom('outbox')
    .select(['kind', 'payload'])
    .where(sql<boolean>`payload->>'to' = ${to}`)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow()
  const code = /(\d{6})/.exec(outboxBody(row.kind, row.payload).text)?.[1]
  if (!code) throw new Error(`no code sent to ${to}`)
  return code
}

async function register(username: string, mobile: string, extra: Record<string, unknown> = {}, host = 'localhost') {
  expect((await inject('POST', '/b2b/user/sendRegisterSms', undefined, { key: mobile }, host)).json().code).toBe('0000')
  const code = await codeSentTo(mobile)
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

  it('exports the rows of the answer as .xlsx', async () => {
    for (const group of ['region', 'asks']) {
      const figures = await portrait(group)
      const file = await inject('GET', `/b2b/count/export/userPortraitExportExcel?window=30&group=${group}`, opadmin)
      expect(file.statusCode).toBe(200)
      expect(file.headers['content-type']).toContain(XLSX_TYPE)
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
  })
})
