import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { isMap, isScalar, isSeq, LineCounter, type Node, parseDocument } from 'yaml'
import type { LocaleBundle, SourceFile, Sources } from '../model/sources.ts'

export type { LocaleBundle, SourceFile, Sources } from '../model/sources.ts'

export const LANGUAGES = ['zh', 'en', 'ja', 'es'] as const

function yamlFilesUnder(dir: string): string[] {
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return []
  }
  return names.sort().flatMap((name) => {
    const full = join(dir, name)
    if (statSync(full).isDirectory()) return yamlFilesUnder(full)
    return /\.ya?ml$/.test(name) ? [full] : []
  })
}

export function parseSource(root: string, fullPath: string, text: string, kind: SourceFile['kind']) {
  const lines = new LineCounter()
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true })
  const path = relative(root, fullPath).split('\\').join('/')
  return { path, kind, data: doc.toJS(), doc, lines }
}

/** Reads schemas/, screens/ and locales/ below `root`. Pure apart from reading files. */
export function loadSources(root: string): Sources {
  const problems: Sources['problems'] = []
  const files: SourceFile[] = []
  const read = (dir: string, kindOf: (data: unknown) => SourceFile['kind']) => {
    for (const full of yamlFilesUnder(join(root, dir))) {
      const text = readFileSync(full, 'utf8')
      const source = parseSource(root, full, text, 'entity')
      for (const error of source.doc.errors) {
        const pos = source.lines.linePos(error.pos[0])
        problems.push({ path: source.path, line: pos.line, col: pos.col, message: error.message.split('\n')[0] ?? '' })
      }
      if (source.doc.errors.length) continue
      files.push({ ...source, kind: kindOf(source.data) })
    }
  }
  read('schemas', () => 'entity')
  read('screens', (data) =>
    data && typeof data === 'object' && 'permissions' in data && 'roles' in data ? 'access' : 'screens',
  )

  const locales: LocaleBundle = {}
  for (const language of LANGUAGES) {
    const bundle: Record<string, string> = {}
    const dir = join(root, 'locales', language)
    let names: string[] = []
    try {
      names = readdirSync(dir)
        .filter((n) => n.endsWith('.json'))
        .sort()
    } catch {}
    for (const name of names) {
      const namespace = name.replace(/\.json$/, '')
      const path = `locales/${language}/${name}`
      try {
        const entries = JSON.parse(readFileSync(join(dir, name), 'utf8')) as Record<string, unknown>
        for (const [key, value] of Object.entries(entries)) {
          if (typeof value === 'string') bundle[`${namespace}.${key}`] = value
          else problems.push({ path, line: 1, col: 1, message: `"${key}" must be a string, found ${typeof value}` })
        }
      } catch (error) {
        problems.push({ path, line: 1, col: 1, message: `not valid JSON: ${(error as Error).message}` })
      }
    }
    locales[language] = bundle
  }
  return { root, files, locales, problems }
}

/**
 * Line and column of the node at a path inside a file; a path that does not exist (a missing
 * property) points at the deepest node that does.
 */
export function locate(file: SourceFile, path: (string | number)[]): { line: number; col: number } {
  let node: Node | null = file.doc.contents as Node | null
  let at = node?.range?.[0] ?? 0
  for (const step of path) {
    if (isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(step))
      if (!pair) break
      at = (pair.key as Node).range?.[0] ?? at
      node = (pair.value as Node | null) ?? null
      if (node?.range && !isMap(node) && !isSeq(node)) at = node.range[0]
    } else if (isSeq(node)) {
      const item = node.items[Number(step)] as Node | undefined
      if (!item) break
      node = item
      at = item.range?.[0] ?? at
    } else break
  }
  const pos = file.lines.linePos(at)
  return { line: pos.line, col: pos.col }
}
