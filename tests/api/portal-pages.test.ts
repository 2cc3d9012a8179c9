import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../server/app.ts'
import type { Database } from '../../server/db/database.ts'
import { sitePages } from '../../server/domain/site/pages.ts'
import { freshDatabase } from '../support/database.ts'
import { localeText } from '../support/portal.ts'

/**
 * Issue #18, findable: what a crawler or `curl` gets for each tenant's public pages — title, description,
 * language, canonical address, Open Graph and JSON-LD in the head, the page's main text in the root element,
 * robots.txt and sitemap.xml per host. A portal of its own, shaped like vite's index.html: no build needed.
 */

const dist = mkdtempSync(join(tmpdir(), 'waybill-pages-'))
mkdirSync(join(dist, 'assets'))
writeFileSync(join(dist, 'assets/app-Q1w2E3r4.js'), 'export {}\n')
writeFileSync(
  join(dist, 'index.html'),
  `<!doctype html>
<html lang="zh">
  <head>
    <meta charset="UTF-8" />
    <link rel="icon" href="/favicon.svg" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <title>Waybill</title>
    <script type="module" crossorigin src="/assets/app-Q1w2E3r4.js"></script>
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`,
)

let database: Database
let app: FastifyInstance
beforeAll(async () => {
  database = await freshDatabase()
  app = await buildApp({ database, staticDir: dist })
})
afterAll(async () => {
  await app?.close()
  await database?.close()
  rmSync(dist, { recursive: true, force: true })
})

const get = (url: string, { host = 'localhost', language }: { host?: string; language?: string } = {}) =>
  app.inject({ method: 'GET', url, headers: { host, ...(language ? { cookie: `language=${language}` } : {}) } })

interface Card {
  id: number
  title: string
  summary: string
}

async function newsOf(host: string, language: string): Promise<Card[]> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/b2b/public/api/information/list',
    headers: { host, language },
    payload: { pageSize: 50 },
  })
  return response.json().content.list
}

/** The parts of a page a crawler reads. */
function read(html: string) {
  const attr = (pattern: RegExp) => pattern.exec(html)?.[1]
  const root = /<div id="root">([\s\S]*)<\/div>\s*<\/body>/.exec(html)?.[1] ?? ''
  const og = Object.fromEntries(
    [...html.matchAll(/<meta property="(og:[a-z_]+)" content="([^"]*)"/g)].map((m) => [m[1], m[2]]),
  )
  return {
    lang: attr(/<html lang="([^"]+)"/),
    title: attr(/<title>([^<]*)<\/title>/),
    description: attr(/<meta name="description" content="([^"]*)"/),
    robots: attr(/<meta name="robots" content="([^"]*)"/),
    canonical: attr(/<link rel="canonical" href="([^"]*)"/),
    alternates: [...html.matchAll(/<link rel="alternate" hreflang="([^"]+)" href="([^"]+)"/g)].map((m) => [m[1], m[2]]),
    og,
    jsonLd: [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
      (m) => JSON.parse(m[1] as string) as Record<string, unknown>,
    ),
    root,
    text: root
      .replace(/<[^>]+>/g, ' ')
      .replace(/&amp;/g, '&')
      .replace(/&#39;/g, "'")
      .replace(/&quot;/g, '"'),
  }
}

const fill = (text: string, site: string) => text.replace('{{site}}', site)

describe('the news page (/News), as curl sees it', () => {
  it('has its title, description, language, canonical address, Open Graph and the headlines', async () => {
    const response = await get('/News', { language: 'en' })
    expect(response.statusCode).toBe(200)
    const page = read(response.body)
    expect(page.lang).toBe('en')
    expect(page.title).toBe('News — Huayuan Logistics')
    expect(page.description).toBe(fill(localeText('en', 'site', 'description_news'), 'Huayuan Logistics'))
    expect(page.canonical).toBe('http://localhost/News')
    expect(page.alternates).toEqual([
      ['zh', 'http://localhost/News?lang=zh'],
      ['en', 'http://localhost/News?lang=en'],
      ['ja', 'http://localhost/News?lang=ja'],
      ['es', 'http://localhost/News?lang=es'],
      ['x-default', 'http://localhost/News'],
    ])
    expect(page.og).toMatchObject({
      'og:type': 'website',
      'og:site_name': 'Huayuan Logistics',
      'og:title': 'News — Huayuan Logistics',
      'og:url': 'http://localhost/News',
      'og:image': 'http://localhost/logo.svg',
      'og:locale': 'en_US',
    })
    const news = await newsOf('localhost', 'en')
    expect(news.length).toBeGreaterThan(5)
    for (const item of news.slice(0, 10)) {
      expect(page.text).toContain(item.title)
      expect(page.root).toContain(`href="/InformationCenterDetail?id=${item.id}"`)
    }
    expect(page.root).toContain('<h1>News</h1>')
  })

  it('speaks the portal’s language: zh by default, the cookie’s, or ?lang= (then its own canonical address)', async () => {
    const zh = read((await get('/News')).body)
    expect(zh.lang).toBe('zh')
    expect(zh.title).toBe(`${localeText('zh', 'route', 'news')} — 华远国际物流`)
    expect(zh.text).toContain((await newsOf('localhost', 'zh_CN'))[0]?.title)
    const ja = read((await get('/News?lang=ja&category=policy')).body)
    expect(ja.lang).toBe('ja')
    expect(ja.canonical).toBe('http://localhost/News?lang=ja')
    expect(ja.og['og:locale']).toBe('ja_JP')
    // The language follows the cookie, so the answer varies with it.
    expect((await get('/News')).headers.vary).toMatch(/cookie/i)
  })

  it('carries the organisation as JSON-LD', async () => {
    const page = read((await get('/News', { language: 'en' })).body)
    expect(page.jsonLd).toEqual([
      expect.objectContaining({
        '@context': 'https://schema.org',
        '@type': 'Organization',
        name: 'Huayuan Logistics',
        legalName: 'Huayuan International Freight Forwarding (Shanghai) Co., Ltd.',
        url: 'http://localhost/',
        logo: 'http://localhost/logo.svg',
        telephone: '400-665-9211',
      }),
    ])
  })
})

describe('the main text without JavaScript', () => {
  it('home: the site, its services, the latest news and how to reach it — per tenant', async () => {
    const home = read((await get('/dashboard', { language: 'en' })).body)
    expect(home.title).toBe(`${localeText('en', 'route', 'dashboard')} — Huayuan Logistics`)
    expect(home.description).toBe(fill(localeText('en', 'site', 'metaHome'), 'Huayuan Logistics'))
    expect(home.root).toContain('<h1>Huayuan Logistics</h1>')
    expect(home.text).toContain(localeText('en', 'site', 'servicesTitle'))
    expect(home.text).toContain('Sea freight FCL')
    expect(home.text).toContain((await newsOf('localhost', 'en'))[0]?.title)
    expect(home.text).toContain('400-665-9211')

    const acme = read((await get('/dashboard', { host: 'acme.localhost', language: 'en' })).body)
    expect(acme.root).toContain('<h1>Acme Logistics</h1>')
    expect(acme.canonical).toBe('http://acme.localhost/dashboard')
    expect(acme.text).toContain('+86 755 8888 6600')
    const acmeNews = await newsOf('acme.localhost', 'en')
    expect(acme.text).toContain(acmeNews[0]?.title)
    for (const item of await newsOf('localhost', 'en')) expect(acme.text).not.toContain(item.title)

    // / is the home page too; its canonical address is the one the portal shows it at.
    const root = read((await get('/', { language: 'en' })).body)
    expect(root.canonical).toBe('http://localhost/dashboard')
    expect(root.root).toContain('<h1>Huayuan Logistics</h1>')
  })

  it('service and about pages: their copy, described by their lead', async () => {
    const copy = sitePages({}, 'en', 'Huayuan Logistics')
    const fcl = read((await get('/FclProductService', { language: 'en' })).body)
    expect(fcl.title).toBe(`${localeText('en', 'route', 'fclProductService')} — Huayuan Logistics`)
    expect(fcl.description).toBe(copy.fcl.lead)
    for (const section of copy.fcl.sections) {
      expect(fcl.text).toContain(section.heading)
      expect(fcl.text).toContain(section.text)
    }
    // SPEC §1's schedule query is among the services, a link to the sailing schedules.
    expect(fcl.root).toContain(`<a href="/shippingSchedules">${localeText('en', 'route', 'shippingSchedules')}</a>`)
    const about = read((await get('/WhoWeAre', { language: 'en' })).body)
    expect(about.description).toBe(copy.about.lead)
    expect(about.root).toContain(`<h1>${copy.about.title}</h1>`)
    expect(about.text).toContain(copy.about.sections[0]?.text)
  })

  it('a news article: its text, NewsArticle structured data, its own title; 404 when there is no such article', async () => {
    const [first] = await newsOf('localhost', 'en')
    if (!first) throw new Error('no news')
    const response = await get(`/InformationCenterDetail?id=${first.id}`, { language: 'en' })
    expect(response.statusCode).toBe(200)
    const page = read(response.body)
    expect(page.title).toBe(`${first.title} — Huayuan Logistics`)
    expect(page.description).toBe(first.summary)
    expect(page.canonical).toBe(`http://localhost/InformationCenterDetail?id=${first.id}`)
    expect(page.og['og:type']).toBe('article')
    expect(page.root).toContain(`<h1>${first.title}</h1>`)
    const article = page.jsonLd.find((data) => data['@type'] === 'NewsArticle')
    expect(article).toMatchObject({
      headline: first.title,
      inLanguage: 'en',
      mainEntityOfPage: page.canonical,
      publisher: { '@type': 'Organization', name: 'Huayuan Logistics' },
    })
    expect(String(article?.datePublished)).toMatch(/^\d{4}-\d\d-\d\dT/)
    expect(page.jsonLd.some((data) => data['@type'] === 'Organization')).toBe(true)
    // The mobile article is the same article: the same canonical address.
    const mobile = read((await get(`/m/news/detail?id=${first.id}`, { language: 'en' })).body)
    expect(mobile.canonical).toBe(page.canonical)

    const acme = (await newsOf('acme.localhost', 'en'))[0]
    for (const url of [
      '/InformationCenterDetail?id=999999',
      '/InformationCenterDetail',
      `/InformationCenterDetail?id=${acme?.id}`,
    ]) {
      const missing = await get(url, { language: 'en' })
      expect(missing.statusCode, url).toBe(404)
      expect(read(missing.body).robots).toBe('noindex')
    }
  })

  it('the 404 page says so, and is nobody’s search result', async () => {
    const response = await get('/no-such-page', { language: 'en' })
    expect(response.statusCode).toBe(404)
    const page = read(response.body)
    expect(page.robots).toBe('noindex')
    expect(page.text).toContain(localeText('en', 'ui', 'notFoundTitle'))
    expect(page.canonical).toBeUndefined()
  })

  it('workbench pages: their title and noindex, no text and no structured data', async () => {
    const response = await get('/orderList', { language: 'en' })
    expect(response.statusCode).toBe(200)
    const page = read(response.body)
    expect(page.title).toBe(`${localeText('en', 'route', 'orderList')} — Huayuan Logistics`)
    expect(page.robots).toBe('noindex')
    expect(page.jsonLd).toEqual([])
    expect(page.root).toBe('')
  })

  it("a shared tracking link's page: its address is a credential, so noindex, no Referer, no canonical", async () => {
    const response = await get(`/sharedTracking/${'A'.repeat(43)}`, { language: 'en' })
    expect(response.statusCode).toBe(200)
    const page = read(response.body)
    expect(page.title).toBe(`${localeText('en', 'route', 'sharedTracking')} — Huayuan Logistics`)
    expect(page.robots).toBe('noindex')
    expect(response.body).toContain('<meta name="referrer" content="no-referrer" />')
    expect(page.canonical).toBeUndefined()
    expect(page.alternates).toEqual([])
    expect(page.root).toBe('')
    // Never in the sitemap: a page for whoever holds its link only.
    expect((await get('/sitemap.xml')).body).not.toContain('sharedTracking')
  })
})

describe('robots.txt and sitemap.xml, per tenant', () => {
  it('robots.txt lets crawlers in and names the host’s sitemap', async () => {
    const response = await get('/robots.txt')
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8')
    expect(response.body).toMatch(/^User-agent: \*$/m)
    expect(response.body).toMatch(/^Sitemap: http:\/\/localhost\/sitemap\.xml$/m)
    const acme = await get('/robots.txt', { host: 'acme.localhost' })
    expect(acme.body).toMatch(/^Sitemap: http:\/\/acme\.localhost\/sitemap\.xml$/m)
    expect((await get('/robots.txt', { host: 'nobody.example' })).statusCode).toBe(404)
  })

  it('sitemap.xml lists the public pages and every published article of the host’s tenant, nothing else', async () => {
    const response = await get('/sitemap.xml')
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe('application/xml; charset=utf-8')
    expect(response.body).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/,
    )
    const locs = [...response.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1])
    for (const path of ['/dashboard', '/News', '/orderTracking', '/productService', '/FclProductService', '/WhoWeAre'])
      expect(locs).toContain(`http://localhost${path}`)
    for (const path of ['/orderList', '/404', '/m', '/login', '/palletInquiry/:type', '/'])
      expect(locs).not.toContain(`http://localhost${path}`)
    const articles = locs.filter((loc) => loc?.includes('InformationCenterDetail'))
    const published = [
      ...(await newsOf('localhost', 'zh_CN')),
      ...(await newsOf('localhost', 'en_US')),
      ...(await newsOf('localhost', 'ja_JP')),
    ]
    expect(articles.sort()).toEqual(
      published.map((item) => `http://localhost/InformationCenterDetail?id=${item.id}`).sort(),
    )
    expect(response.body).toMatch(/<lastmod>\d{4}-\d\d-\d\d<\/lastmod>/)

    const acme = await get('/sitemap.xml', { host: 'acme.localhost' })
    const acmeLocs = [...acme.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1])
    expect(acmeLocs.every((loc) => loc?.startsWith('http://acme.localhost/'))).toBe(true)
    const acmeArticles = acmeLocs.filter((loc) => loc?.includes('InformationCenterDetail'))
    expect(acmeArticles).toHaveLength((await newsOf('acme.localhost', 'en')).length)
    for (const loc of articles) expect(acmeLocs).not.toContain(loc?.replace('localhost', 'acme.localhost'))
  })
})

describe("the answers a page's first drawing needs, in its HTML (issue #18, speed on a phone)", () => {
  const initial = (html: string) =>
    JSON.parse(
      /<script type="application\/json" id="waybill-initial">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? 'null',
    ) as Record<string, unknown> | null
  const api = async (url: string, host: string, language = 'zh') =>
    (await app.inject({ method: 'GET', url: `/api${url}`, headers: { host, language } })).json().content

  it('the home page carries what the site settings, lanes and news calls answer, for its own tenant', async () => {
    for (const [host, path, language] of [
      ['localhost', '/m', 'zh'],
      ['acme.localhost', '/dashboard', 'en'],
    ] as const) {
      const data = initial((await get(path, { host, language })).body)
      expect(data?.siteSettings).toEqual(await api('/b2b/public/api/site/settings', host, language))
      expect(data?.personalization).toEqual(await api('/b2b/public/api/personalization', host, language))
      expect(data?.specialRoutes).toEqual((await api('/b2b/public/api/site/specialRoutes', host, language)).list)
      const hot = (await api('/b2b/public/api/information/hot?limit=5', host, language)).list
      expect(hot.length).toBeGreaterThan(0)
      expect(data?.homeNews).toEqual({
        hot,
        recommended: (await api('/b2b/public/api/information/recommended?limit=5', host, language)).list,
        limit: 5,
      })
      expect(data?.language).toBe(language)
      // The direct-order contact is for signed-in customers only, as in the settings call.
      expect(JSON.stringify(data)).not.toContain('directOrder')
    }
  })

  it('other pages carry the settings alone; an unknown host none', async () => {
    const data = initial((await get('/orderList')).body)
    expect(Object.keys(data ?? {}).sort()).toEqual(['personalization', 'siteSettings'])
    expect(initial((await get('/dashboard', { host: 'nobody.example' })).body)).toBeNull()
  })
})
