import { existsSync } from 'node:fs'
import { join } from 'node:path'
import fastifyStatic from '@fastify/static'
import Fastify, { type FastifyInstance } from 'fastify'
import type { Database } from './db/database.ts'
import { type Envelope, ok } from './http/envelope.ts'
import { TenantResolver } from './tenancy/resolve.ts'

export interface AppOptions {
  database: Database
  /** The built portal (vite build output); absent in API-only tests and under `npm run dev`. */
  staticDir?: string
  logger?: boolean
}

const startedAt = Date.now()

export async function buildApp({ database, staticDir, logger = false }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger: logger ? { level: process.env.LOG_LEVEL ?? 'warn' } : false, trustProxy: true })
  const tenants = new TenantResolver(database.db)

  app.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
    request.log.error(error)
    const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 500
    // Never a stack trace or SQL in the answer: the log has them.
    const body: Envelope<null> = {
      code: status === 500 ? '200000' : String(status),
      message: status === 500 ? 'System abnormal, please contact the administrator' : error.message,
      content: null,
    }
    reply.status(status).send(body)
  })

  await app.register(
    async (api) => {
      api.get('/health', async () =>
        ok({ db: database.kind, uptimeSeconds: Math.round((Date.now() - startedAt) / 1000) }, 'ok'),
      )
      // SPEC §3 site settings of the tenant this host belongs to: what the public site is drawn from.
      api.get('/b2b/public/api/site/settings', async (request, reply) => {
        const tenant = await tenants.byHost(request.headers.host)
        if (!tenant)
          return reply.status(404).send({ code: '404', message: 'No site is configured for this host', content: null })
        return ok({ tenantId: tenant.id, tenantCode: tenant.code, ...tenant.settings })
      })
    },
    { prefix: '/api' },
  )

  const hasPortal = staticDir !== undefined && existsSync(join(staticDir, 'index.html'))
  if (hasPortal) await app.register(fastifyStatic, { root: staticDir, wildcard: false })

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? ''
    if (path === '/api' || path.startsWith('/api/') || request.method !== 'GET' || !hasPortal) {
      const body: Envelope<null> = {
        code: '404',
        message: `No such endpoint: ${request.method} ${path}`,
        content: null,
      }
      return reply.status(404).send(body)
    }
    // The portal routes on the client: every other GET gets the single page.
    return reply.type('text/html').sendFile('index.html')
  })

  return app
}
