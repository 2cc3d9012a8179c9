import { beforeAll, describe, expect, it } from 'vitest'
import { loadManifest } from '../../server/manifest.ts'
import { setupTestApp } from '../support/app.ts'
import { directFcl, fromCurrentRate } from '../support/booking.ts'
import { installWriteLog, type WriteLog } from '../support/fingerprint.ts'
import { callEndpoint, endpointById, sortedIds } from '../support/guard.ts'
import { CODE_CHECKED, PUBLIC_ENDPOINTS, ROLE_MATRIX, SIGNED_IN } from './guard-lists.ts'

/**
 * Issue #20: the guards hold the manifest to the reviewed lists of tests/api/guard-lists.ts instead of
 * trusting it. An endpoint made public in YAML, a permission dropped from one, a new endpoint nobody placed:
 * each fails here until the list is changed (and so reviewed). Every private endpoint the lists name answers
 * 401 without a token, whatever the YAML now says; every endpoint whose permission is checked in code shows
 * that code's refusal, and that the refusal wrote nothing.
 */

const test = setupTestApp()
const manifest = loadManifest()

const publicInYaml = manifest.endpoints.filter((e) => e.public).map((e) => e.id)
const privateUndeclared = manifest.endpoints.filter((e) => !e.public && !e.permissions.length).map((e) => e.id)
const privateDeclared = manifest.endpoints.filter((e) => !e.public && e.permissions.length).map((e) => e.id)
const PRIVATE = [...Object.keys(CODE_CHECKED), ...Object.keys(SIGNED_IN), ...Object.keys(ROLE_MATRIX)]

let log: WriteLog
let demoTenant = 0

beforeAll(async () => {
  log = await installWriteLog(test.database.db as never)
  demoTenant = (
    await test.database.db.selectFrom('tenant').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()
  ).id
})

/** Runs a call and answers its envelope and the writes it made (none expected of a refusal). */
async function attempt(run: () => ReturnType<typeof callEndpoint>) {
  const mark = await log.mark()
  const response = await run()
  return { status: response.statusCode, body: response.json(), writes: await log.since(mark) }
}

describe('the manifest against the reviewed lists (tests/api/guard-lists.ts)', () => {
  it('makes public exactly the endpoints PUBLIC_ENDPOINTS names', () => {
    // A change here is an endpoint made public (or private) in YAML: review it, then change the list.
    expect(sortedIds(publicInYaml), 'public endpoints in the YAML').toEqual(sortedIds(Object.keys(PUBLIC_ENDPOINTS)))
  })

  it('leaves without a declared permission exactly the code-checked and signed-in endpoints', () => {
    const listed = [...Object.keys(CODE_CHECKED), ...Object.keys(SIGNED_IN)]
    expect(new Set(listed).size, 'an endpoint is in both CODE_CHECKED and SIGNED_IN').toBe(listed.length)
    expect(sortedIds(privateUndeclared), 'private endpoints that declare no permission').toEqual(sortedIds(listed))
  })

  it('places every permission-gated endpoint in the role matrix', () => {
    expect(sortedIds(privateDeclared), 'endpoints that declare permissions').toEqual(
      sortedIds(Object.keys(ROLE_MATRIX)),
    )
  })

  it('answers HTTP 401 without a token on every endpoint the lists call private, whatever the YAML says', async () => {
    for (const id of PRIVATE) {
      const endpoint = endpointById(manifest, id)
      const response = await callEndpoint(test, endpoint, { id: 1 })
      expect(response.statusCode, `${id} (${endpoint.method} ${endpoint.path}): ${response.body}`).toBe(401)
      expect(response.json().code, id).toBe('401')
    }
    expect(PRIVATE.length).toBe(manifest.endpoints.length - Object.keys(PUBLIC_ENDPOINTS).length)
  })
})

/** One test per CODE_CHECKED entry: the refusal that entry's code makes, shown on the real server. */
const REFUSALS: Record<string, () => Promise<void>> = {
  async fileUpload() {
    // A news cover needs the news editor's permission: an enterprise administrator is refused, nothing stored.
    const boundary = '----waybillguard'
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cover.pdf"\r\n`),
      Buffer.from('Content-Type: application/pdf\r\n\r\n%PDF-1.4\n%%EOF\n'),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ])
    const token = await test.login('entadmin')
    const refused = await attempt(() =>
      test.app.inject({
        method: 'POST',
        url: '/api/b2b/file/upload?entity=informationItem&field=cover',
        headers: {
          host: 'localhost',
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
        },
        payload,
      }),
    )
    expect(refused.body.code).toBe('220000')
    expect(refused.writes).toEqual([])
  },
}

describe('endpoints whose permission is checked in code refuse in code', () => {
  it('has a refusal test for every CODE_CHECKED entry', () => {
    expect(sortedIds(Object.keys(REFUSALS))).toEqual(sortedIds(Object.keys(CODE_CHECKED)))
  })
  for (const [id, refusal] of Object.entries(REFUSALS)) it(`${id}: ${CODE_CHECKED[id]}`, refusal)
})

/**
 * The booking saves declare the booking permission (refused with 360002, screens/booking.yaml's `refusal:`); their
 * code checks the rest of a direct order (directlyEntrusted, the tenant's online booking): each shown here. A save
 * without directlyEntrusted (nbclerk: a direct order) or without booking (personal) is refused, nothing written.
 */
async function bookingRefusals(id: string) {
  const save = endpointById(manifest, id)
  const clerk = await test.login('nbclerk')
  const direct = await attempt(() => callEndpoint(test, save, directFcl(), { token: clerk }))
  expect(direct.body.code, JSON.stringify(direct.body)).toBe('220000')
  expect(direct.writes).toEqual([])
  const personal = await test.login('personal')
  const unbooked = await attempt(() => callEndpoint(test, save, directFcl(), { token: personal }))
  expect(unbooked.body.code).toBe('360002')
  expect(unbooked.writes).toEqual([])
}

const BOOKING_SAVES: Record<string, () => Promise<void>> = {
  async orderAdd() {
    const add = endpointById(manifest, 'orderAdd')
    // booking, no directlyEntrusted (nbclerk's custom role): a direct order is refused, nothing written...
    const clerk = await test.login('nbclerk')
    const direct = await attempt(() => callEndpoint(test, add, { ...directFcl(), submit: true }, { token: clerk }))
    expect(direct.body.code, JSON.stringify(direct.body)).toBe('220000')
    expect(direct.writes).toEqual([])
    // ...while the same clerk books from a published rate: the refusal was directlyEntrusted, not booking.
    const booked = await attempt(async () =>
      callEndpoint(test, add, await fromCurrentRate(test, demoTenant), { token: clerk }),
    )
    expect(booked.body.code, JSON.stringify(booked.body)).toBe('0000')
    expect(booked.body.content.source).toBe('rate')
    // No booking at all (the personal user): 360002, nothing written.
    const personal = await test.login('personal')
    const unbooked = await attempt(() => callEndpoint(test, add, directFcl(), { token: personal }))
    expect(unbooked.body.code).toBe('360002')
    expect(unbooked.writes).toEqual([])
    // Both permissions, but the tenant has no online booking service (acme: the "warm reminder" of SPEC §2).
    const acme = await test.login('entadmin', 'acme.localhost')
    const checkTenant = endpointById(manifest, 'checkTenant')
    const reminder = await callEndpoint(test, checkTenant, {}, { token: acme, host: 'acme.localhost' })
    expect(reminder.json().content).toBeNull()
    const offline = await attempt(() => callEndpoint(test, add, directFcl(), { token: acme, host: 'acme.localhost' }))
    expect(offline.body.code).toBe('220000')
    expect(offline.writes).toEqual([])
    // The demo tenant has the service: the same kind of user orders directly there.
    const demo = await attempt(async () =>
      callEndpoint(test, add, directFcl(), { token: await test.login('entadmin') }),
    )
    expect(demo.body.code, JSON.stringify(demo.body)).toBe('0000')
    expect(demo.body.content.source).toBe('direct')
  },

  orderDraftSave: () => bookingRefusals('orderDraftSave'),
  // SPEC's paths of orderAdd (issue #23): the same handler refuses the same way.
  bookingAutoQuote: () => bookingRefusals('bookingAutoQuote'),
  saveForecastOrderDetail: () => bookingRefusals('saveForecastOrderDetail'),
}

describe('the booking saves refuse what their code checks besides the booking permission', () => {
  for (const [id, refusal] of Object.entries(BOOKING_SAVES)) it(id, refusal)
})
