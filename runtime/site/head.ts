/**
 * The document head of a public page (issue 6): the tab title "<page title> — <site name>", the
 * `<meta name="description">` search engines and link previews show, and the tenant's favicon (site
 * settings iconPath). Plain DOM writes: the route gate calls `setPageHead` on every navigation and language
 * switch, and pages with copy of their own (service and about pages) replace the description with their lead.
 */

import { pageTitle } from './meta.ts'

export { PAGES_WITH_OWN_DESCRIPTION, pageTitle, TITLE_SEPARATOR } from './meta.ts'

function headElement(selector: string, create: () => HTMLElement): HTMLElement {
  return document.head.querySelector<HTMLElement>(selector) ?? document.head.appendChild(create())
}

export function setPageDescription(description: string): void {
  const meta = headElement('meta[name="description"]', () => {
    const element = document.createElement('meta')
    element.setAttribute('name', 'description')
    return element
  })
  meta.setAttribute('content', description)
}

export function setFavicon(href: string | undefined): void {
  if (!href) return
  const link = headElement('link[rel="icon"]', () => {
    const element = document.createElement('link')
    element.setAttribute('rel', 'icon')
    return element
  })
  if (link.getAttribute('href') !== href) link.setAttribute('href', href)
}

export interface PageHead {
  title: string
  site: string
  /** Undefined leaves the description to the page (it sets its own). */
  description?: string
  icon?: string
}

export function setPageHead({ title, site, description, icon }: PageHead): void {
  document.title = pageTitle(title, site)
  if (description !== undefined) setPageDescription(description)
  setFavicon(icon)
}
