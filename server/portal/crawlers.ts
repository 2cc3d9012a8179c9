import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import { newsHref } from '../../model/siteMeta.ts'
import type { DB } from '../db/schema.ts'
import { publishedNews } from '../domain/news/queries.ts'
import type { TenantResolver } from '../tenancy/resolve.ts'
import { withTenant } from '../tenancy/scope.ts'
import { escapeHtml } from './document.ts'
import { portalRoutes, type RouteEntry } from './routes.ts'

/**
 * What a crawler asks a tenant's site for first (issue #18): /robots.txt, which lets it in and names the
 * sitemap, and /sitemap.xml, the public pages and every published news article — each for the host asked,
 * so each tenant's domain lists its own site and its own news.
 */

/** The sitemap protocol's limit for one file. */
export const SITEMAP_LIMIT = 50_000

/** A public page of the site that stands on its own (no parameter, not the 404 page, not a mobile twin). */
export function isListedPage(route: RouteEntry): boolean {
  return (
    route.access === 'public' &&
    route.status === 'built' &&
    route.layout === 'site' &&
    route.redirect === null &&
    !route.path.includes(':') &&
    route.component !== 'notFound' &&
    route.component !== 'newsDetail'
  )
}

const CACHE = 'public, max-age=3600'

export function originOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`
}

export function registerCrawlerFiles(app: FastifyInstance, db: Kysely<DB>, tenants: TenantResolver): void {
  app.get('/robots.txt', async (request, reply) => {
    const tenant = await tenants.byHost(request.headers.host)
    if (tenant?.state !== 1) return reply.code(404).type('text/plain; charset=utf-8').send('Not found\n')
    // Everything may be crawled, the API included: a crawler that runs the portal's script needs the public
    // calls to see what a visitor sees. Signed-in pages say `noindex` themselves.
    const body = ['User-agent: *', 'Allow: /', '', `Sitemap: ${originOf(request)}/sitemap.xml`, ''].join('\n')
    return reply.type('text/plain; charset=utf-8').header('cache-control', CACHE).send(body)
  })

  app.get('/sitemap.xml', async (request, reply) => {
    const tenant = await tenants.byHost(request.headers.host)
    if (tenant?.state !== 1) return reply.code(404).type('text/plain; charset=utf-8').send('Not found\n')
    const origin = originOf(request)
    const pages = portalRoutes.filter(isListedPage).map((route) => ({ loc: `${origin}${route.path}`, lastmod: null }))
    const news = await withTenant(db, tenant.id, (trx) => publishedNews(trx, tenant.id, SITEMAP_LIMIT - pages.length))
    const entries = [
      ...pages,
      ...news.map((item) => ({ loc: `${origin}${newsHref(item.id)}`, lastmod: item.publishedAt.slice(0, 10) })),
    ]
    const body = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
      ...entries.map(
        (entry) =>
          `  <url><loc>${escapeHtml(entry.loc)}</loc>${entry.lastmod ? `<lastmod>${entry.lastmod}</lastmod>` : ''}</url>`,
      ),
      '</urlset>',
      '',
    ].join('\n')
    return reply.type('application/xml; charset=utf-8').header('cache-control', CACHE).send(body)
  })
}
