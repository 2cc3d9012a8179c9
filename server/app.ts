import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import fastifyCompress from '@fastify/compress'
import fastifyCookie from '@fastify/cookie'
import fastifyMultipart from '@fastify/multipart'
import fastifyWebsocket from '@fastify/websocket'
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import helmet from 'helmet'
import { apiKeySession, presentedApiKey } from './auth/apiKeys.ts'
import { authHandlers } from './auth/handlers.ts'
import { DEFAULT_KEY_LIMIT, type KeyLimit } from './auth/limits.ts'
import { loadSession } from './auth/session.ts'
import type { Database } from './db/database.ts'
import { heldOf, inRequestScope } from './db/requestTransaction.ts'
import { exportHandlers } from './domain/accounts/exports.ts'
import { accountHandlers } from './domain/accounts/handlers.ts'
import { settingHandlers } from './domain/accounts/settings.ts'
import { wechatBindingHandlers } from './domain/accounts/wechat.ts'
import { chartHandlers } from './domain/analytics/charts.ts'
import { visitHandlers } from './domain/analytics/visits.ts'
import { apiKeyHandlers } from './domain/apiKeys/handlers.ts'
import { orderChargeHandlers } from './domain/billing/charges.ts'
import { billingHandlers, billStatusHandlers } from './domain/billing/handlers.ts'
import { blInstructionHandlers } from './domain/blInstructions/prefill.ts'
import { chatHandlers } from './domain/chat/handlers.ts'
import { clientAccountHandlers } from './domain/clients/accounts.ts'
import { clientSalesHandlers } from './domain/clients/sales.ts'
import { clientServiceHandlers } from './domain/clients/services.ts'
import { userCallHandlers } from './domain/clients/userCalls.ts'
import { dcsaHandlers } from './domain/dcsa/handlers.ts'
import { tntHandlers } from './domain/dcsa/tnt.ts'
import { tntPortalHandlers } from './domain/dcsa/tntPortal.ts'
import { fbaLabelHandlers } from './domain/fba/labels.ts'
import { fbaProductHandlers } from './domain/fba/products.ts'
import { fbaServiceHandlers } from './domain/fba/service.ts'
import { fbaTrackingHandlers } from './domain/fba/tracking.ts'
import { installImChatRules } from './domain/im/chat.ts'
import { imHandlers } from './domain/im/handlers.ts'
import { domainRegistry } from './domain/index.ts'
import { inquiryHandlers } from './domain/inquiries/handlers.ts'
import { letterHandlers } from './domain/letters/handlers.ts'
import { membershipHandlers } from './domain/membership/handlers.ts'
import { messagingHandlers } from './domain/messaging/handlers.ts'
import { newsHandlers } from './domain/news/handlers.ts'
import { operatingHandlers } from './domain/operating/handlers.ts'
import { orderCallHandlers } from './domain/orders/calls.ts'
import { orderFileHandlers } from './domain/orders/files.ts'
import { orderHandlers } from './domain/orders/handlers.ts'
import { platformHandlers } from './domain/platform/handlers.ts'
import { pushHandlers, pushRecipientHandlers } from './domain/push/handlers.ts'
import { quoteHandlers } from './domain/quotes/handlers.ts'
import { rateHandlers } from './domain/rates/handlers.ts'
import { referenceHandlers } from './domain/reference/handlers.ts'
import { roleHandlers } from './domain/roles/handlers.ts'
import { scheduleHandlers } from './domain/schedules/handlers.ts'
import { siteHandlers } from './domain/site/handlers.ts'
import { spaHandlers } from './domain/spa/handlers.ts'
import { trackingHandlers } from './domain/tracking/handlers.ts'
import { trackingLinkHandlers } from './domain/tracking/links.ts'
import { registerWebhookChannel } from './domain/webhooks/channel.ts'
import { webhookHandlers } from './domain/webhooks/handlers.ts'
import { createEngineApi, registerEngine, transitionHandlers } from './engine/index.ts'
import { fileHandlers, MAX_UPLOAD_BYTES } from './files/handlers.ts'
import { DEFAULT_BODY_LIMIT } from './http/bounds.ts'
import { type CsrfPaths, checkCrossSite } from './http/csrf.ts'
import { registerCustomEndpoints } from './http/endpoints.ts'
import { type Envelope, ok } from './http/envelope.ts'
import { ApiError, type Language, messageFor, parseLanguage } from './http/errors.ts'
import { parseId } from './http/ids.ts'
import { precompiledValidator } from './http/routeSchema.ts'
import { registerProviderChannels } from './jobs/providers/register.ts'
import { loadManifest, type Manifest } from './manifest.ts'
import { overlayHandlers } from './overlays/handlers.ts'
import { registerCrawlerFiles } from './portal/crawlers.ts'
import { readTemplate, registerPages } from './portal/page.ts'
import { etagOf, matchesEtag } from './portal/revalidate.ts'
import { REVALIDATE, registerStatic } from './portal/static.ts'
import { ChatHub, MAX_FRAME_BYTES } from './realtime/chatHub.ts'
import { TenantResolver } from './tenancy/resolve.ts'

export interface AppOptions {
  database: Database
  manifest?: Manifest
  /** The built portal (vite build output); absent in API-only tests and under `npm run dev`. */
  staticDir?: string
  logger?: boolean
  /**
   * The reverse proxies whose X-Forwarded-For is believed (addresses or CIDRs, WAYBILL_TRUSTED_PROXIES);
   * none by default: the client's address is the connection's.
   */
  trustedProxies?: readonly string[]
  /** Each API key's rate limit (WAYBILL_API_KEY_PER_MINUTE, WAYBILL_API_KEY_BURST; server/auth/limits.ts). */
  apiKeyLimit?: KeyLimit
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route, with the parts of the request its schema checks (server/http/routeSchema.ts). */
    registeredRoutes: readonly { method: string; url: string; checks: readonly string[] }[]
  }
}

/** PostgreSQL's codes for a server shutting down or starting up, and the connection classes (08…). */
const OUT_OF_REACH_CODES = new Set(['57P01', '57P02', '57P03', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE'])

/** Whether an error is the database being out of reach (a restart, a failover) rather than a fault of the call. */
function databaseOutOfReach(error: Error): boolean {
  const code = (error as { code?: unknown }).code
  if (typeof code === 'string' && (OUT_OF_REACH_CODES.has(code) || code.startsWith('08'))) return true
  return /^(Connection terminated( unexpectedly| due to connection timeout)?|Client has encountered a connection error and is not queryable)$/.test(
    error.message,
  )
}

/** Turns any thrown error into the envelope, in the caller's language; never a stack trace or SQL. */
function sendError(error: FastifyError | ApiError | Error, request: FastifyRequest, reply: FastifyReply) {
  const language: Language = request.language ?? parseLanguage(request.headers.language as string | undefined)
  let apiError: ApiError
  if (error instanceof ApiError) apiError = error
  else {
    const status = (error as FastifyError).statusCode ?? 500
    if (status === 413) apiError = new ApiError('413')
    else if (status === 429) apiError = new ApiError('429')
    else if ((error as FastifyError).code === 'FST_ERR_CTP_INVALID_JSON_BODY')
      // Broken JSON, or keys such as __proto__ that secure-json-parse refuses: the body as a whole is wrong.
      apiError = new ApiError('validation', {}, [{ field: 'body', message: 'validation.invalidJson', params: {} }])
    else if (status >= 400 && status < 500) apiError = new ApiError('validation', { detail: error.message })
    else if (databaseOutOfReach(error)) {
      // A restart or failover cut the connection: the server rolls back what had not committed (nothing is left
      // half-written), and the pool opens a fresh connection for the next request — a retry, not a system fault.
      request.log.warn({ err: error }, 'database out of reach')
      apiError = new ApiError('503')
      reply.header('retry-after', '2')
    } else {
      request.log.error(error)
      apiError = new ApiError('200000')
    }
  }
  const fieldErrors = apiError.fieldErrors?.map((e) => ({
    field: e.field,
    key: e.message,
    message: messageFor(e.message, language, e.params),
    // Where in a text field (a YAML overlay, say) the problem is, when the check knows.
    ...(typeof e.params?.line === 'number' && e.params.line > 0
      ? { line: e.params.line, column: e.params.column }
      : {}),
  }))
  const body: Envelope<unknown> = {
    code: apiError.code,
    message: messageFor(apiError.key, language, apiError.params),
    content: fieldErrors ? { fieldErrors } : apiError.content,
  }
  // The type said outright: a route that writes its answers from a schema hands its refusals here with a
  // serializer of its own, and Fastify sets no JSON type for those (server/http/endpoints.ts).
  return reply.status(apiError.http).type('application/json; charset=utf-8').send(body)
}

/** The portal's Content-Security-Policy (docs/SECURITY.md): scripts only from our own origin, never eval'd. */
export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'self'"],
}

export async function buildApp({
  database,
  manifest = loadManifest(),
  staticDir,
  logger = false,
  trustedProxies = [],
  apiKeyLimit = DEFAULT_KEY_LIMIT,
}: AppOptions): Promise<FastifyInstance> {
  // The outbox's sms and wechat channels (issue #22), each message sent with its own tenant's settings.
  registerProviderChannels()
  // Signed webhook deliveries (issue #29), through the same outbox.
  registerWebhookChannel()
  // The IM administration's chat filter and auto-reply at work in the chat (issue #27).
  installImChatRules()
  const app = Fastify({
    logger: logger ? { level: process.env.LOG_LEVEL ?? 'warn' } : false,
    // request.ip (every per-address limit) is the connection's address unless it is a configured proxy.
    trustProxy: trustedProxies.length ? [...trustedProxies] : false,
    // Small by default; a route whose schema takes more says so (server/http/bounds.ts).
    bodyLimit: DEFAULT_BODY_LIMIT,
  })
  const tenants = new TenantResolver(database.api)
  // Which calls sign in, and which GET changes state (logout): they need the portal's header (http/csrf.ts).
  const apiPaths = (ids: readonly string[]) =>
    new Set(manifest.endpoints.filter((e) => ids.includes(e.id)).map((e) => `/api${e.path}`))
  const csrfPaths: CsrfPaths = {
    signIns: apiPaths(['userLogin', 'userCodeLogin', 'exchangeToken']),
    // The page visits sendBeacon posts as a page is left (issue #28): no header is possible there.
    beacons: apiPaths(['behaviorRecordAdd']),
    // Logout, and SPEC §7's GETs that change state: a transition's (withdraw, reapplyOrder) and the GET twin of a
    // change (spaCancel).
    stateChangingGets: apiPaths([
      'userLogout',
      ...manifest.endpoints
        .filter(
          (e) =>
            e.method === 'GET' &&
            (e.fires !== undefined ||
              (e.servedAs !== undefined && manifest.endpoints.find((t) => t.id === e.servedAs)?.method !== 'GET')),
        )
        .map((e) => e.id),
    ]),
  }
  // Tenant-wide answers every page asks for: never stored without asking, a 304 while unchanged (issue #18).
  const revalidated = apiPaths(['siteSettings', 'personalization', 'sitePages'])
  // Every route the server has, for the test that holds it equal to the published OpenAPI document.
  const routes: { method: string; url: string; checks: string[] }[] = []
  app.decorate('registeredRoutes', routes)
  app.addHook('onRoute', (route) => {
    const checks = Object.keys(route.schema ?? {}).filter((part) => part !== 'response')
    for (const method of [route.method].flat()) if (method !== 'HEAD') routes.push({ method, url: route.url, checks })
  })
  await app.register(fastifyCookie)
  // A strict Content-Security-Policy: no inline or eval'd script anywhere in the portal (validators are
  // precompiled, tenant overlays are checked by an interpreting validator), styles inline for Griffel.
  // Helmet's middleware is built once: @fastify/helmet built it again for every request (its policy parsed each
  // time), a tenth of a small call's CPU (issue #29, docs/PERFORMANCE.md). The same headers, on every answer.
  const securityHeaders = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
    crossOriginEmbedderPolicy: false,
  })
  app.addHook('onRequest', (request, reply, done) => {
    securityHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined))
  })
  // Uploads (server/files/): one file a request; each field's own limit is applied when the file is read.
  await app.register(fastifyMultipart, { limits: { files: 1, fileSize: MAX_UPLOAD_BYTES, fields: 0, parts: 1 } })
  // The chat's socket (issue #27): a frame in is small (server/realtime/chatHub.ts), a bigger one closes it.
  await app.register(fastifyWebsocket, { options: { maxPayload: MAX_FRAME_BYTES } })
  app.setErrorHandler((error, request, reply) => sendError(error as FastifyError, request, reply))
  app.decorateRequest('session', null)
  app.decorateRequest('language', 'zh')

  // The built portal's files, compressed at build (server/portal/static.ts); before @fastify/compress, so
  // they are never compressed a second time on the fly.
  const hasPortal = staticDir !== undefined && existsSync(join(staticDir, 'index.html'))
  if (hasPortal && staticDir) await registerStatic(app, staticDir)
  // Everything else (API answers, pages) compressed as it goes out, brotli or gzip, from 1 KB up; brotli at
  // quality 4, which costs about what gzip does. Compressed request bodies are not accepted: every body
  // limit (server/http/bounds.ts) is a limit of what arrives.
  await app.register(fastifyCompress, {
    encodings: ['br', 'gzip'],
    threshold: 1024,
    globalDecompression: false,
  })

  // The engine with what the domain modules register (effects, numbering, computed states…): a name the YAML
  // uses that nobody registered stops the start here (server/engine/registry.ts).
  const engine = createEngineApi(manifest, { registry: domainRegistry() })
  // The chat's sockets in this process, told by every process what happened (server/realtime/chatHub.ts).
  const chatHub = new ChatHub(database, manifest.entities.imMessage?.fields.text?.maxLength ?? 2000)
  await chatHub.start()
  app.addHook('preClose', async () => chatHub.stop())

  await app.register(
    async (api) => {
      // Each route's schema is checked by the validator compiled from it at generate time or by the engine's
      // plan, never compiled again here (server/http/routeSchema.ts).
      api.setValidatorCompiler(precompiledValidator)
      // Liveness for load balancers and anyone else: "ok" and nothing a stranger could use (issue #17,
      // finding 9: it told the database kind and the uptime).
      api.get('/health', async () => ok(null, 'ok'))
      const openapi = readFileSync(new URL('../generated/openapi.json', import.meta.url), 'utf8')
      api.get('/openapi.json', async (_request, reply) => reply.type('application/json').send(openapi))

      // Every other call belongs to the tenant of its host, speaks the caller's language, and knows who calls.
      api.addHook('onRequest', async (request, reply) => {
        request.language = parseLanguage(
          (request.headers.language as string | undefined) ?? request.cookies.language ?? undefined,
        )
        const path = request.url.split('?')[0]
        if (path === '/api/health' || path === '/api/openapi.json') return
        const tenant = await tenants.byHost(request.headers.host)
        if (!tenant) throw new ApiError('404')
        // A tenant the platform suspended: no sign-in, no call, its data untouched (issue #25).
        if (tenant.state !== 1) throw new ApiError('110001')
        request.tenant = tenant
        // A program's call with an API key (issue #29): no cookie beside it, so no forgery to guard against.
        const apiKey = presentedApiKey(request)
        if (apiKey !== null) {
          request.session = await apiKeySession(database.api, request, reply, apiKey, apiKeyLimit)
          return
        }
        // A call a cookie alone would authorise must carry the portal's header (issue #17, finding 7).
        // A beacon the browser does not vouch for is a visitor's, whatever cookie it carries.
        const sessionBelieved = checkCrossSite(request, csrfPaths)
        // The session opens the request's transaction for the handler (server/db/requestTransaction.ts) once the
        // whole request has arrived — a body still coming in must not hold a connection — and never for a socket.
        // (`complete` is false until the body has arrived; an injected request, whose body is whole, has none.)
        const hold = request.raw.complete !== false && request.headers.upgrade === undefined
        request.session = sessionBelieved ? await loadSession(database.api, request, { hold }) : null
      })
      // From the parsed body on (the first hook after it), the request's hooks and handler run in its scope: the
      // first withTenant takes the held transaction, any other connection asked for releases it first.
      api.addHook('preValidation', (request, _reply, done) => inRequestScope(heldOf(request), done))
      // Whatever the handler did not take is committed before the answer leaves (a refusal, a handler that never
      // needed the database), or when the request ends otherwise.
      const release = async (request: FastifyRequest) => {
        await heldOf(request)?.release()
      }
      api.addHook('onSend', async (request, _reply, payload) => {
        await release(request)
        return payload
      })
      api.addHook('onResponse', release)
      api.addHook('onRequestAbort', release)

      // The site settings and the like: `no-cache` with an ETag, 304 when the browser's copy is current. The
      // page copy is in the reader's language, so the answer varies with the Language header and cookie.
      api.addHook('onSend', async (request, reply, payload) => {
        if (request.method !== 'GET' || reply.statusCode !== 200 || typeof payload !== 'string') return payload
        if (!revalidated.has(request.routeOptions.url ?? '')) return payload
        const etag = etagOf(payload)
        reply.header('cache-control', REVALIDATE).header('etag', etag).header('vary', 'language, cookie')
        if (!matchesEtag(request, etag)) return payload
        reply.code(304)
        return null
      })

      // Every `?id=` names a record: a value outside the id column's range is the field's error here, for
      // every endpoint, before a handler or the database sees it (issue #17: 99999999999999999999 was a 500).
      api.addHook('preValidation', async (request) => {
        const id = (request.query as Record<string, unknown> | undefined)?.id
        if (id !== undefined && id !== '') parseId(id)
      })

      registerCustomEndpoints(
        api,
        manifest,
        database.api,
        {
          ...chatHandlers,
          ...siteHandlers,
          ...authHandlers,
          ...apiKeyHandlers,
          ...accountHandlers(engine),
          ...wechatBindingHandlers,
          ...roleHandlers(engine),
          ...messagingHandlers,
          ...letterHandlers(engine),
          ...membershipHandlers(engine),
          ...referenceHandlers(manifest),
          ...fileHandlers(manifest, engine),
          ...overlayHandlers,
          ...settingHandlers,
          ...exportHandlers,
          ...rateHandlers,
          ...scheduleHandlers,
          ...chartHandlers(manifest),
          ...spaHandlers(manifest, engine),
          ...clientAccountHandlers(engine),
          ...clientSalesHandlers(engine),
          ...clientServiceHandlers(engine),
          ...fbaServiceHandlers,
          ...fbaTrackingHandlers,
          ...fbaLabelHandlers(engine),
          ...fbaProductHandlers(manifest),
          ...userCallHandlers,
          ...newsHandlers,
          ...trackingHandlers,
          ...orderHandlers(manifest, engine),
          ...operatingHandlers(engine),
          ...dcsaHandlers(engine),
          ...tntHandlers,
          ...tntPortalHandlers(engine),
          ...trackingLinkHandlers,
          ...blInstructionHandlers(engine),
          ...billingHandlers(engine),
          ...billStatusHandlers(engine),
          ...orderChargeHandlers(manifest, engine),
          ...orderCallHandlers(manifest, engine),
          ...orderFileHandlers(manifest, engine),
          ...quoteHandlers,
          ...inquiryHandlers(manifest),
          ...pushHandlers,
          ...pushRecipientHandlers(engine),
          ...webhookHandlers(engine),
          ...transitionHandlers(manifest, engine),
          ...platformHandlers,
          ...imHandlers(engine),
          ...visitHandlers(manifest),
        },
        { imSocket: (socket, request) => chatHub.attach(socket, request) },
      )
      registerEngine(api, manifest, database.api, engine)
    },
    { prefix: '/api' },
  )

  // Each tenant's robots.txt and sitemap.xml; every other GET is a page of the portal: 200 for the route
  // table's paths, 404 for the rest, each with its title, description and main text (./portal/).
  registerCrawlerFiles(app, database.api, tenants)
  if (hasPortal && staticDir) registerPages(app, { template: readTemplate(staticDir), db: database.api, tenants })

  // An unknown path never reaches the /api scope's hook that reads the caller's language: read it here.
  app.setNotFoundHandler((request, reply) => {
    request.language = parseLanguage(
      (request.headers.language as string | undefined) ?? request.cookies?.language ?? undefined,
    )
    return sendError(new ApiError('404'), request, reply)
  })

  return app
}
