/**
 * The HTML a page is sent as (issue #18): the built index.html with what a crawler, a link preview and a
 * reader without JavaScript need written in — the language, title, description, canonical address and its
 * translations, Open Graph, structured data (JSON-LD), and the page's main text inside the root element,
 * which the portal replaces when it starts (React clears a root's children on its first render).
 */

/** Text for HTML content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  )
}

/** JSON inside <script type="application/ld+json">: no `</script>` or comment opener can close it early. */
export function jsonScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
}

export interface PageHead {
  /** BCP 47 code of the page's language (zh, en, ja, es). */
  lang: string
  title: string
  description?: string
  /** Absolute. */
  canonical?: string
  /** hreflang → absolute address, x-default included. */
  alternates?: readonly { hreflang: string; href: string }[]
  /** Open Graph properties (og:title …), in order. */
  openGraph?: readonly [string, string][]
  /** `noindex` for pages that are nobody's search result (the workbench, the 404 page). */
  robots?: string
  /** `no-referrer` for a page whose address is a credential (a shared tracking link): no request carries it on. */
  referrer?: string
  icon?: string
  jsonLd?: readonly unknown[]
}

export interface PageView {
  head: PageHead
  /** HTML for inside the root element; already escaped where it carries text. */
  body?: string
  /** A script element (JSON) for the head: the answers the page's first drawing needs (./initial.ts). */
  data?: string
}

/** How the page's text reads before the portal's styles arrive: plain, readable, in the tenant's frame. */
const SUMMARY_STYLE = `<style>[data-server-page]{max-width:1120px;margin:0 auto;padding:16px 24px 48px;font:16px/1.6 system-ui,-apple-system,"Segoe UI","PingFang SC","Hiragino Sans","Noto Sans CJK SC",sans-serif;color:#242424}[data-server-page] a{color:#1a5fb4}[data-server-page] header,[data-server-page] footer{display:flex;flex-wrap:wrap;gap:8px 20px;align-items:center;padding:12px 0}[data-server-page] footer{border-top:1px solid #e0e0e0;margin-top:32px;font-size:14px}[data-server-page] img{height:32px;width:auto}[data-server-page] ul{padding-left:20px}</style>`

function headTags(head: PageHead): string {
  const tags: string[] = []
  if (head.description) tags.push(`<meta name="description" content="${escapeHtml(head.description)}" />`)
  if (head.robots) tags.push(`<meta name="robots" content="${escapeHtml(head.robots)}" />`)
  if (head.referrer) tags.push(`<meta name="referrer" content="${escapeHtml(head.referrer)}" />`)
  if (head.canonical) tags.push(`<link rel="canonical" href="${escapeHtml(head.canonical)}" />`)
  for (const alternate of head.alternates ?? [])
    tags.push(
      `<link rel="alternate" hreflang="${escapeHtml(alternate.hreflang)}" href="${escapeHtml(alternate.href)}" />`,
    )
  for (const [property, content] of head.openGraph ?? [])
    tags.push(`<meta property="${escapeHtml(property)}" content="${escapeHtml(content)}" />`)
  for (const data of head.jsonLd ?? []) tags.push(`<script type="application/ld+json">${jsonScript(data)}</script>`)
  return tags.map((tag) => `    ${tag}\n`).join('')
}

/**
 * The template with the page written in. Each replacement looks for what vite's index.html has; a template
 * without one of them (an older build) is still served, just with less in it.
 */
export function renderDocument(template: string, { head, body, data }: PageView): string {
  let html = template.replace(/<html\b([^>]*?)\slang="[^"]*"/i, `<html$1 lang="${escapeHtml(head.lang)}"`)
  html = html.replace(/<title>[\s\S]*?<\/title>/i, () => `<title>${escapeHtml(head.title)}</title>`)
  if (head.icon)
    html = html.replace(
      /(<link rel="icon"[^>]*\shref=")[^"]*"/i,
      (_, start) => `${start}${escapeHtml(head.icon as string)}"`,
    )
  const tags = `${headTags(head)}${body ? `    ${SUMMARY_STYLE}\n` : ''}${data ? `    ${data}\n` : ''}`
  html = html.replace(/<\/title>\n?/i, (close) => `${close}${close.endsWith('\n') ? '' : '\n'}${tags}`)
  if (body)
    html = html.replace(/<div id="root"><\/div>/, () => `<div id="root"><div data-server-page>${body}</div></div>`)
  return html
}
