import Fastify, { type FastifyInstance } from 'fastify'
import { describe, expect, it } from 'vitest'
import type { ManifestEndpoint } from '../../model/resolve.ts'
import { domainRegistry } from '../../server/domain/index.ts'
import { createEngineApi } from '../../server/engine/api.ts'
import { ApiError } from '../../server/http/errors.ts'
import { MAX_ID } from '../../server/http/ids.ts'
import { entityInput, precompiledValidator } from '../../server/http/routeSchema.ts'
import { loadManifest } from '../../server/manifest.ts'

/**
 * Route schemas (issue #19 point 1): each route's input part is declared with the JSON Schema the YAML
 * compiles to, and Fastify checks it with the validator already compiled from that very schema — nothing is
 * compiled at boot. These drive a bare Fastify with the API's validator compiler and the real schemas; the
 * API tests (tests/api/route-schema.test.ts) hold the app's answers.
 */

const manifest = loadManifest()
const engine = createEngineApi(manifest, { registry: domainRegistry() })
const endpointOf = (kind: ManifestEndpoint['kind']) => engine.endpoints.find((e) => e.kind === kind) as ManifestEndpoint

/** A server whose one route echoes the request part its schema checked, or the refusal's code and fields. */
async function echo(part: 'querystring' | 'body', schema: object): Promise<FastifyInstance> {
  const app = Fastify()
  app.setValidatorCompiler(precompiledValidator)
  app.setErrorHandler((error, _request, reply) =>
    error instanceof ApiError
      ? reply.status(error.http).send({ code: error.code, fieldErrors: error.fieldErrors })
      : reply.status(500).send({ message: String(error) }),
  )
  app.route({
    method: part === 'querystring' ? 'GET' : 'POST',
    url: '/echo',
    schema: { [part]: schema },
    handler: async (request) => ({ given: part === 'querystring' ? request.query : request.body }),
  })
  await app.ready()
  return app
}

describe('route schemas from the YAML', () => {
  it('gives each engine route that reads an input the schema its validator was compiled from', () => {
    for (const endpoint of engine.endpoints) {
      const input = engine.routeInput(endpoint)
      const where = `${endpoint.method} ${endpoint.path} (${endpoint.kind})`
      if (['create', 'update', 'import'].includes(endpoint.kind)) expect(input, where).toBeUndefined()
      else
        expect(input?.part, where).toBe(
          endpoint.method === 'GET' || endpoint.method === 'DELETE' ? 'querystring' : 'body',
        )
    }
    // A hand-written endpoint's input is its entity's schema itself, the one generated/validators.js compiled.
    const entity = manifest.entities.passwordLogin
    expect(entity).toBeDefined()
    if (entity) expect(entityInput(entity)).toBe(entity.schema)
  })

  it('reads a detail route’s ?id= as a number, and refuses 2^63 with the bounded id’s field error', async () => {
    const input = engine.routeInput(endpointOf('detail'))
    if (!input) throw new Error('no detail route input')
    const app = await echo('querystring', input.schema)
    const read = await app.inject({ method: 'GET', url: '/echo?id=2' })
    expect(read.json()).toEqual({ given: { id: 2 } })
    const huge = await app.inject({ method: 'GET', url: `/echo?id=${2n ** 63n}` })
    expect(huge.statusCode).toBe(400)
    expect(huge.json()).toEqual({
      code: 'validation',
      fieldErrors: [{ field: 'id', message: 'validation.maximum', params: { limit: MAX_ID } }],
    })
    await app.close()
  })

  it('reads a list body with its page as a number and its defaults filled in', async () => {
    const input = engine.routeInput(endpointOf('list'))
    if (!input) throw new Error('no list route input')
    const app = await echo('body', input.schema)
    const read = await app.inject({ method: 'POST', url: '/echo', payload: { pageNum: 2 } })
    expect(read.json().given).toMatchObject({ pageNum: 2, searchParams: {} })
    expect(typeof read.json().given.pageSize).toBe('number')
    const refused = await app.inject({ method: 'POST', url: '/echo', payload: { pageNum: 0, pageSize: 1000 } })
    expect(refused.statusCode).toBe(400)
    expect(
      refused
        .json()
        .fieldErrors.map((e: { field: string }) => e.field)
        .sort(),
    ).toEqual(['pageNum', 'pageSize'])
    await app.close()
  })

  it('compiles nothing: a route schema without its precompiled check stops the server at boot', async () => {
    const app = Fastify()
    app.setValidatorCompiler(precompiledValidator)
    app.post('/unnamed', { schema: { body: { type: 'object' } } }, async () => null)
    await expect(app.ready()).rejects.toThrow('POST /unnamed: the body schema has no precompiled check')
  })
})
