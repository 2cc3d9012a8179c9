import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { dayIn } from '../../rules/calendar.ts'
import { seededVoyages } from '../../server/db/seed/schedules.ts'
import { SAILING_RATE_CONTAINER } from '../../server/domain/schedules/register.ts'
import { now } from '../../server/tenancy/clock.ts'
import { setupTestApp } from '../support/app.ts'
import { caller } from '../support/calls.ts'
import { dcsaErrors } from '../support/dcsa.ts'

/**
 * Sailing schedules (issue #25): the schedule query (POST /booking/basic/getShippingSchedules, the engine's list
 * over the sailing view) by port of loading, port of discharge, carrier and a departure window of at most 90
 * days; the tenant's cheapest matching rate beside each sailing; and the same schedules as DCSA OVS 3.0.2.
 */

const test = setupTestApp()
const SCHEDULES = '/api/booking/basic/getShippingSchedules'
const OVS = '/api/booking/public/api/dcsa/ovs/v3/service-schedules'
const ZONE = 'Asia/Shanghai'

interface Sailing {
  id: number
  carrier: string
  vesselName: string
  vesselImo: string
  voyageNo: string
  serviceCode: string
  pol: string
  pod: string
  etd: string
  eta: string
  cutOff: string | null
  transitDays: number
  rateId: number | null
  rateNo: string | null
  ratePrice: string | null
  rateCurrency: string | null
  labels: Record<string, string>
}

async function search(searchParams: object, options: { host?: string; language?: string; pageSize?: number } = {}) {
  const response = await caller(test)(
    'POST',
    SCHEDULES,
    null,
    { searchParams, pageSize: options.pageSize ?? 200 },
    options,
  )
  return response
}

async function sailings(searchParams: object, host?: string): Promise<{ list: Sailing[]; total: number }> {
  const response = await search(searchParams, { host })
  expect(response.statusCode, response.body).toBe(200)
  return response.json().content
}

/** The seed's sailings from one port to another still to leave, as the pure seed names them. */
function expected(pol: string, pod: string, carrier?: string) {
  const at = now().getTime()
  return seededVoyages().flatMap((voyage) => {
    if (carrier && voyage.carrier !== carrier) return []
    const from = voyage.calls.find((c) => c.port === pol)
    const to = voyage.calls.find((c) => c.port === pod)
    return from && to && from.sequence < to.sequence && from.etd.getTime() > at ? [{ voyage, from, to }] : []
  })
}

describe('the schedule query', () => {
  it('finds every sailing still to leave from Shanghai to Los Angeles, the next first, for a visitor', async () => {
    const { list, total } = await sailings({ pol: 'CNSHA', pod: 'USLAX' })
    const seeded = expected('CNSHA', 'USLAX')
    expect(seeded.length).toBeGreaterThan(20)
    expect(total).toBe(seeded.length)
    expect(list).toHaveLength(seeded.length)
    for (const s of list) {
      expect([s.pol, s.pod]).toEqual(['CNSHA', 'USLAX'])
      expect(Date.parse(s.etd)).toBeGreaterThan(now().getTime())
      expect(Date.parse(s.eta)).toBeGreaterThan(Date.parse(s.etd))
      expect(s.transitDays).toBe(Math.ceil((Date.parse(s.eta) - Date.parse(s.etd)) / 86_400_000))
      // The container yard closes before the vessel leaves the port of loading.
      expect(Date.parse(s.cutOff as string)).toBeLessThan(Date.parse(s.etd))
      expect(s.vesselImo).toMatch(/^\d{7}$/)
    }
    const etds = list.map((s) => s.etd)
    expect(etds).toEqual([...etds].sort())
    // The carriers of the trans-Pacific services, each with its vessels.
    expect(new Set(list.map((s) => s.carrier))).toEqual(new Set(['COSU', 'MAEU', 'OOLU']))
    const first = list[0] as Sailing
    const next = seeded.sort((a, b) => a.from.etd.getTime() - b.from.etd.getTime())[0]
    expect(first).toMatchObject({
      vesselName: next?.voyage.vesselName,
      voyageNo: next?.voyage.voyageNo,
      etd: next?.from.etd.toISOString(),
      eta: next?.to.eta.toISOString(),
    })
  })

  it('narrows by carrier and names ports and carriers in the reader’s language', async () => {
    const { list, total } = await sailings({ pol: 'CNSHA', pod: 'USLAX', carrier: 'COSU' })
    expect(total).toBe(expected('CNSHA', 'USLAX', 'COSU').length)
    expect(total).toBeGreaterThan(0)
    expect(list.every((s) => s.carrier === 'COSU' && s.serviceCode === 'AAC')).toBe(true)
    const english = await search({ pol: 'CNSHA', pod: 'USLAX', carrier: 'COSU' }, { language: 'en_US' })
    expect(english.json().content.list[0].labels).toMatchObject({ pol: 'Shanghai', pod: 'Los Angeles' })
    // Ningbo to Rotterdam: the Asia–North Europe services only.
    const europe = await sailings({ pol: 'CNNGB', pod: 'NLRTM' })
    expect(europe.total).toBe(expected('CNNGB', 'NLRTM').length)
    expect(new Set(europe.list.map((s) => s.carrier))).toEqual(new Set(['EGLV', 'MSCU', 'CMDU']))
    // A lane no service sails, and a leg inside one country (cabotage): nothing.
    expect((await sailings({ pol: 'USLAX', pod: 'CNSHA' })).total).toBe(0)
    expect((await sailings({ pol: 'CNNGB', pod: 'CNSHA' })).total).toBe(0)
    expect(expected('CNNGB', 'CNSHA').length).toBeGreaterThan(0)
  })

  it('keeps to the departure window, both days whole, and closes a window given one end at 90 days', async () => {
    const lane = { pol: 'CNSHA', pod: 'USLAX' }
    const { list } = await sailings({ ...lane, etdFrom: '2027-01-05', etdTo: '2027-01-18' })
    expect(list.length).toBeGreaterThan(0)
    for (const s of list) expect(s.etd.slice(0, 10) >= '2027-01-05' && s.etd.slice(0, 10) <= '2027-01-18').toBe(true)
    const all = await sailings(lane)
    expect(list).toEqual(
      all.list.filter((s) => s.etd.slice(0, 10) >= '2027-01-05' && s.etd.slice(0, 10) <= '2027-01-18'),
    )
    // One end only: the 90 days from it, no later (the seed reaches further ahead).
    const open = await sailings({ ...lane, etdFrom: '2027-01-01' })
    expect(all.list.some((s) => s.etd.slice(0, 10) > '2027-03-31')).toBe(true)
    expect(open.list).toEqual(all.list.filter((s) => s.etd.slice(0, 10) <= '2027-03-31'))
  })

  it('refuses a window longer than 90 days in the reader’s language, and bad input, never with a 5xx', async () => {
    const long = await search({ pol: 'CNSHA', etdFrom: '2027-01-01', etdTo: '2027-04-01' }, { language: 'en_US' })
    expect(long.statusCode).toBe(400)
    expect(long.json().content.fieldErrors).toEqual([
      { field: 'searchParams.etdTo', key: 'validation.dateSpan', message: 'At most 90 days' },
    ])
    const chinese = await search({ pol: 'CNSHA', etdFrom: '2027-01-01', etdTo: '2027-04-01' }, { language: 'zh_CN' })
    expect(chinese.json().content.fieldErrors[0].message).toBe('最多 90 天')
    // Exactly 90 days is allowed.
    expect((await search({ pol: 'CNSHA', etdFrom: '2027-01-01', etdTo: '2027-03-31' })).statusCode).toBe(200)
    for (const bad of [
      { pod: 'X'.repeat(300) },
      { etdFrom: '2027-02-30' },
      { etdFrom: 'tomorrow' },
      { vessel: 'EVER ACE' },
      { carrier: ['COSU', 'MAEU'] },
    ]) {
      const response = await search(bad)
      expect(response.statusCode, JSON.stringify(bad)).toBe(400)
      expect(response.json().code).not.toBe('200000')
    }
    // A port code no sailing calls at answers nothing rather than an error, as every list's filter does.
    expect((await sailings({ pol: 'shanghai' })).total).toBe(0)
    const page = await caller(test)('POST', SCHEDULES, null, { pageSize: 100_000 })
    expect(page.statusCode).toBe(400)
  })
})

describe('the rate beside a sailing', () => {
  it('is the tenant’s cheapest valid FCL rate of the same lane and carrier on the day the vessel leaves', async () => {
    const { list } = await sailings({ pol: 'CNSHA', pod: 'USLAX' })
    const withRate = list.filter((s) => s.rateId !== null)
    expect(withRate.length).toBeGreaterThan(0)
    for (const s of list) {
      const day = dayIn(new Date(s.etd), ZONE)
      const { rows } = await sql<{ id: number; rate_no: string; currency: string; price: string }>`
        select r.id, r.rate_no, r.currency, (p.value ->> 'price')::numeric::text as price
        from freight_rate r cross join lateral jsonb_array_elements(r.container_prices) p
        join tenant t on t.id = r.tenant_id
        where t.code = 'demo' and r.mode = 'FCL' and r.pol = ${s.pol} and r.pod = ${s.pod} and r.carrier = ${s.carrier}
          and r.valid_from <= ${day} and r.valid_to >= ${day} and p.value ->> 'containerType' = ${SAILING_RATE_CONTAINER}
        order by (p.value ->> 'price')::numeric, r.id`.execute(test.database.db)
      const cheapest = rows[0]
      if (!cheapest) {
        expect(s.rateId, `${s.carrier} ${s.voyageNo}`).toBeNull()
        continue
      }
      expect(s).toMatchObject({ rateId: cheapest.id, rateNo: cheapest.rate_no, rateCurrency: cheapest.currency })
      expect(Number(s.ratePrice)).toBe(Number(cheapest.price))
    }
  })

  it('is never another tenant’s: acme’s host shows acme’s own rates or none', async () => {
    const demo = await sailings({ pol: 'CNSHA', pod: 'USLAX' })
    const acme = await sailings({ pol: 'CNSHA', pod: 'USLAX' }, 'acme.localhost')
    // The schedules are shared: the same sailings on both hosts.
    expect(acme.list.map((s) => s.id)).toEqual(demo.list.map((s) => s.id))
    const ids = acme.list.map((s) => s.rateId).filter((id): id is number => id !== null)
    const { rows } = await sql<{ id: number; code: string }>`
      select r.id, t.code from freight_rate r join tenant t on t.id = r.tenant_id
      where r.id = any(${[...ids, ...demo.list.map((s) => s.rateId ?? 0)]}::int[])`.execute(test.database.db)
    const owner = new Map(rows.map((r) => [r.id, r.code]))
    for (const id of ids) expect(owner.get(id)).toBe('acme')
    for (const s of demo.list) if (s.rateId !== null) expect(owner.get(s.rateId)).toBe('demo')
  })
})

describe('DCSA Operational Vessel Schedules 3.0.2 export', () => {
  it('answers whole voyages calling a port in the window as ServiceSchedules that validate', async () => {
    const response = await caller(test)(
      'GET',
      `${OVS}?UNLocationCode=CNSHA&startDate=2027-01-01&endDate=2027-01-31`,
      null,
    )
    expect(response.statusCode, response.body).toBe(200)
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8')
    const document = response.json() as {
      carrierServiceCode: string
      vesselSchedules: {
        vesselIMONumber: string
        transportCalls: {
          location: { UNLocationCode: string }
          carrierExportVoyageNumber: string
          timestamps: { eventDateTime: string }[]
        }[]
      }[]
    }[]
    expect(Array.isArray(document)).toBe(true)
    // Every service of the seed calls Shanghai.
    expect(document.map((s) => s.carrierServiceCode).sort()).toEqual(
      ['AAC', 'CEM', 'FAL1', 'PCC1', 'PS3', 'SWAN', 'TP6'].sort(),
    )
    for (const service of document) {
      expect(dcsaErrors('ovs', 'ServiceSchedule', service), service.carrierServiceCode).toEqual([])
      for (const vessel of service.vesselSchedules) {
        const ports = vessel.transportCalls.map((c) => c.location.UNLocationCode)
        expect(ports).toContain('CNSHA')
        // Whole voyages: the port of discharge of the voyage is there too, whatever its date.
        expect(ports.some((p) => p.startsWith('US') || p === 'NLRTM' || p === 'DEHAM')).toBe(true)
      }
    }
    // The same voyages the schedule query lists: a sailing from Shanghai in the window is in the export.
    const { list } = await sailings({ pol: 'CNSHA', pod: 'USLAX', etdFrom: '2027-01-01', etdTo: '2027-01-31' })
    const exported = new Set(
      document.flatMap((s) =>
        s.vesselSchedules.flatMap((v) =>
          v.transportCalls.map((c) => `${v.vesselIMONumber} ${c.carrierExportVoyageNumber}`),
        ),
      ),
    )
    expect(list.length).toBeGreaterThan(0)
    for (const s of list) expect(exported.has(`${s.vesselImo} ${s.voyageNo}`)).toBe(true)
  })

  it('narrows by service and vessel, and refuses a window over 90 days or a malformed code', async () => {
    const one = (await caller(test)('GET', `${OVS}?carrierServiceCode=TP6&vesselIMONumber=9778791`, null)).json()
    expect(one).toHaveLength(1)
    expect(one[0].vesselSchedules.map((v: { vesselName: string }) => v.vesselName)).toEqual(['MADRID MAERSK'])
    const long = await caller(test)('GET', `${OVS}?startDate=2027-01-01&endDate=2027-06-01`, null, undefined, {
      language: 'en_US',
    })
    expect(long.statusCode).toBe(400)
    expect(long.json().content.fieldErrors).toEqual([
      { field: 'endDate', key: 'validation.dateSpan', message: 'At most 90 days' },
    ])
    for (const query of [
      'UNLocationCode=shanghai',
      'vesselIMONumber=12',
      'startDate=2027-13-01',
      'limit=0',
      'startDate=2027-02-01&endDate=2027-01-01',
    ])
      expect((await caller(test)('GET', `${OVS}?${query}`, null)).statusCode, query).toBe(400)
  })
})
