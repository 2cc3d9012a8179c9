import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * What the generator keeps between runs, under node_modules/.cache/waybill: compiled validators, whose
 * compiling is most of a check's and half of a generate's time otherwise.
 */
const DIR = fileURLToPath(new URL('../node_modules/.cache/waybill/', import.meta.url))
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
    keep(prefix, file, code)
    return require(file) as T
  } catch {
    const module = { exports: {} as unknown }
    new Function('module', 'exports', 'require', code)(module, module.exports, require)
    return module.exports as T
  }
}

/** Text kept as `<prefix>-<key>.txt`: read if there, else made, kept (where the tree is writable) and answered. */
export function cachedText(prefix: string, key: string, make: () => string): string {
  const file = join(DIR, `${prefix}-${key}.txt`)
  try {
    return readFileSync(file, 'utf8')
  } catch {}
  const text = make()
  try {
    keep(prefix, file, text)
  } catch {}
  return text
}

/**
 * The key of code ajv compiles from JSON Schemas: the schemas, the project's ajv setup (rules/ajv.ts: its
 * keywords generate code) and ajv's version.
 */
export function compiledSchemasKey(schemas: unknown): string {
  const setup = readFileSync(fileURLToPath(new URL('../rules/ajv.ts', import.meta.url)), 'utf8')
  const ajvVersion = (require('ajv/package.json') as { version: string }).version
  return createHash('sha256')
    .update(JSON.stringify(schemas))
    .update(setup)
    .update(ajvVersion)
    .digest('hex')
    .slice(0, 16)
}

function keep(prefix: string, file: string, content: string) {
  mkdirSync(DIR, { recursive: true })
  const partial = `${file}.${process.pid}`
  writeFileSync(partial, content)
  renameSync(partial, file)
  prune(prefix, file)
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
