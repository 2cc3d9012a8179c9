import { gzipSync } from 'node:zlib'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { openContext } from '../support/browser.ts'
import { localeText, setupPortal, WAIT } from '../support/portal.ts'

/**
 * Issue 5: code-split by route. Which chunks a page fetches, by their content: the public home page loads
 * neither the form engine (rjsf) nor ajv's validators nor TanStack Table, and none of the workbench's texts.
 * Sizes are measured by bench/bundle.ts; here only the manifest part a list loads is held in bytes.
 */
const portal = setupPortal()
const text = localeText

/** Strings that survive minification, one per library. */
const MARKERS = {
  rjsf: '__rjsf_',
  ajv: 'must have required property',
  tanstackTable: 'getHeaderGroups',
} as const

interface Fetched {
  /** Script paths, in the order they were fetched. */
  files: string[]
  bodies: Map<string, string>
}

/** Records every script the page fetches, with its text. */
function recordScripts(page: Page): () => Promise<Fetched> {
  const pending: Promise<[string, string]>[] = []
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return
    pending.push(response.text().then((body) => [new URL(response.url()).pathname, body]))
  })
  return async () => {
    await page.waitForLoadState('networkidle')
    const entries = await Promise.all(pending)
    return { files: entries.map(([file]) => file), bodies: new Map(entries) }
  }
}

const carrying = (fetched: Fetched, marker: string) =>
  [...fetched.bodies].filter(([, body]) => body.includes(marker)).map(([file]) => file)

const named = (fetched: Fetched, name: string) => fetched.files.filter((file) => file.startsWith(`/assets/${name}-`))

async function visit(path: string, ready: (page: Page) => Promise<unknown>, username?: string): Promise<Fetched> {
  const context = await openContext(portal.browser, { viewport: { width: 1440, height: 900 } })
  if (username) {
    const login = await context.request.post(`${portal.server.url}/api/b2b/user/login`, {
      headers: { resource: '1' },
      data: { username, password: 'Demo@2026' },
    })
    expect((await login.json()).code).toBe('0000')
  }
  const page = await context.newPage()
  const scripts = recordScripts(page)
  await page.goto(`${portal.server.url}${path}`)
  await ready(page)
  const fetched = await scripts()
  await context.close()
  return fetched
}

describe('what the public home page downloads', () => {
  it('is neither rjsf, ajv, TanStack Table, the workbench texts nor the signed-in top bar', async () => {
    const home = await visit('/dashboard', (page) =>
      expect.poll(() => page.getByRole('button', { name: text('zh', 'common', 'track') }).count(), WAIT).toBe(1),
    )
    expect(home.files.length).toBeGreaterThan(0)
    expect(carrying(home, MARKERS.rjsf)).toEqual([])
    expect(carrying(home, MARKERS.ajv)).toEqual([])
    expect(carrying(home, MARKERS.tanstackTable)).toEqual([])
    // Its texts are the site's bundle only; the toaster and the confirm box wait until something is said.
    expect(named(home, 'site')).toHaveLength(1)
    for (const chunk of ['screens', 'server', 'UserTools', 'Toasts', 'ConfirmDialog', 'WorkbenchLayout'])
      expect(named(home, chunk), chunk).toEqual([])
  })

  it('while the pages that use them do load them (the markers find what they look for)', async () => {
    const form = await visit(
      '/personalInfo',
      (page) => expect.poll(() => page.getByLabel(text('zh', 'field', 'realName')).count(), WAIT).toBe(1),
      'personal',
    )
    expect(carrying(form, MARKERS.rjsf).length).toBeGreaterThan(0)
    expect(carrying(form, MARKERS.ajv).length).toBeGreaterThan(0)
    expect(named(form, 'screens')).toHaveLength(1)

    const list = await visit(
      '/orderList',
      (page) => expect.poll(() => page.locator('table tbody tr').count(), WAIT).toBeGreaterThan(0),
      'opadmin',
    )
    expect(carrying(list, MARKERS.tanstackTable).length).toBeGreaterThan(0)
    // A list needs no form engine until a form opens.
    expect(carrying(list, MARKERS.rjsf)).toEqual([])
    expect(named(list, 'UserTools')).toHaveLength(1)
  })

  it('loads a list’s own part of the manifest, never the whole of it nor another area’s screens', async () => {
    const list = await visit(
      '/orderList',
      (page) => expect.poll(() => page.locator('table tbody tr').count(), WAIT).toBeGreaterThan(0),
      'opadmin',
    )
    // generated/portal-manifest/manifest.<screen>.json parts, and the whole generated/portal-manifest.json.
    expect(named(list, 'portal-manifest')).toEqual([])
    const parts = list.files.filter((file) => file.startsWith('/assets/manifest.'))
    expect(parts).toEqual(named(list, 'manifest.orderList'))
    expect(parts).toHaveLength(1)
    const body = list.bodies.get(parts[0] as string) ?? ''
    for (const other of ['freightRateList', 'letterList', 'operationAccount', 'personalInfo'])
      expect(body, other).not.toContain(`"${other}"`)
    // Bytes, gzipped as served (the whole manifest was ≈22 KB): issue #19's 300 KB budget for this page.
    expect(gzipSync(body).length).toBeLessThan(8 * 1024)
    const form = await visit(
      '/personalInfo',
      (page) => expect.poll(() => page.getByLabel(text('zh', 'field', 'realName')).count(), WAIT).toBe(1),
      'personal',
    )
    expect(form.files.filter((file) => file.startsWith('/assets/manifest.'))).toEqual(
      named(form, 'manifest.personalInfo'),
    )
    expect(named(form, 'portal-manifest')).toEqual([])
  })
})

describe('what comes later', () => {
  it('loads the toaster with the first toast, and the other language’s texts with the switch', async () => {
    const context = await openContext(portal.browser, { viewport: { width: 1440, height: 900 } })
    const page = await context.newPage()
    const scripts = recordScripts(page)
    await page.goto(`${portal.server.url}/dashboard`)
    await expect.poll(() => page.getByRole('button', { name: text('zh', 'common', 'track') }).count(), WAIT).toBe(1)
    await page.getByRole('button', { name: text('zh', 'common', 'language') }).click()
    await page.getByRole('menuitem', { name: 'English' }).click()
    await expect.poll(() => page.getByText(text('en', 'ui', 'switchLanguageSuccess')).count(), WAIT).toBe(1)
    await expect.poll(() => page.getByRole('button', { name: text('en', 'common', 'track') }).count(), WAIT).toBe(1)
    const fetched = await scripts()
    expect(named(fetched, 'Toasts')).toHaveLength(1)
    // zh's site texts and en's: still no workbench texts on a public page.
    expect(named(fetched, 'site')).toHaveLength(2)
    expect(named(fetched, 'screens')).toEqual([])
    await context.close()
  })
})
