import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { type Manifest, resolveManifest } from '../model/resolve.ts'
import { endpointResponses, withEntityResponses } from './checks/endpointResponses.ts'
import { CHECKS, type Check } from './checks/index.ts'
import { uiRuleErrors } from './checks/uiRules.ts'
import type { OutputFile } from './emit/index.ts'
import type { ConfigError } from './errors.ts'
import { exampleErrors } from './examples.ts'
import { loadSources, type Sources } from './load.ts'
import { validateSources } from './validate.ts'

/**
 * The checks of the configuration, in order (generator/checks/): each a pure function of the loaded
 * configuration, `(context) => ConfigError[]`. A new check is one import and one entry here.
 */
const checks: readonly Check[] = [...CHECKS]

/** load → validate → resolve: the configuration, or every error in it. */
export function checkProject(root: string): { sources: Sources; errors: ConfigError[]; manifest?: Manifest } {
  const sources = loadSources(root)
  const errors = [
    ...validateSources(withEntityResponses(sources), checks),
    ...uiRuleErrors(sources),
    ...endpointResponses(sources),
  ]
  if (errors.length) return { sources, errors }
  const manifest = resolveManifest(sources)
  const examples = exampleErrors(manifest, sources)
  return examples.length ? { sources, errors: examples } : { sources, errors, manifest }
}

export async function generateProject(root: string, outDir = join(root, 'generated')) {
  const result = checkProject(root)
  if (!result.manifest) return { ...result, written: [] as string[] }
  // Loaded only here: the emitters pull in json-schema-to-typescript and Handlebars, which check never needs.
  const { emitAll } = await import('./emit/index.ts')
  const files = await emitAll(result.manifest, result.sources)
  return { ...result, written: writeOutput(outDir, files) }
}

/** Writes only what changed (so watchers downstream fire once) and removes files no longer generated. */
export function writeOutput(outDir: string, files: OutputFile[]): string[] {
  const written: string[] = []
  const keep = new Set(files.map((f) => f.path))
  for (const file of files) {
    const target = join(outDir, file.path)
    let current: string | undefined
    try {
      current = readFileSync(target, 'utf8')
    } catch {}
    if (current === file.content) continue
    mkdirSync(dirname(target), { recursive: true })
    writeFileSync(target, file.content)
    written.push(file.path)
  }
  const walk = (dir: string, prefix = ''): string[] => {
    try {
      return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
        d.isDirectory() ? walk(join(dir, d.name), `${prefix}${d.name}/`) : [`${prefix}${d.name}`],
      )
    } catch {
      return []
    }
  }
  for (const stale of walk(outDir)) if (!keep.has(stale)) rmSync(join(outDir, stale))
  return written
}
