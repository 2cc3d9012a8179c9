import type { Document, LineCounter } from 'yaml'

/** One YAML file of the configuration, parsed, with what is needed to point at any place in it. */
export interface SourceFile {
  /** Path relative to the project root, with forward slashes, as printed in messages. */
  path: string
  kind: 'entity' | 'screens' | 'access'
  data: unknown
  doc: Document.Parsed
  lines: LineCounter
}

export interface LocaleBundle {
  /** language -> "namespace.key" -> text */
  [language: string]: Record<string, string>
}

export interface Sources {
  root: string
  files: SourceFile[]
  locales: LocaleBundle
  /** Problems found while reading: unreadable YAML or JSON. */
  problems: { path: string; line: number; col: number; message: string }[]
}
