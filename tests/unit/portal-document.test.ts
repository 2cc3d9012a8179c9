import { describe, expect, it } from 'vitest'
import { descriptionKey, pageOfRoute } from '../../runtime/site/meta.ts'
import { escapeHtml, jsonScript, renderDocument } from '../../server/portal/document.ts'
import { routeOf } from '../../server/portal/routes.ts'

/** Issue #18: the server's page HTML (server/portal/document.ts) and which paths are pages (routes.ts). */

const TEMPLATE = `<!doctype html>
<html lang="zh">
  <head>
    <link rel="icon" href="/favicon.svg" />
    <title>Waybill</title>
    <script type="module" src="/assets/app-1.js"></script>
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`

describe('renderDocument', () => {
  it('writes the language, title, icon, head tags and main text into the template', () => {
    const html = renderDocument(TEMPLATE, {
      head: {
        lang: 'en',
        title: 'News — Acme',
        description: 'All the news',
        canonical: 'https://acme.example/News',
        alternates: [{ hreflang: 'x-default', href: 'https://acme.example/News' }],
        openGraph: [['og:title', 'News — Acme']],
        icon: '/acme.ico',
        jsonLd: [{ '@type': 'Organization', name: 'Acme' }],
      },
      body: '<h1>News</h1>',
    })
    expect(html).toContain('<html lang="en">')
    expect(html).toContain('<title>News — Acme</title>')
    expect(html).toContain('<link rel="icon" href="/acme.ico" />')
    expect(html).toContain('<meta name="description" content="All the news" />')
    expect(html).toContain('<link rel="canonical" href="https://acme.example/News" />')
    expect(html).toContain('<link rel="alternate" hreflang="x-default" href="https://acme.example/News" />')
    expect(html).toContain('<meta property="og:title" content="News — Acme" />')
    expect(html).toContain('<script type="application/ld+json">{"@type":"Organization","name":"Acme"}</script>')
    expect(html).toContain('<div id="root"><div data-server-page><h1>News</h1></div></div>')
    // The head's own tags come before the app's script; nothing of the template is lost.
    expect(html.indexOf('rel="canonical"')).toBeLessThan(html.indexOf('/assets/app-1.js'))
  })

  it('leaves no way out of an attribute, the title or a JSON-LD block', () => {
    const evil = `"><script>alert(1)</script></title><!--`
    const html = renderDocument(TEMPLATE, {
      head: { lang: 'en', title: evil, description: evil, jsonLd: [{ name: `</script><script>alert(2)</script>` }] },
    })
    expect(html).not.toContain('<script>alert')
    expect(html).toContain('<title>&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;/title&gt;&lt;!--</title>')
    expect(jsonScript({ name: '</script>' })).toBe('{"name":"\\u003c/script\\u003e"}')
    expect(JSON.parse(jsonScript({ name: '</script> & <!--' }))).toEqual({ name: '</script> & <!--' })
    expect(escapeHtml(`a&b<c>"d'`)).toBe('a&amp;b&lt;c&gt;&quot;d&#39;')
  })

  it('keeps a page without text as the plain template', () => {
    const html = renderDocument(TEMPLATE, { head: { lang: 'zh', title: 'Waybill' } })
    expect(html).toContain('<div id="root"></div>')
    expect(html).not.toContain('data-server-page')
  })
})

describe('routeOf: the route table as the portal matches it', () => {
  it('finds routes with parameters, ignores case and a trailing slash, prefers the exact spelling', () => {
    expect(routeOf('/palletInquiry/sea')?.name).toBe('palletInquiry')
    expect(routeOf('/news')?.name).toBe('news')
    expect(routeOf('/News/')?.name).toBe('news')
    expect(routeOf('/InformationCenterDetail')?.name).toBe('siteInformationCenterDetail')
    expect(routeOf('/informationCenterDetail')?.name).toBe('informationCenterDetail')
    expect(routeOf('/')?.name).toBe('home')
  })

  it('finds nothing for paths the table does not have', () => {
    for (const path of [
      '/no-such-page',
      '/robots.php',
      '/palletInquiry',
      '/palletInquiry/sea/x',
      '/News/x',
      '/index.html',
    ])
      expect(routeOf(path), path).toBeUndefined()
  })
})

describe('what a page says about itself (runtime/site/meta.ts, shared by the portal and the server)', () => {
  it('describes each kind of public page with its own text, service and about pages by their copy', () => {
    expect(descriptionKey('home')).toBe('site.metaHome')
    expect(descriptionKey('newsList')).toBe('site.description_news')
    expect(descriptionKey('tracking')).toBe('site.description_tracking')
    expect(descriptionKey('rateSearch')).toBe('site.description_rates')
    expect(descriptionKey('agreement')).toBe('site.metaDefault')
    expect(descriptionKey(null)).toBe('site.metaDefault')
    expect(descriptionKey('servicePage')).toBeUndefined()
    expect(pageOfRoute({ name: 'fclProductService', component: 'servicePage' })).toBe('fcl')
    expect(pageOfRoute({ name: 'serviceCenter', component: 'servicePage' })).toBe('services')
    expect(pageOfRoute({ name: 'whoWeAre', component: 'aboutPage' })).toBe('about')
    expect(pageOfRoute({ name: 'news', component: 'newsList' })).toBeUndefined()
  })
})
