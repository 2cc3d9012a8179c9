import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { build } from 'vite'

/**
 * Lighthouse 12, mobile preset (its default: a mid-range phone, simulated slow 4G, 4× CPU slowdown), on the
 * public home page and the FCL rate search (issue #18). Numbers, never pass/fail: performance, accessibility
 * and SEO scores, the Core Web Vitals behind the first, and which audits cost points.
 *
 * It builds the portal into a temporary directory, starts the real server on it (loopback only, a database of
 * its own) and drives Debian's Chromium headless through chrome-launcher; each page is measured RUNS times
 * from a cold cache and the run with the median performance score is reported. Writes
 * bench/results/lighthouse.json; run alone with `node --import tsx bench/lighthouse.ts`.
 */

const ROOT = new URL('..', import.meta.url).pathname
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3)

const ALL_PAGES = [
  { label: 'home (/)', path: '/' },
  { label: 'FCL rate search (/productService)', path: '/productService' },
] as const

/** LIGHTHOUSE_PAGES=/productService (comma-separated paths): measure only those pages. */
const PAGES = process.env.LIGHTHOUSE_PAGES
  ? ALL_PAGES.filter((page) => process.env.LIGHTHOUSE_PAGES?.split(',').includes(page.path))
  : ALL_PAGES
/** LIGHTHOUSE_DIST=/tmp/x-dist: measure that build instead of building one. */
const DIST = process.env.LIGHTHOUSE_DIST
/** LIGHTHOUSE_DETAILS=/tmp/x.json: also write, per run, the diagnosis behind the score (see `details`). */
const DETAILS = process.env.LIGHTHOUSE_DETAILS

const CATEGORIES = ['performance', 'accessibility', 'seo'] as const
const METRICS = {
  fcp: 'first-contentful-paint',
  lcp: 'largest-contentful-paint',
  tbt: 'total-blocking-time',
  cls: 'cumulative-layout-shift',
  si: 'speed-index',
  /** Bytes over the wire for the whole page load, compressed as sent. */
  bytes: 'total-byte-weight',
} as const

export interface LighthouseResult {
  label: string
  path: string
  scores: Record<(typeof CATEGORIES)[number], number | null>
  metrics: Record<keyof typeof METRICS, number | null>
  /** Audits of the accessibility and SEO categories that did not pass, by id. */
  failing: { accessibility: string[]; seo: string[] }
  /** Performance score and CLS of every run, in order: how much the median hides. */
  runs: { performance: number; cls: number | null }[]
}

interface Lhr {
  categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>
  audits: Record<
    string,
    { score: number | null; numericValue?: number; scoreDisplayMode?: string; details?: { items?: unknown[] } }
  >
  runtimeError?: { code: string; message: string }
}

function summarise(label: string, path: string, lhr: Lhr, runs: LighthouseResult['runs']): LighthouseResult {
  const score = (category: string) => {
    const value = lhr.categories[category]?.score
    return value === null || value === undefined ? null : Math.round(value * 100)
  }
  const failing = (category: string) =>
    (lhr.categories[category]?.auditRefs ?? [])
      .filter((ref) => {
        const audit = lhr.audits[ref.id]
        return ref.weight > 0 && audit && audit.scoreDisplayMode !== 'notApplicable' && (audit.score ?? 1) < 1
      })
      .map((ref) => ref.id)
  return {
    label,
    path,
    scores: { performance: score('performance'), accessibility: score('accessibility'), seo: score('seo') },
    metrics: Object.fromEntries(
      Object.entries(METRICS).map(([key, id]) => [key, lhr.audits[id]?.numericValue ?? null]),
    ) as LighthouseResult['metrics'],
    failing: { accessibility: failing('accessibility'), seo: failing('seo') },
    runs,
  }
}

/** Measures each page against a running portal at `base`. */
export async function measure(base: string): Promise<LighthouseResult[]> {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
  })
  const diagnosis: ReturnType<typeof details>[] = []
  try {
    const results: LighthouseResult[] = []
    for (const page of PAGES) {
      const lhrs: Lhr[] = []
      for (let run = 0; run < RUNS; run++) {
        // Lighthouse now and then loses a trace (NO_NAVSTART, NO_FCP on a busy machine): that run again, twice at most.
        for (let attempt = 1; ; attempt++) {
          const answer = await lighthouse(`${base}${page.path}`, {
            port: chrome.port,
            output: 'json',
            logLevel: 'error',
            onlyCategories: [...CATEGORIES],
          })
          const lhr = answer?.lhr as unknown as Lhr | undefined
          if (lhr && !lhr.runtimeError) {
            lhrs.push(lhr)
            if (DETAILS) diagnosis.push(details(page.path, lhr))
            break
          }
          const reason = lhr?.runtimeError?.message ?? 'no result'
          if (attempt === 3) throw new Error(`lighthouse on ${page.path}: ${reason}`)
          console.warn(`lighthouse on ${page.path}: ${reason}; again`)
        }
      }
      const performance = (lhr: Lhr) => lhr.categories.performance?.score ?? 0
      const sorted = [...lhrs].sort((a, b) => performance(a) - performance(b))
      const median = sorted[Math.floor(sorted.length / 2)] as Lhr
      results.push(
        summarise(
          page.label,
          page.path,
          median,
          lhrs.map((lhr) => ({
            performance: Math.round(performance(lhr) * 100),
            cls: lhr.audits[METRICS.cls]?.numericValue ?? null,
          })),
        ),
      )
    }
    return results
  } finally {
    if (DETAILS) writeFileSync(DETAILS, `${JSON.stringify(diagnosis, null, 2)}\n`)
    chrome.kill()
  }
}

/** What a score does not say: which elements shifted, which scripts ran how long, the long tasks. */
function details(path: string, lhr: Lhr) {
  const items = (id: string) => lhr.audits[id]?.details?.items ?? []
  return {
    path,
    performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    tbt: lhr.audits[METRICS.tbt]?.numericValue ?? null,
    cls: lhr.audits[METRICS.cls]?.numericValue ?? null,
    layoutShifts: items('layout-shifts'),
    bootupTime: items('bootup-time').slice(0, 8),
    longTasks: items('long-tasks').slice(0, 10),
    unusedJavascript: items('unused-javascript').slice(0, 8),
    mainThreadWork: items('mainthread-work-breakdown'),
  }
}

const ms = (value: number | null) => (value === null ? '—' : `${(value / 1000).toFixed(1)} s`)

export function table(results: readonly LighthouseResult[]): string[] {
  return [
    '| Page | Performance | Accessibility | SEO | FCP | LCP | TBT | CLS | Speed index | transferred | runs (performance / CLS) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    ...results.map(
      (r) =>
        `| ${r.label} | ${r.scores.performance ?? '—'} | ${r.scores.accessibility ?? '—'} | ${r.scores.seo ?? '—'} | ` +
        `${ms(r.metrics.fcp)} | ${ms(r.metrics.lcp)} | ${r.metrics.tbt === null ? '—' : `${Math.round(r.metrics.tbt)} ms`} | ` +
        `${r.metrics.cls === null ? '—' : r.metrics.cls.toFixed(3)} | ${ms(r.metrics.si)} | ` +
        `${r.metrics.bytes === null ? '—' : `${Math.round(r.metrics.bytes / 1024)} KB`} | ${r.runs.map((run) => `${run.performance} / ${run.cls === null ? '—' : run.cls.toFixed(2)}`).join(', ')} |`,
    ),
    '',
    ...results.flatMap((r) =>
      r.failing.accessibility.length || r.failing.seo.length
        ? [
            `- ${r.label} — audits that cost points: ${[
              ...r.failing.accessibility.map((id) => `accessibility \`${id}\``),
              ...r.failing.seo.map((id) => `SEO \`${id}\``),
            ].join(', ')}`,
          ]
        : [`- ${r.label}: every weighted accessibility and SEO audit passed`],
    ),
  ]
}

/** The bench section: builds, starts the server, measures; a machine without Chromium gets a note instead. */
export async function benchLighthouse(): Promise<string[]> {
  const heading = ['## Lighthouse, mobile preset (issue #18)', '']
  if (!existsSync(CHROMIUM)) return [...heading, `Not measured: no Chromium at ${CHROMIUM}.`]
  const { startServer } = await import('../tests/support/server.ts')
  const outDir = DIST ?? mkdtempSync(join(tmpdir(), 'waybill-lighthouse-'))
  try {
    if (!DIST)
      await build({
        configFile: join(ROOT, 'vite.config.ts'),
        logLevel: 'silent',
        build: { outDir, emptyOutDir: true },
      })
    const server = await startServer({ env: { STATIC_DIR: outDir, LOG_LEVEL: 'silent' } })
    let results: LighthouseResult[]
    // Lighthouse's simulated throttling scales what it observed: a busy machine reads slower (TBT above all).
    const load = `load average ${loadavg()[0]?.toFixed(1)} on ${cpus().length} cores at the start`
    try {
      // One visit first, so the server's first-request costs (texts, caches) are not the first run's.
      for (const page of PAGES) await fetch(`${server.url}${page.path}`)
      results = await measure(server.url)
    } finally {
      await server.stop()
    }
    mkdirSync(join(ROOT, 'bench/results'), { recursive: true })
    // A partial run (some pages, someone's build) is a diagnosis, not the bench's figures.
    if (PAGES === ALL_PAGES && !DIST)
      writeFileSync(
        join(ROOT, 'bench/results/lighthouse.json'),
        `${JSON.stringify({ date: new Date().toISOString(), runs: RUNS, load, results }, null, 2)}\n`,
      )
    return [
      ...heading,
      `Lighthouse 12 (default mobile preset: emulated mid-range phone, simulated slow 4G and 4× CPU slowdown), ` +
        `cold cache, the production build served by \`npm start\`'s server on loopback; the run with the median ` +
        `performance score of ${RUNS} per page; ${load}. Raw figures: bench/results/lighthouse.json.`,
      '',
      ...table(results),
    ]
  } finally {
    if (!DIST) rmSync(outDir, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log((await benchLighthouse()).join('\n'))
