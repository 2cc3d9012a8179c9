import { type ConfigError, formatError } from '../errors.ts'
import { LANGUAGES, parseSource, type SourceFile, type Sources } from '../load.ts'
import { type CheckContext, createContext } from './context.ts'
import { validFiles } from './metaSchema.ts'

/**
 * Sources from YAML written in a test, parsed as `waybill check` parses files (so lines and columns are
 * real): `{ 'schemas/port.yaml': '…', 'screens/watch.yaml': '…' }`. A file under schemas/ is an entity,
 * one with permissions: and roles: the access catalogue, any other under screens/ an area.
 */
export function sourcesOf(files: Record<string, string>, locales: Sources['locales'] = {}): Sources {
  const parsed: SourceFile[] = []
  const problems: Sources['problems'] = []
  for (const [path, text] of Object.entries(files)) {
    const source = parseSource('/project', `/project/${path}`, text, 'entity')
    for (const error of source.doc.errors) {
      const pos = source.lines.linePos(error.pos[0])
      problems.push({ path, line: pos.line, col: pos.col, message: error.message.split('\n')[0] ?? '' })
    }
    if (source.doc.errors.length) continue
    const data = source.data as Record<string, unknown> | null
    const kind = path.startsWith('schemas/')
      ? 'entity'
      : data && 'permissions' in data && 'roles' in data
        ? 'access'
        : 'screens'
    parsed.push({ ...source, kind })
  }
  return { root: '/project', files: parsed, locales, problems }
}

/**
 * The context the checks read. Files are cross-checked whether or not they pass their meta-schema, so a
 * test of one check writes only what that check reads (`metaSchema: true` keeps only the files that pass).
 */
export function contextOf(
  files: Record<string, string>,
  options: { locales?: Sources['locales']; metaSchema?: boolean } = {},
): CheckContext {
  const sources = sourcesOf(files, options.locales)
  return createContext(sources, options.metaSchema ? validFiles(sources) : sources.files)
}

/** The same texts in every language: `{ 'field.code': 'Code' }` → locales of zh, en, ja, es. */
export function everyLanguage(texts: Record<string, string>): Sources['locales'] {
  return Object.fromEntries(LANGUAGES.map((language) => [language, { ...texts }]))
}

/** Errors as `waybill check` prints them: `file:line:col path: message`, then expected and fix. */
export const printed = (errors: ConfigError[]): string[] => errors.map(formatError)

/** Errors as `file:line:col path: message` only. */
export const where = (errors: ConfigError[]): string[] =>
  errors.map((e) => `${e.file}:${e.line}:${e.col} ${e.path ? `${e.path}: ` : ''}${e.message}`)

/** The access catalogue most tests need: one permission, one role. */
export const ACCESS = `permissions:
  priceMonitor: { label: permission.priceMonitor, side: any }
roles:
  PersonalUser: { label: role.PersonalUser, companyUserType: 2, dataScope: self, permissions: [priceMonitor] }
`

/**
 * An area whose one screen is the priceWatch list most checks' tests start from; `rest` is the screen's
 * other keys, indented as its own (four spaces), so the lines and columns the tests expect stay where they were.
 */
export const watchArea = (rest: string): string => `area: watch
label: l
screens:
  - name: priceMonitor
    route: /priceMonitor
    title: t
    access: open
    status: built
    kind: list
    entity: priceWatch
${rest}`
