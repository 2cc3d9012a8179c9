import type { FieldDef } from '../model/definitions.ts'

/**
 * The upload limits of a file field (schemas/*.yaml `accept`, `maxSizeKb`, `maxFiles`), with SPEC §5's
 * defaults where the field says nothing: 5 MB per attachment, images png/jpg/jpeg/gif, at most 10
 * uploads. The portal checks them before it sends a byte; the server checks them again on the bytes.
 */

export interface FileLimits {
  /** Extensions, lower case; jpg and jpeg count as one another. */
  accept: string[]
  maxBytes: number
  maxFiles: number
  image: boolean
  /** The exact pixel size each image must have (the field's `dimensions`), read from the bytes. */
  dimensions?: { width: number; height: number }
}

export const IMAGE_TYPES = ['png', 'jpg', 'jpeg', 'gif'] as const
/** Attachments a forwarder's customers send: documents, sheets and pictures. */
export const ATTACHMENT_TYPES = ['pdf', 'png', 'jpg', 'jpeg', 'gif', 'xls', 'xlsx', 'doc', 'docx', 'csv', 'txt', 'zip']
export const DEFAULT_MAX_BYTES = 5 * 1024 * 1024
/** SPEC §5: total attachments 50 MB; no single field may ask for more. */
export const MAX_BYTES_CEILING = 50 * 1024 * 1024
export const DEFAULT_MAX_FILES = 10

const SAME: Record<string, string> = { jpg: 'jpeg', jpeg: 'jpg' }

export function fileLimits(
  field: Pick<FieldDef, 'accept' | 'maxSizeKb' | 'maxFiles' | 'multiple' | 'widget' | 'dimensions'>,
): FileLimits {
  const declared = field.accept?.map((a) => a.toLowerCase())
  const image = field.widget === 'imageUpload' || (!!declared?.length && declared.every((a) => isImageType(a)))
  const accept = [
    ...new Set((declared?.length ? declared : image ? [...IMAGE_TYPES] : ATTACHMENT_TYPES).flatMap(withTwin)),
  ]
  const maxBytes = Math.min(field.maxSizeKb ? field.maxSizeKb * 1024 : DEFAULT_MAX_BYTES, MAX_BYTES_CEILING)
  const maxFiles = field.multiple ? (field.maxFiles ?? DEFAULT_MAX_FILES) : 1
  return { accept, maxBytes, maxFiles, image, ...(field.dimensions ? { dimensions: { ...field.dimensions } } : {}) }
}

export function isImageType(extension: string): boolean {
  return ['png', 'jpg', 'jpeg', 'gif', 'webp', 'ico'].includes(extension)
}

const withTwin = (ext: string) => (SAME[ext] ? [ext, SAME[ext]] : [ext])

/** Whether any of a file's possible extensions is accepted. */
export function accepts(limits: Pick<FileLimits, 'accept'>, extensions: readonly string[]): boolean {
  return extensions.some((ext) => limits.accept.includes(ext))
}

/** "5 MB", "300 KB": how a limit reads in a message. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Number((bytes / (1024 * 1024)).toFixed(1))} MB`
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`
  return `${bytes} B`
}

/** The field of an entity a path names: `avatar`, or `attachments.file` inside an array's rows. */
export function fileFieldAt(fields: Record<string, FieldDef>, path: string): FieldDef | undefined {
  let current: Record<string, FieldDef> | undefined = fields
  let field: FieldDef | undefined
  for (const step of path.split('.')) {
    field = current?.[step]
    current = field?.items
  }
  return field?.type === 'file' ? field : undefined
}

/**
 * A list's import (screens' `endpoints.import`): xls or xlsx only (SPEC §5), judged by the bytes; at most
 * 10 MB (SPEC §5's booking file/import limit) and 5,000 rows below the header, so one import stays one
 * reviewable transaction.
 */
export const IMPORT_LIMITS = {
  accept: ['xls', 'xlsx'],
  maxBytes: 10 * 1024 * 1024,
  maxRows: 5_000,
  maxColumns: 200,
  /** The sheets an import with sheets of items reads (its first sheet and one per item field). */
  maxSheets: 10,
  /** What an xlsx (a ZIP) may unpack to, all members together, and how many members it may have. */
  maxUnpackedBytes: 32 * 1024 * 1024,
  maxArchiveMembers: 200,
} as const
