import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { build } from 'vite'

/**
 * Gzipped JavaScript a first visit downloads per kind of page (issue 5 budgets: home ≤ 160 KB, first
 * workbench list ≤ 300 KB; DESIGN §4: the public site must not pay for the form engine or the workbench).
 * A number to watch, never a pass/fail.
 *
 * Two measurements of one build, both in the reader's default language (zh):
 * - from vite's manifest: index.html's scripts with everything they import, plus the chunks the page's
 *   route loads lazily (PAGES below);
 * - in headless Chromium against the real server: every script the page fetched until the network was
 *   idle, summed. The table reports this one; a page whose two lists of chunks differ is reported under
 *   the table, so PAGES cannot drift from what the portal really loads.
 *
 * Run alone with `node --import tsx bench/bundle.ts`; it builds into a temporary directory and starts the
 * server on a database of its own (a minute or so, most of it seeding).
 */

const ROOT = new URL('..', import.meta.url).pathname

interface ManifestChunk {
  file: string
  name?: string
  imports?: string[]
  dynamicImports?: string[]
  isEntry?: boolean
}
type Manifest = Record<string, ManifestChunk>

interface Page {
  label: string
  path: string
  budgetKb?: number
  /** Signed in as this demo user; a visitor otherwise. */
  user?: string
  /** The window's width, 1440 unless given (the mobile site needs a phone's). */
  width?: number
  /** A CSS selector that is there once the page has drawn. */
  ready: string
  /** What the page loads lazily besides index.html's scripts: manifest keys (sources below runtime/). */
  lazy: string[]
}

const SITE_TEXTS = '../generated/locales/zh/site.json'
const SCREEN_TEXTS = '../generated/locales/zh/screens.json'
/** A generic screen's part of the manifest, which the route gate loads before it (generator/emit/portal.ts). */
const manifestPart = (screen: string) => `../generated/portal-manifest/manifest.${screen}.json`

const PAGES: Page[] = [
  {
    label: 'public home (/dashboard)',
    path: '/dashboard',
    budgetKb: 160,
    ready: '[data-template="0"] form button[type="submit"]',
    lazy: ['site/Home.tsx', 'site/home/Template0.tsx', SITE_TEXTS],
  },
  {
    label: 'mobile home (/m, 375 px)',
    path: '/m',
    width: 375,
    ready: '[data-template="mobile"] form button[type="submit"]',
    lazy: ['site/Home.tsx', 'site/mobile/MobileHome.tsx', 'site/mobile/MobileShell.tsx', SITE_TEXTS],
  },
  {
    label: 'FCL rate search (/productService, visitor)',
    path: '/productService?origin=CNSHA&destination=USLAX&containerType=45G1',
    ready: '[data-testid="rate-card"]',
    lazy: ['flows/rates/RateSearch.tsx', SITE_TEXTS, SCREEN_TEXTS],
  },
  {
    label: 'login (/login)',
    path: '/login',
    ready: 'input[type="password"]',
    lazy: ['screens/auth/Login.tsx', '../generated/validators.js', SITE_TEXTS, SCREEN_TEXTS],
  },
  {
    label: 'workbench list (/orderList)',
    path: '/orderList',
    budgetKb: 300,
    user: 'opadmin',
    ready: 'table tbody tr',
    lazy: [
      'shell/WorkbenchLayout.tsx',
      'routing/ManifestGate.ts',
      manifestPart('orderList'),
      'screens/list/ListScreen.tsx',
      'shell/UserTools.tsx',
      SITE_TEXTS,
      SCREEN_TEXTS,
    ],
  },
  {
    label: 'workbench form (/personalInfo)',
    path: '/personalInfo',
    user: 'personal',
    ready: 'main form input',
    lazy: [
      'shell/WorkbenchLayout.tsx',
      'routing/ManifestGate.ts',
      manifestPart('personalInfo'),
      'screens/form/FormScreen.tsx',
      'shell/UserTools.tsx',
      SITE_TEXTS,
      SCREEN_TEXTS,
    ],
  },
]

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

/** The script files index.html loads itself (its module scripts and preloads), as /assets/… paths. */
function htmlScripts(outDir: string): string[] {
  const html = readFileSync(join(outDir, 'index.html'), 'utf8')
  const found = [
    ...html.matchAll(/<script[^>]*\bsrc="\/([^"]+\.js)"/g),
    ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="\/([^"]+\.js)"/g),
  ]
  return [...new Set(found.map((m) => m[1] as string))]
}

/** Every file a page needs by the manifest: index.html's scripts, the page's lazy chunks, and what they import. */
function predicted(manifest: Manifest, outDir: string, lazy: string[]): Set<string> {
  const byFile = new Map(Object.entries(manifest).map(([key, chunk]) => [chunk.file, key]))
  const files = new Set<string>()
  // A module that others also import statically is a shared chunk, keyed `_<name>-<hash>.js`, not by its source.
  const shared = (key: string) => {
    const name = key.slice(key.lastIndexOf('/') + 1).replace(/\.[^.]+$/, '')
    return Object.entries(manifest).find(([k, c]) => k.startsWith('_') && c.name === name)?.[1]
  }
  const add = (key: string) => {
    const chunk = manifest[key] ?? shared(key)
    if (!chunk) throw new Error(`${key} is not a chunk of the build: update PAGES in bench/bundle.ts`)
    if (files.has(chunk.file)) return
    files.add(chunk.file)
    for (const imported of chunk.imports ?? []) add(imported)
  }
  for (const file of htmlScripts(outDir)) {
    const key = byFile.get(file)
    if (key) add(key)
    else files.add(file)
  }
  for (const key of lazy) add(key)
  return files
}

interface Timing {
  /** Largest contentful paint, as Chromium reports it. */
  lcpMs: number
  /** From navigation to the page's ready element drawn (a workbench list's first rows). */
  readyMs: number
}

const timings = new Map<Page, Timing>()
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number
const VISITS = 3

/** The script files each page fetched in Chromium, or null when there is no browser here. */
async function measured(outDir: string): Promise<Map<Page, Set<string>> | null> {
  const { launchBrowser } = await import('../tests/support/browser.ts')
  const { startServer } = await import('../tests/support/server.ts')
  if (!existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium')) return null
  const server = await startServer({ env: { STATIC_DIR: outDir } })
  const browser = await launchBrowser()
  try {
    const result = new Map<Page, Set<string>>()
    for (const page of PAGES) {
      const context = await browser.newContext({ viewport: { width: page.width ?? 1440, height: 900 } })
      if (page.user) {
        const login = await context.request.post(`${server.url}/api/b2b/user/login`, {
          // The portal's header, which every sign-in needs (server/http/csrf.ts).
          headers: { resource: '1' },
          data: { username: page.user, password: 'Demo@2026' },
        })
        if ((await login.json()).code !== '0000') throw new Error(`bench: ${page.user} could not log in`)
      }
      const tab = await context.newPage()
      const scripts = new Set<string>()
      tab.on('response', (response) => {
        if (response.request().resourceType() === 'script') scripts.add(new URL(response.url()).pathname.slice(1))
      })
      await tab.goto(`${server.url}${page.path}`)
      await tab.locator(page.ready).first().waitFor({ timeout: 30_000 })
      await tab.waitForLoadState('networkidle')
      result.set(page, scripts)
      // Then timed visits in fresh tabs of the same session (the server and the disk cache are warm).
      const visits: Timing[] = []
      for (let i = 0; i < VISITS; i++) {
        const timed = await context.newPage()
        const started = Date.now()
        await timed.goto(`${server.url}${page.path}`, { waitUntil: 'commit' })
        await timed.locator(page.ready).first().waitFor({ timeout: 30_000 })
        const readyMs = Date.now() - started
        await timed.waitForLoadState('networkidle')
        const lcpMs = await timed.evaluate(
          () =>
            new Promise<number>((resolve) => {
              new PerformanceObserver((list) => {
                const entries = list.getEntries()
                resolve(entries[entries.length - 1]?.startTime ?? 0)
              }).observe({ type: 'largest-contentful-paint', buffered: true })
              setTimeout(() => resolve(0), 2000)
            }),
        )
        visits.push({ lcpMs, readyMs })
        await timed.close()
      }
      timings.set(page, { lcpMs: median(visits.map((v) => v.lcpMs)), readyMs: median(visits.map((v) => v.readyMs)) })
      await context.close()
    }
    return result
  } finally {
    await browser.close()
    await server.stop()
  }
}

export async function benchBundle(): Promise<string[]> {
  const outDir = mkdtempSync(join(tmpdir(), 'waybill-bundle-'))
  try {
    await build({
      configFile: join(ROOT, 'vite.config.ts'),
      logLevel: 'silent',
      build: { outDir, emptyOutDir: true, manifest: true },
    })
    const manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest
    const gzipped = new Map<string, number>()
    const size = (file: string) => {
      let bytes = gzipped.get(file)
      if (bytes === undefined) {
        bytes = gzipSync(readFileSync(join(outDir, file))).length
        gzipped.set(file, bytes)
      }
      return bytes
    }
    const total = (files: Iterable<string>) => [...files].reduce((sum, file) => sum + size(file), 0)
    const entry = predicted(manifest, outDir, [])
    const browser = await measured(outDir)

    const lines = [
      '## Portal bundle (gzipped JavaScript per first visit, zh texts included)',
      '',
      browser
        ? 'Measured in headless Chromium: every script the page fetched until the network was idle.'
        : 'No Chromium here: the figures are the manifest estimate only.',
      '',
      '| Page | index.html scripts | Route chunks | Total | Files | Budget |',
      '| --- | ---: | ---: | ---: | ---: | --- |',
    ]
    const notes: string[] = []
    for (const page of PAGES) {
      const expected = predicted(manifest, outDir, page.lazy)
      const fetched = browser?.get(page) ?? expected
      const bytes = total(fetched)
      const budget = page.budgetKb
        ? `${page.budgetKb} KB ${bytes <= page.budgetKb * 1024 ? 'met' : `**missed by ${kb(bytes - page.budgetKb * 1024)}**`}`
        : ''
      lines.push(
        `| ${page.label} | ${kb(total(entry))} | ${kb(bytes - total(entry))} | ${kb(bytes)} | ${fetched.size} | ${budget} |`,
      )
      if (browser) {
        const unexpected = [...fetched].filter((file) => !expected.has(file))
        const unused = [...expected].filter((file) => !fetched.has(file))
        if (unexpected.length || unused.length) {
          notes.push(
            `- ${page.label}: the manifest estimate (${kb(total(expected))}) differs from the browser: ` +
              `${unexpected.length ? `fetched but not expected ${unexpected.join(', ')}` : ''}` +
              `${unexpected.length && unused.length ? '; ' : ''}` +
              `${unused.length ? `expected but not fetched ${unused.join(', ')}` : ''}. Update PAGES in bench/bundle.ts.`,
          )
        }
      }
    }
    if (browser && !notes.length) lines.push('', 'The manifest estimate names the same chunks for every page.')
    if (timings.size) {
      lines.push(
        '',
        `Page timings in headless Chromium on localhost, median of ${VISITS} visits with a warm server and cache:`,
        '',
        '| Page | LCP | ready (first rows / main element drawn) |',
        '| --- | ---: | ---: |',
        ...PAGES.filter((p) => timings.has(p)).map((p) => {
          const t = timings.get(p) as Timing
          return `| ${p.label} | ${t.lcpMs.toFixed(0)} ms | ${t.readyMs} ms |`
        }),
      )
    }
    if (notes.length) lines.push('', ...notes)
    return lines
  } finally {
    rmSync(outDir, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log((await benchBundle()).join('\n'))
