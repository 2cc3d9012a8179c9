import fc from 'fast-check'
import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { type JsonSchema, SYSTEM_FIELDS } from '../../model/jsonschema.ts'
import type { ManifestEndpoint } from '../../model/resolve.ts'
import { snakeCase } from '../../server/engine/columns.ts'
import { bodyLimitOf } from '../../server/http/bounds.ts'
import { loadManifest } from '../../server/manifest.ts'
import { setupTestApp } from '../support/app.ts'
import { databaseFingerprint } from '../support/fingerprint.ts'
import { checkProperty } from '../support/property.ts'

/**
 * Issue #9's bad-input guard, generated from the manifest: for every endpoint that takes a body of an
 * entity, fast-check breaks one thing of a valid body (a wrong type, a missing required field, an over-long
 * string, a number beyond its range, a value outside its enum, a NUL or a lone surrogate in a text, a
 * `__proto__` key) and every answer must be an envelope error naming a field — never HTTP 5xx, never a
 * stack trace — with the database unchanged. List endpoints get SQL metacharacters in every search
 * parameter and must answer normally.
 */

const test = setupTestApp()
const manifest = loadManifest()
const RUNS = 25

let token = ''
let fingerprint: () => Promise<string>
const rowsOf: Record<string, { id: number; version: number }> = {}

type Body = Record<string, unknown>
interface Breakage {
  what: string
  body: Body | string
}

const schemaOf = (endpoint: ManifestEndpoint) => manifest.entities[endpoint.entity]?.schema as JsonSchema | undefined
const propertiesOf = (schema: JsonSchema) => (schema.properties ?? {}) as Record<string, JsonSchema>

/**
 * A body the endpoint accepts as far as its schema goes: the entity's first valid example, else nothing.
 * An update sends only what changes, so its base is empty and one broken field is the whole change.
 */
const validBase = (endpoint: ManifestEndpoint): Body =>
  endpoint.kind === 'update'
    ? {}
    : structuredClone((manifest.entities[endpoint.entity]?.examples?.valid?.[0] as Body | undefined) ?? {})

/** The ways one property can be made wrong, from its schema. */
function breakagesOf(name: string, schema: JsonSchema): fc.Arbitrary<{ what: string; value: unknown }>[] {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type
  const out: fc.Arbitrary<{ what: string; value: unknown }>[] = []
  const of = (what: string, value: fc.Arbitrary<unknown>) =>
    out.push(value.map((v) => ({ what: `${name}: ${what}`, value: v })))
  if (type === 'string') {
    of('a number for a text', fc.integer())
    of('an object for a text', fc.constant({ $ne: null }))
    if (typeof schema.maxLength === 'number')
      of(
        'over-long',
        fc
          .string({ minLength: schema.maxLength + 1, maxLength: schema.maxLength + 40 })
          .map((s) => `${'x'.repeat(schema.maxLength as number)}${s}x`),
      )
    of(
      'a NUL character',
      fc.string({ maxLength: 5 }).map((s) => `A${s}\u0000B`),
    )
    of('a lone surrogate', fc.constantFrom('\uD800', 'ok\uDFFFok', '\uDBFF'))
  }
  if (type === 'integer' || type === 'number') {
    of('a text for a number', fc.constantFrom('abc', '1; drop table booking_order'))
    if (typeof schema.maximum === 'number') of('too big', fc.constantFrom(schema.maximum * 10 + 1, 1e308))
    const minimum = (schema.minimum ?? schema.exclusiveMinimum) as number | undefined
    if (typeof minimum === 'number') of('too small', fc.constantFrom(minimum - 1, -1e308))
    if (type === 'integer') of('a fraction', fc.constant(1.5))
  }
  if (type === 'boolean') of('a text for a boolean', fc.constantFrom('yes', 'true ', 1))
  if (type === 'array') {
    of('a text for a list', fc.constant('x'))
    if (typeof schema.maxItems === 'number') {
      const items = schema.items as JsonSchema | undefined
      of(
        'too many items',
        fc.constant(
          Array.from({ length: (schema.maxItems as number) + 1 }, () => (items?.type === 'object' ? {} : 'x')),
        ),
      )
    }
  }
  if (Array.isArray(schema.enum)) of('outside its values', fc.constantFrom('NOT_A_VALUE', 987654))
  return out
}

function breakages(endpoint: ManifestEndpoint): fc.Arbitrary<Breakage> {
  const schema = schemaOf(endpoint) as JsonSchema
  const base = validBase(endpoint)
  const properties = propertiesOf(schema)
  const options: fc.Arbitrary<Breakage>[] = []
  // System fields (id, version, …) are accepted in a body and ignored, never stored; an update's own id
  // and version are the real ones (send).
  for (const [name, property] of Object.entries(properties))
    if (!(SYSTEM_FIELDS as readonly string[]).includes(name))
      for (const broken of breakagesOf(name, property))
        options.push(broken.map(({ what, value }) => ({ what, body: { ...base, [name]: value } })))
  for (const name of (schema.required as string[] | undefined) ?? [])
    if (name in base) {
      const { [name]: _dropped, ...rest } = base
      options.push(fc.constant({ what: `${name}: missing`, body: rest }))
    }
  // JSON as an attacker writes it: a __proto__ key next to a valid body.
  options.push(
    fc.constant({
      what: '__proto__ key',
      body: `{"__proto__":{"admin":true},${JSON.stringify(base).slice(1)}`.replace(',}', '}'),
    }),
  )
  return fc.oneof(...options)
}

function send(endpoint: ManifestEndpoint, body: Body | string) {
  const row = rowsOf[endpoint.id]
  const withIds =
    endpoint.kind === 'update' && typeof body === 'object' && row ? { ...body, id: row.id, version: row.version } : body
  return test.app.inject({
    method: endpoint.method,
    url: `/api${endpoint.path}`,
    headers: {
      host: 'localhost',
      language: 'en_US',
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
    },
    payload: typeof withIds === 'string' ? withIds : JSON.stringify(withIds),
  })
}

const bodyEndpoints = manifest.endpoints.filter(
  (e) =>
    (e.method === 'POST' || e.method === 'PUT') &&
    ['create', 'update', 'custom'].includes(e.kind) &&
    schemaOf(e) &&
    Object.keys(propertiesOf(schemaOf(e) as JsonSchema)).length > 0,
)

beforeAll(async () => {
  // The platform administrator holds every permission, so each call reaches its checks.
  token = await test.login('platform')
  fingerprint = await databaseFingerprint(test.database.db as never)
  const demo = await test.database.db
    .selectFrom('tenant')
    .select('id')
    .where('code', '=', 'demo')
    .executeTakeFirstOrThrow()
  for (const endpoint of bodyEndpoints.filter((e) => e.kind === 'update')) {
    const table = manifest.entities[endpoint.entity]?.table as string
    // A row the endpoint can reach: one its fixed filter (drafts only, say) lets through.
    const filters = Object.entries(endpoint.filter ?? {}).map(
      ([field, values]) => sql`and ${sql.ref(snakeCase(field))} in (${sql.join(values)})`,
    )
    const { rows } = await sql<{ id: number; version: number }>`
      select id, version from ${sql.table(table)} where tenant_id = ${demo.id} ${sql.join(filters, sql` `)}
      order by id limit 1`.execute(test.database.db)
    if (rows[0]) rowsOf[endpoint.id] = rows[0]
  }
})

describe('bad-input guard (every endpoint that takes a body)', () => {
  it('answers every broken body with an envelope error naming a field, never 5xx, and changes nothing', async () => {
    const covered: string[] = []
    for (const endpoint of bodyEndpoints) {
      if (endpoint.kind === 'update')
        expect(rowsOf[endpoint.id], `no ${endpoint.entity} row to update through ${endpoint.path}`).toBeDefined()
      const before = await fingerprint()
      await checkProperty(
        fc.asyncProperty(breakages(endpoint), async ({ what, body }) => {
          const response = await send(endpoint, body)
          const where = `${endpoint.method} ${endpoint.path} with ${what}: ${response.body.slice(0, 300)}`
          expect(response.statusCode, where).toBeLessThan(500)
          expect(response.body, where).not.toMatch(/\n\s+at |stack/)
          const answer = response.json()
          expect(answer.code, where).not.toBe('0000')
          expect(answer.content?.fieldErrors?.length ?? 0, where).toBeGreaterThan(0)
        }),
        RUNS,
      )
      expect(await fingerprint(), `${endpoint.method} ${endpoint.path} changed the database on bad input`).toBe(before)
      covered.push(endpoint.id)
    }
    console.info(`input guard: ${covered.length} endpoints × ${RUNS} broken bodies, each refused by field`)
    expect(covered.length).toBe(bodyEndpoints.length)
    expect(covered.length).toBeGreaterThan(20)
  }, 600_000)

  it('refuses large bodies (issue #17) by size or by the schema bounds, never 5xx, and changes nothing', async () => {
    // Built once for every endpoint: the 100,000 keys as the text a client sends (its size is what is refused).
    const hugeBody = JSON.stringify(Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i])))
    const manyKeys = Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`k${i}`, i]))
    const before = await fingerprint()
    let cases = 0
    for (const endpoint of bodyEndpoints) {
      const properties = propertiesOf(schemaOf(endpoint) as JsonSchema)
      const bodies: { what: string; body: Body | string; codes: string[] }[] = [
        // Far beyond any route's limit: refused by its size alone.
        {
          what: '100,000 unknown keys',
          body: hugeBody,
          codes: ['413'],
        },
        // Small enough to be read: refused by the schema's bounds, naming the first key it does not know.
        {
          what: '2,000 unknown keys',
          body: { ...validBase(endpoint), ...manyKeys },
          codes: ['validation'],
        },
      ]
      for (const [name, property] of Object.entries(properties))
        if (property.type === 'array') {
          const items = property.items as JsonSchema | undefined
          const item = items?.type === 'object' ? {} : 1
          // Past the route's size limit (a settings form of long texts takes more than 100,000 items' bytes).
          const beyond = Math.max(100_000, Math.ceil(bodyLimitOf(manifest.entities[endpoint.entity]) / 2) + 1)
          bodies.push(
            {
              what: `${name}: ${beyond.toLocaleString('en')} items`,
              body: { ...validBase(endpoint), [name]: Array(beyond).fill(item) },
              codes: ['413'],
            },
            {
              what: `${name}: ${(property.maxItems as number) + 1} items`,
              body: { ...validBase(endpoint), [name]: Array((property.maxItems as number) + 1).fill(item) },
              codes: ['validation'],
            },
          )
        }
      for (const { what, body, codes } of bodies) {
        const response = await send(endpoint, body)
        const where = `${endpoint.method} ${endpoint.path} with ${what}: ${response.body.slice(0, 300)}`
        expect(response.statusCode, where).toBeGreaterThanOrEqual(400)
        expect(response.statusCode, where).toBeLessThan(500)
        const answer = response.json()
        expect(codes, where).toContain(answer.code)
        if (answer.code === 'validation')
          expect(
            answer.content.fieldErrors.map((e: { key: string }) => e.key),
            where,
          ).toEqual(expect.arrayContaining([expect.stringMatching(/maxItems|maxProperties|unknownField/)]))
        cases++
      }
    }
    expect(await fingerprint()).toBe(before)
    console.info(`input guard: ${cases} large bodies on ${bodyEndpoints.length} endpoints, each refused with 4xx`)
  }, 600_000)

  it('answers list searches with SQL metacharacters and odd text normally, never 5xx', async () => {
    const lists = manifest.endpoints.filter((e) => e.kind === 'list' && e.search?.length)
    const nasty = fc.constantFrom(
      "'; drop table booking_order; --",
      '%_\\',
      '" or 1=1 --',
      '𝔘𝔫𝔦😀\u202e',
      '\\x00',
      '__proto__',
    )
    const before = await fingerprint()
    for (const endpoint of lists) {
      await checkProperty(
        fc.asyncProperty(nasty, async (value) => {
          const searchParams = Object.fromEntries(
            (endpoint.search ?? []).flatMap((s) => (s.params?.length ? s.params : [s.field]).map((p) => [p, value])),
          )
          const response = await send(endpoint, { searchParams, pageNum: 1, pageSize: 10 })
          const where = `${endpoint.path} with ${JSON.stringify(value)}: ${response.body.slice(0, 300)}`
          expect(response.statusCode, where).toBeLessThan(500)
          expect(['0000', 'validation', '220000'], where).toContain(response.json().code)
        }),
        12,
      )
    }
    expect(await fingerprint()).toBe(before)
    console.info(`input guard: ${lists.length} list endpoints searched with SQL metacharacters`)
    expect(lists.length).toBeGreaterThan(5)
  }, 300_000)
})
