import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const DIR = fileURLToPath(new URL('../../node_modules/.cache/waybill/', import.meta.url))
const require = createRequire(import.meta.url)
/** Modules replaced longer ago than this are removed (a command started before may still be loading one). */
const KEEP_MS = 60 * 60_000

/**
 * A compiled CommonJS module kept under node_modules/.cache/waybill as `<prefix>-<key>.cjs`: loaded if
 * there, else `source()` is written there (older modules of the prefix are removed) and loaded. Where
 * the tree is read-only the source is evaluated without being kept.
 */
export function cachedModule<T>(prefix: string, key: string, source: () => string): T {
  const file = join(DIR, `${prefix}-${key}.cjs`)
  try {
    return require(file) as T
  } catch {}
  const code = source()
  try {
    mkdirSync(DIR, { recursive: true })
    const partial = `${file}.${process.pid}`
    writeFileSync(partial, code)
    renameSync(partial, file)
    prune(prefix, file)
    return require(file) as T
  } catch {
    const module = { exports: {} as unknown }
    new Function('module', 'exports', 'require', code)(module, module.exports, require)
    return module.exports as T
  }
}

function prune(prefix: string, keep: string) {
  for (const name of readdirSync(DIR)) {
    const path = join(DIR, name)
    if (!name.startsWith(`${prefix}-`) || path === keep) continue
    try {
      if (Date.now() - statSync(path).mtimeMs > KEEP_MS) rmSync(path, { force: true })
    } catch {}
  }
}
