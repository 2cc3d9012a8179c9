import type { FastifyRequest } from 'fastify'
import type { Kysely, Transaction } from 'kysely'
import {
  ABOUT_LINKS,
  agreementFor,
  DESKTOP_OF_MOBILE,
  descriptionKey,
  newsHref,
  pageOfRoute,
  pageTitle,
  SERVICE_LINKS,
  SERVICE_TOOLS,
} from '../../model/siteMeta.ts'
import type { DB } from '../db/schema.ts'
import { articleBlocks } from '../domain/news/articleText.ts'
import { findArticle, listNews, type NewsArticle, type NewsCard, newsLanguage } from '../domain/news/queries.ts'
import { type SitePage, sitePages } from '../domain/site/pages.ts'
import { LANGUAGES, type Language, messageFor } from '../http/errors.ts'
import { parseId } from '../http/ids.ts'
import { richTextHtml } from '../http/sanitize.ts'
import type { Tenant } from '../tenancy/resolve.ts'
import { withTenant } from '../tenancy/scope.ts'
import { escapeHtml as h, type PageHead, type PageView } from './document.ts'
import { NOT_FOUND_PATH, portalRoutes, type RouteEntry } from './routes.ts'

/**
 * What each page of a tenant's public site says before any JavaScript runs (issue #18): its head (title,
 * description, canonical address, languages, Open Graph, JSON-LD) and its main text — the home page's
 * services, news and contact, a service or about page's copy, the news list's headlines, an article. The
 * texts are the portal's own (locales/, the same keys the route gate uses: model/siteMeta.ts) and the
 * tenant's settings and news. The workbench's pages get their title and `noindex`, nothing else.
 */

/** SPEC §9 as the portal reads it (runtime/i18n.ts initialLanguage): ?lang=, then the language cookie, then zh. */
export function pageLanguage(request: FastifyRequest): Language {
  const query = request.query as Record<string, unknown> | undefined
  for (const wanted of [query?.lang, request.cookies.language])
    if (typeof wanted === 'string' && (LANGUAGES as readonly string[]).includes(wanted)) return wanted as Language
  return 'zh'
}

const OG_LOCALE: Record<Language, string> = { zh: 'zh_CN', en: 'en_US', ja: 'ja_JP', es: 'es_ES' }

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '')

/** The tenant as its pages present it, in one language. */
export interface Site {
  name: string
  legalName: string
  origin: string
  logo: string | null
  icon: string | null
  phone: string
  mail: string
  address: string
  copyright: string
  icp: string
}

/** An address on this site: absolute URLs stay as they are, paths get the request's origin. */
export function absolute(origin: string, url: string): string {
  if (/^https?:\/\//i.test(url)) return url
  return `${origin}${url.startsWith('/') ? '' : '/'}${url}`
}

export function siteOf(tenant: Tenant, language: Language, origin: string): Site {
  const s = tenant.settings
  const zh = language === 'zh'
  const logo = Array.isArray(s.logoList) ? text((s.logoList[0] as { url?: unknown } | undefined)?.url) : ''
  return {
    name: zh
      ? text(s.websiteName) || tenant.nameZh
      : text(s.websiteNameEn) || text(s.websiteName) || tenant.nameEn || tenant.nameZh,
    legalName: zh ? tenant.nameZh : tenant.nameEn || tenant.nameZh,
    origin,
    logo: logo ? absolute(origin, logo) : null,
    icon: text(s.iconPath) || null,
    phone: text(s.servicePhone),
    mail: text(s.mail),
    address: zh ? text(s.companyAddress) : text(s.companyAddressEn) || text(s.companyAddress),
    copyright: zh ? text(s.copyright) : text(s.copyrightEn) || text(s.copyright),
    icp: text(s.icp),
  }
}

/** schema.org Organization: who runs this site (every public page). */
export function organization(site: Site): Record<string, unknown> {
  return {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    '@id': `${site.origin}/#organization`,
    name: site.name,
    legalName: site.legalName,
    url: `${site.origin}/`,
    ...(site.logo ? { logo: site.logo } : {}),
    ...(site.phone ? { telephone: site.phone } : {}),
    ...(site.mail ? { email: site.mail } : {}),
    ...(site.address ? { address: { '@type': 'PostalAddress', streetAddress: site.address } } : {}),
  }
}

/** schema.org NewsArticle for an article page. */
export function newsArticle(site: Site, article: NewsArticle, url: string, image: string | null) {
  return {
    '@context': 'https://schema.org',
    '@type': 'NewsArticle',
    headline: article.title.slice(0, 110),
    ...(article.summary ? { description: article.summary } : {}),
    datePublished: article.publishedAt,
    inLanguage: article.language,
    mainEntityOfPage: url,
    url,
    ...(image ? { image: [image] } : {}),
    ...(article.tags.length ? { keywords: article.tags.join(', ') } : {}),
    author: article.author
      ? { '@type': 'Person', name: article.author }
      : { '@type': 'Organization', name: site.name, url: `${site.origin}/` },
    publisher: {
      '@type': 'Organization',
      '@id': `${site.origin}/#organization`,
      name: site.name,
      ...(site.logo ? { logo: { '@type': 'ImageObject', url: site.logo } } : {}),
    },
  }
}

/** The page's ?id=, or null when there is none or it is no id (the page then has no article). */
function idOf(request: FastifyRequest): number | null {
  try {
    return parseId((request.query as Record<string, unknown> | undefined)?.id)
  } catch {
    return null
  }
}

/** The address search engines should keep for this page: the full site's, with only what picks the content. */
function canonicalPath(route: RouteEntry, path: string, articleId: number | null): string {
  if (route.component === 'newsDetail' && articleId !== null) return newsHref(articleId)
  if (route.path.includes(':')) return path
  if (route.path === '/') return '/dashboard'
  return DESKTOP_OF_MOBILE[route.path] ?? route.path
}

const withQuery = (path: string, name: string, value: string) =>
  `${path}${path.includes('?') ? '&' : '?'}${name}=${encodeURIComponent(value)}`

const date = (iso: string, language: Language) =>
  new Intl.DateTimeFormat(
    language === 'zh' ? 'zh-CN' : language === 'ja' ? 'ja-JP' : language === 'es' ? 'es-ES' : 'en-GB',
    {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      timeZone: 'UTC',
    },
  ).format(new Date(iso))

export interface PageRequest {
  request: FastifyRequest
  /** The route the path opens, or undefined for a path that is no page. */
  route: RouteEntry | undefined
  path: string
  tenant: Tenant | null
  db: Kysely<DB>
  origin: string
}

export interface PageResult {
  status: 200 | 404
  view: PageView
}

export async function pageView({ request, route: asked, path, tenant, db, origin }: PageRequest): Promise<PageResult> {
  let route = asked
  const language = pageLanguage(request)
  const t = (key: string, params: Record<string, unknown> = {}) => messageFor(key, language, params)
  const site = tenant ? siteOf(tenant, language, origin) : null
  const siteName = site?.name ?? 'Waybill'
  const icon = site?.icon ?? undefined

  const notFound = (): PageResult => ({
    status: 404,
    view: {
      head: { lang: language, title: pageTitle(t('route.notFound'), siteName), robots: 'noindex', icon },
      body: site ? frame(site, t, notFoundMain(t)) : undefined,
    },
  })
  if (!route || route.path === NOT_FOUND_PATH) return notFound()

  // A route that only redirects (/ → /dashboard) shows what it leads to.
  if (route.redirect) route = portalRoutes.find((r) => r.name === route?.redirect) ?? route
  const title = pageTitle(t(route.title), siteName)
  // A shared tracking link's page (issue #29): its address is the credential, so it is nobody's search result, sends
  // no Referer on, and its summary is not written here — the shipment is read by the portal with the token.
  if (route.component === 'sharedTracking')
    return { status: 200, view: { head: { lang: language, title, robots: 'noindex', referrer: 'no-referrer', icon } } }
  if (route.access !== 'public' || !tenant || !site) {
    // The workbench and the signed-in pages: nobody's search result.
    return { status: 200, view: { head: { lang: language, title, robots: 'noindex', icon } } }
  }

  const component = route.component
  const articleId = component === 'newsDetail' ? idOf(request) : null
  const tenantId = tenant.id
  const settings = tenant.settings
  const load = <T>(work: (trx: Transaction<DB>) => Promise<T>) => withTenant(db, tenantId, work)
  const news = newsLanguage(language)

  let main: string
  let description = t(descriptionKey(component) ?? 'site.metaDefault', { site: site.name })
  let headTitle = title
  let ogType = 'website'
  let image = site.logo
  const jsonLd: unknown[] = [organization(site)]
  let canonical = absolute(origin, canonicalPath(route, path, articleId))
  const lang = (request.query as Record<string, unknown> | undefined)?.lang
  const alternates: { hreflang: string; href: string }[] = []

  if (component === 'newsDetail') {
    if (articleId === null) return notFound()
    const article = await load((trx) => findArticle(trx, tenantId, articleId))
    if (!article) return notFound()
    headTitle = pageTitle(article.title, site.name)
    description = article.summary || description
    ogType = 'article'
    if (article.cover) image = absolute(origin, `/api/b2b/public/api/information/cover?id=${article.id}`)
    jsonLd.push(newsArticle(site, article, canonical, image))
    main = articleMain(article, language)
  } else {
    // A page in another language is another address; x-default is the one that follows the reader's choice.
    if (typeof lang === 'string' && lang === language) canonical = withQuery(canonical, 'lang', language)
    const base = absolute(origin, canonicalPath(route, path, null))
    for (const code of LANGUAGES) alternates.push({ hreflang: code, href: withQuery(base, 'lang', code) })
    alternates.push({ hreflang: 'x-default', href: base })

    if (component === 'home') {
      const latest = await load((trx) => listNews(trx, tenantId, newsQuery(news, 5)))
      main = homeMain(site, t, sitePages(settings, language, site.name), latest.list, language, description)
    } else if (component === 'servicePage' || component === 'aboutPage') {
      const pages = sitePages(settings, language, site.name)
      const page = pages[pageOfRoute(route) ?? 'services']
      description = page.lead
      main = copyMain(page, component === 'servicePage' ? SERVICE_LINKS : ABOUT_LINKS, pages)
      if (component === 'servicePage')
        main = main.replace(
          '</ul></nav>',
          `${SERVICE_TOOLS.map((tool) => `<li><a href="${tool.to}">${h(t(tool.label))}</a></li>`).join('')}</ul></nav>`,
        )
    } else if (component === 'newsList') {
      const first = await load((trx) => listNews(trx, tenantId, newsQuery(news, 10)))
      main = newsMain(t(route.title), description, first.list, language)
    } else if (component === 'agreement') {
      const list = settings[route.name === 'privacyAgreement' ? 'privacyAgreementList' : 'serviceAgreementList']
      const agreement = agreementFor(Array.isArray(list) ? list : undefined, language)
      main = `<h1>${h(agreement?.title || t(route.title))}</h1>${
        agreement ? richTextHtml(agreement.content) : `<p>${h(description)}</p>`
      }`
    } else {
      main = `<h1>${h(t(route.title))}</h1><p>${h(description)}</p>`
    }
  }

  const head: PageHead = {
    lang: language,
    title: headTitle,
    description,
    canonical,
    alternates,
    icon,
    openGraph: [
      ['og:type', ogType],
      ['og:site_name', site.name],
      ['og:title', headTitle],
      ['og:description', description],
      ['og:url', canonical],
      ...(image ? ([['og:image', image]] as [string, string][]) : []),
      ['og:locale', OG_LOCALE[language]],
    ],
    jsonLd,
  }
  return { status: 200, view: { head, body: frame(site, t, main, route.footer) } }
}

const newsQuery = (language: ReturnType<typeof newsLanguage>, pageSize: number) => ({
  category: 'all' as const,
  language,
  pageNum: 1,
  pageSize,
})

type Texts = (key: string, params?: Record<string, unknown>) => string

/**
 * The public site's frame around a page: the site's name and main pages above, its contact below (not on
 * a page whose screen says `footer: false`, SPEC §2's /resetPassword).
 */
function frame(site: Site, t: Texts, main: string, footer = true): string {
  const nav = [
    ['/dashboard', 'route.dashboard'],
    ['/orderTracking', 'route.orderTracking'],
    ['/productService', 'route.productService'],
    ['/News', 'route.news'],
    ['/aboutUs', 'route.aboutUs'],
  ]
    .map(([to, key]) => `<a href="${to}">${h(t(key as string))}</a>`)
    .join('')
  const logo = site.logo ? `<img src="${h(site.logo)}" alt="" width="32" height="32" />` : ''
  const contact = [
    site.phone && `${h(t('site.phone'))}: ${h(site.phone)}`,
    site.mail && `${h(t('site.mail'))}: <a href="mailto:${h(site.mail)}">${h(site.mail)}</a>`,
    site.address && `${h(t('site.address'))}: ${h(site.address)}`,
  ].filter(Boolean)
  return (
    `<header><a href="/dashboard">${logo}<strong>${h(site.name)}</strong></a><nav>${nav}</nav></header>` +
    `<main>${main}</main>` +
    (footer
      ? `<footer>${contact.map((c) => `<span>${c}</span>`).join('')}${
          site.copyright ? `<span>${h(site.copyright)}</span>` : ''
        }${site.icp ? `<span>${h(site.icp)}</span>` : ''}</footer>`
      : '')
  )
}

function notFoundMain(t: Texts): string {
  return (
    `<h1>${h(t('ui.notFoundTitle'))}</h1><p>${h(t('ui.notFoundText'))}</p>` +
    `<ul><li><a href="/productService">${h(t('route.productService'))}</a></li>` +
    `<li><a href="/orderTracking">${h(t('route.orderTracking'))}</a></li>` +
    `<li><a href="/aboutUs">${h(t('route.aboutUs'))}</a></li></ul>`
  )
}

function headlines(list: readonly NewsCard[], language: Language, heading: 'h2' | 'h3'): string {
  return `<ul>${list
    .map(
      (item) =>
        `<li lang="${item.language}"><${heading}><a href="${newsHref(item.id)}">${h(item.title)}</a></${heading}>` +
        `<time datetime="${item.publishedAt}">${h(date(item.publishedAt, language))}</time>` +
        `${item.summary ? `<p>${h(item.summary)}</p>` : ''}</li>`,
    )
    .join('')}</ul>`
}

function homeMain(
  site: Site,
  t: Texts,
  pages: Record<string, SitePage>,
  latest: readonly NewsCard[],
  language: Language,
  description: string,
): string {
  const services = SERVICE_LINKS.filter((link) => link.page !== 'services')
    .map((link) => {
      const page = pages[link.page]
      return page ? `<li><a href="${link.to}">${h(page.title)}</a>: ${h(page.lead)}</li>` : ''
    })
    .join('')
  const contact = [
    site.phone && `<li>${h(t('site.phone'))}: ${h(site.phone)}</li>`,
    site.mail && `<li>${h(t('site.mail'))}: ${h(site.mail)}</li>`,
    site.address && `<li>${h(t('site.address'))}: ${h(site.address)}</li>`,
  ]
    .filter(Boolean)
    .join('')
  return (
    `<h1>${h(site.name)}</h1><p><strong>${h(t('site.heroHeadline'))}</strong></p><p>${h(description)}</p>` +
    `<section><h2>${h(t('site.servicesTitle'))}</h2><p>${h(t('site.servicesLead'))}</p><ul>${services}</ul></section>` +
    (latest.length
      ? `<section><h2>${h(t('site.newsTitle'))}</h2>${headlines(latest, language, 'h3')}<p><a href="/News">${h(t('site.moreNews'))}</a></p></section>`
      : '') +
    (contact ? `<section><h2>${h(t('site.contactTitle'))}</h2><ul>${contact}</ul></section>` : '')
  )
}

function copyMain(
  page: SitePage,
  links: readonly { page: string; to: string }[],
  pages: Record<string, SitePage>,
): string {
  return (
    `<h1>${h(page.title)}</h1><p>${h(page.lead)}</p>` +
    page.sections.map((s) => `<section><h2>${h(s.heading)}</h2><p>${h(s.text)}</p></section>`).join('') +
    `<nav><ul>${links
      .map((link) => `<li><a href="${link.to}">${h(pages[link.page]?.title ?? link.to)}</a></li>`)
      .join('')}</ul></nav>`
  )
}

function newsMain(title: string, description: string, list: readonly NewsCard[], language: Language): string {
  return `<h1>${h(title)}</h1><p>${h(description)}</p>${headlines(list, language, 'h2')}`
}

function articleMain(article: NewsArticle, language: Language): string {
  let open = false
  const parts: string[] = []
  for (const block of articleBlocks(article.content)) {
    if (block.kind === 'item' && !open) parts.push('<ul>')
    if (block.kind !== 'item' && open) parts.push('</ul>')
    open = block.kind === 'item'
    const tag = { heading: 'h2', paragraph: 'p', item: 'li', quote: 'blockquote' }[block.kind]
    parts.push(`<${tag}>${h(block.text)}</${tag}>`)
  }
  if (open) parts.push('</ul>')
  return (
    `<article lang="${article.language}"><h1>${h(article.title)}</h1>` +
    `<p><time datetime="${article.publishedAt}">${h(date(article.publishedAt, language))}</time>` +
    `${article.author ? ` · ${h(article.author)}` : ''}${article.source ? ` · ${h(article.source)}` : ''}</p>` +
    `${article.summary ? `<p><strong>${h(article.summary)}</strong></p>` : ''}${parts.join('')}</article>`
  )
}
