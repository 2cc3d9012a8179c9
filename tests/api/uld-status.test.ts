import { describe, expect, it } from 'vitest'
import { setupTestApp } from '../support/app.ts'

/**
 * ULD status (issue #23, screens/operations.yaml uldStatus, schemas/uld.yaml): the air desk's unit load
 * devices per flight. The IATA ULD number, the MAWB and the flight number are checked by the entity's
 * patterns with the message in the caller's language; the state moves from planned to broken down one
 * step at a time; customers have no access and each tenant sees its own ULDs only (seed: server/db/seed/ulds.ts).
 */

const test = setupTestApp()

interface FieldError {
  field: string
  key: string
  message: string
}
interface Content extends Row {
  list: Row[]
  total: number
  fieldErrors: FieldError[]
  history: unknown[]
}

interface Row {
  id: number
  version: number
  uldNo: string
  awbNo: string
  state: string
  flightNo: string
}

async function call(
  token: string,
  method: 'GET' | 'POST',
  url: string,
  payload?: object,
  opts: { host?: string; language?: string } = {},
) {
  const response = await test.app.inject({
    method,
    url: method === 'GET' && payload ? `${url}?${new URLSearchParams(payload as Record<string, string>)}` : url,
    headers: { host: opts.host ?? 'localhost', authorization: `Bearer ${token}`, language: opts.language ?? 'en_US' },
    ...(method === 'POST' ? { payload: payload ?? {} } : {}),
  })
  return response.json() as { code: string; message: string; content: Content }
}

const list = (token: string, searchParams: object = {}, host?: string) =>
  call(token, 'POST', '/api/booking/air/uld/list', { searchParams, pageSize: 100 }, { host })

const uld = {
  uldNo: 'PMC60117CA',
  uldType: 'PMC',
  awbNo: '999-32191140',
  pieces: 64,
  weight: 1875.5,
  flightNo: 'CA987',
  flightDate: '2026-03-06',
  origin: 'PVG',
  destination: 'LAX',
}

describe('ULD status', () => {
  it('lists the seeded ULDs of the demo tenant in every state, searchable by number, flight and state', async () => {
    const token = await test.login('opadmin')
    const all = await list(token)
    expect(all.code).toBe('0000')
    const seeded = (all.content.list as Row[]).filter((row) => /(CA|MU|CZ)$/.test(row.uldNo))
    expect(seeded.length).toBeGreaterThanOrEqual(8)
    expect(new Set(seeded.map((row) => row.state))).toEqual(
      new Set(['planned', 'builtUp', 'loaded', 'departed', 'arrived', 'brokenDown']),
    )
    for (const row of seeded) expect(row.uldNo).toMatch(/^[A-Z]{3}\d{4,5}[A-Z0-9]{2}$/)
    const mu583 = await list(token, { flightNo: 'MU583' })
    expect((mu583.content.list as Row[]).map((row) => row.uldNo).sort()).toEqual(['AKE70322MU', 'PAG20417MU'])
    const brokenDown = await list(token, { state: ['brokenDown'] })
    expect((brokenDown.content.list as Row[]).map((row) => row.uldNo).sort()).toEqual(['AKE12345CA', 'PMC31845CA'])
    const byNumber = await list(token, { uldNo: 'RKN112' })
    expect(byNumber.content.total).toBe(1)
  })

  it('refuses a ULD number, MAWB or flight number out of IATA form, in the caller language', async () => {
    const token = await test.login('opadmin')
    for (const uldNo of ['AKE123CA', 'AK12345CA', 'AKE123456CA', 'ake12345ca', 'AKE12345']) {
      const bad = await call(token, 'POST', '/api/booking/air/uld/add', { ...uld, uldNo })
      expect(bad.code, uldNo).toBe('validation')
      expect(bad.content.fieldErrors).toContainEqual(expect.objectContaining({ field: 'uldNo', key: 'rule.uldNo' }))
    }
    const en = await call(token, 'POST', '/api/booking/air/uld/add', {
      ...uld,
      uldType: 'AKE',
      uldNo: 'AKE123CA',
      awbNo: '99912345675',
      flightNo: 'CA-987',
    })
    expect(en.content.fieldErrors.map((e) => e.field).sort()).toEqual(['awbNo', 'flightNo', 'uldNo'])
    const enMessage = en.content.fieldErrors.find((e) => e.field === 'uldNo')?.message
    expect(enMessage).toContain('IATA')
    const mistyped = await call(token, 'POST', '/api/booking/air/uld/add', { ...uld, uldNo: 'AKE60117CA' })
    expect(mistyped.content.fieldErrors).toEqual([expect.objectContaining({ field: 'uldNo', key: 'rule.uldNoOfType' })])
    const zh = await call(
      token,
      'POST',
      '/api/booking/air/uld/add',
      { ...uld, uldType: 'AKE', uldNo: 'AKE123CA' },
      { language: 'zh_CN' },
    )
    expect(zh.content.fieldErrors[0]?.message).toContain('集装器编号')
    expect((await list(token, { uldNo: 'AKE123CA' })).content.total).toBe(0)
  })

  it('moves a ULD from planned to broken down one step at a time', async () => {
    const token = await test.login('opadmin')
    const created = await call(token, 'POST', '/api/booking/air/uld/add', uld)
    expect(created.code, created.message).toBe('0000')
    let row = created.content
    expect(row.state).toBe('planned')
    const early = await call(token, 'POST', '/api/uld/transition', {
      id: row.id,
      version: row.version,
      transition: 'depart',
    })
    expect(early.code).toBe('320001')
    for (const [transition, state] of [
      ['buildUp', 'builtUp'],
      ['load', 'loaded'],
      ['depart', 'departed'],
      ['arrive', 'arrived'],
      ['breakDown', 'brokenDown'],
    ]) {
      const moved = await call(token, 'POST', '/api/uld/transition', { id: row.id, version: row.version, transition })
      expect(moved.code, `${transition}: ${moved.message}`).toBe('0000')
      row = moved.content
      expect(row.state).toBe(state)
    }
    const detail = await call(token, 'GET', '/api/booking/air/uld/detail', { id: String(row.id) })
    expect(detail.content.state).toBe('brokenDown')
    expect(detail.content.history.length).toBeGreaterThanOrEqual(5)
  })

  it('keeps each tenant to its own ULDs and customers out', async () => {
    const demo = await test.login('opadmin')
    const acme = await test.login('opadmin', 'acme.localhost')
    const acmeRows = (await list(acme, {}, 'acme.localhost')).content.list as Row[]
    expect(acmeRows.map((row) => row.uldNo)).toEqual(['AKE99001CA'])
    expect(((await list(demo)).content.list as Row[]).some((row) => row.uldNo === 'AKE99001CA')).toBe(false)
    const demoRow = ((await list(demo, { uldNo: 'PMC31845CA' })).content.list as Row[])[0] as Row
    const peek = await call(
      acme,
      'GET',
      '/api/booking/air/uld/detail',
      { id: String(demoRow.id) },
      { host: 'acme.localhost' },
    )
    expect(peek.code).toBe('404')
    const customer = await test.login('entadmin')
    expect((await list(customer)).code).toBe('220000')
  })
})
