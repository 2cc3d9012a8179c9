import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import type { DB } from '../db/schema.ts'
import type { Language } from '../http/errors.ts'
import { ApiError, messageFor } from '../http/errors.ts'
import type { TenantResolver } from '../tenancy/resolve.ts'
import { withTenant } from '../tenancy/scope.ts'
import { pageLanguage, pageView } from './content.ts'
import { originOf } from './crawlers.ts'
import { escapeHtml, renderDocument } from './document.ts'
import { initialData, initialDataScript } from './initial.ts'
import { etagOf, matchesEtag } from './revalidate.ts'
import { portalRoutes, routeOf } from './routes.ts'
import { REVALIDATE } from './static.ts'

/**
 * Every page of the portal (issue #18). The portal routes on the client, so every page is its index.html;
 * but the HTTP status says whether the page exists: a path of the route table answers 200, anything else
 * (and the portal's own /404) 404 — with the same HTML, so the visitor still sees the portal's 404 page.
 * Pages are never stored without asking: `no-cache` with an ETag (a 304 when unchanged).
 *
 * Each page's HTML says what the page is — title, description, language, canonical address, Open Graph,
 * structured data — and carries its main text for readers and crawlers without JavaScript (./content.ts).
 * The language comes from the URL or the language cookie, so the answer varies with the cookie. The
 * answers the page's first drawing needs come with it (./initial.ts).
 */

export interface PortalPages {
  /** The built index.html, read once at start. */
  template: string
  db: Kysely<DB>
  tenants: TenantResolver
}

export function readTemplate(staticDir: string): string {
  return readFileSync(join(staticDir, 'index.html'), 'utf8')
}

export function pathOf(request: FastifyRequest): string {
  return request.url.split('?')[0] ?? '/'
}

/** Sends an HTML body with validation: `no-cache`, a weak ETag, 304 when the browser has it already. */
export function sendHtml(request: FastifyRequest, reply: FastifyReply, status: number, html: string) {
  const etag = etagOf(html)
  reply.header('cache-control', REVALIDATE).header('etag', etag).type('text/html; charset=utf-8')
  if (status === 200 && matchesEtag(request, etag)) return reply.code(304).send()
  return reply.code(status).send(html)
}

export function registerPages(app: FastifyInstance, { template, db, tenants }: PortalPages): void {
  app.get('/*', async (request, reply) => {
    const path = pathOf(request)
    // The API's unknown paths stay the API's: an envelope, never a page.
    if (path === '/api' || path.startsWith('/api/')) throw new ApiError('404')
    const tenant = await tenants.byHost(request.headers.host)
    if (tenant && tenant.state !== 1) return sendHtml(request, reply, 403, suspendedPage(pageLanguage(request)))
    const route = routeOf(path)
    const { status, view } = await pageView({ request, route, path, tenant, db, origin: originOf(request) })
    if (tenant) {
      // A route that only redirects (/ → /dashboard) first draws what it leads to.
      const shown = route?.redirect ? portalRoutes.find((r) => r.name === route.redirect) : route
      const component = status === 200 && shown?.access === 'public' ? (shown.component ?? null) : null
      const data = await initialData(tenant, pageLanguage(request), component, (work) =>
        withTenant(db, tenant.id, work),
      )
      view.data = initialDataScript(data)
    }
    reply.header('vary', 'cookie')
    return sendHtml(request, reply, status, renderDocument(template, view))
  })
}

/**
 * What every page of a suspended tenant's host shows (issue #25): one plain page in the reader's language saying
 * the site is suspended — 403, not a server error, and no portal script (every call would be refused anyway).
 */
export function suspendedPage(language: Language): string {
  const text = escapeHtml(messageFor('error.110001', language))
  return `<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${text}</title></head>
<body style="font-family: sans-serif; display: grid; place-items: center; min-height: 90vh; margin: 0; color: #303133">
<main><h1 id="site-suspended" style="font-size: 20px; font-weight: 500">${text}</h1></main></body></html>
`
}
