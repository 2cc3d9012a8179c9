import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { build } from 'vite'

/**
 * Gzipped JavaScript a first visit downloads per kind of page: the entry with everything it imports
 * statically, plus the lazy chunks the page's route loads (DESIGN §4: the public site must not pay for
 * the form engine or the workbench). A number to watch, never a pass/fail.
 *
 * Run alone with `node --import tsx bench/bundle.ts`; it builds into a temporary directory.
 */

const ROOT = new URL('..', import.meta.url).pathname

interface ManifestChunk {
  file: string
  imports?: string[]
  dynamicImports?: string[]
  isEntry?: boolean
}

/** What each page loads lazily besides the entry, as source paths below runtime/. */
const PAGES: Record<string, string[]> = {
  'public home (/dashboard)': ['site/Home.tsx'],
  'login (/login)': ['screens/login/Login.tsx', '../generated/validators.js'],
  'workbench list (/orderList)': ['shell/WorkbenchLayout.tsx', 'screens/list/ListScreen.tsx'],
  'workbench form (/personalInfo)': ['shell/WorkbenchLayout.tsx', 'screens/form/FormScreen.tsx'],
}

export async function benchBundle(): Promise<string[]> {
  const outDir = mkdtempSync(join(tmpdir(), 'waybill-bundle-'))
  try {
    await build({
      configFile: join(ROOT, 'vite.config.ts'),
      logLevel: 'silent',
      build: { outDir, emptyOutDir: true, manifest: true },
    })
    const manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8')) as Record<
      string,
      ManifestChunk
    >
    const gzipped = new Map<string, number>()
    const size = (file: string) => {
      let bytes = gzipped.get(file)
      if (bytes === undefined) {
        bytes = gzipSync(readFileSync(join(outDir, file))).length
        gzipped.set(file, bytes)
      }
      return bytes
    }
    const closure = (key: string, seen = new Set<string>()): Set<string> => {
      const chunk = manifest[key]
      if (!chunk || seen.has(chunk.file)) return seen
      seen.add(chunk.file)
      for (const imported of chunk.imports ?? []) closure(imported, seen)
      return seen
    }
    const entry = Object.keys(manifest).find((key) => manifest[key]?.isEntry)
    if (!entry) throw new Error('the build has no entry chunk')
    const locale = Object.keys(manifest).find((key) => key.endsWith('locales/zh.json'))
    const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
    const lines = [
      '## Portal bundle (gzipped JavaScript per first visit, zh texts included)',
      '',
      '| Page | Entry + static imports | Route chunks | Total |',
      '| --- | ---: | ---: | ---: |',
    ]
    const base = closure(entry)
    if (locale) closure(locale, base)
    const baseBytes = [...base].reduce((sum, file) => sum + size(file), 0)
    for (const [page, keys] of Object.entries(PAGES)) {
      const files = new Set(base)
      for (const key of keys) {
        if (!manifest[key]) throw new Error(`${key} is not a chunk of the build: update PAGES in bench/bundle.ts`)
        closure(key, files)
      }
      const total = [...files].reduce((sum, file) => sum + size(file), 0)
      lines.push(`| ${page} | ${kb(baseBytes)} | ${kb(total - baseBytes)} | ${kb(total)} |`)
    }
    return lines
  } finally {
    rmSync(outDir, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log((await benchBundle()).join('\n'))
