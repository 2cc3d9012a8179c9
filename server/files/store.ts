import { createHash } from 'node:crypto'
import { type Kysely, sql, type Transaction } from 'kysely'
import type { DB } from '../db/schema.ts'

/**
 * Stored files (table `file`, migration 0006): one row per upload, in the uploader's tenant, row-level
 * security like every tenant table. The bytes live in the row (`bytea`) — Postgres is the one store a
 * deployment always has (DESIGN §3); `storage` names where they are so an S3-compatible store can take
 * over the bytes later without changing how files are found.
 */

export interface FileMeta {
  /** The file's id: the value a file field stores. */
  uuid: string
  name: string
  size: number
  contentType: string
  sha256: string
}

export interface NewFile {
  tenantId: number
  userId: number | null
  entity: string
  field: string
  name: string
  contentType: string
  bytes: Uint8Array
}

type FileRow = {
  tenant_id: number
  id: string
  entity: string
  field: string
  name: string
  content_type: string
  size: number
  sha256: string
  storage: string
  bytes: Uint8Array | null
  created_by: number | null
  created_at: Date
}
type FileDB = { file: FileRow }
const files = (trx: Transaction<DB>) => trx as unknown as Kysely<FileDB>

const META = ['id', 'name', 'size', 'content_type', 'sha256'] as const
const toMeta = (row: Pick<FileRow, (typeof META)[number]>): FileMeta => ({
  uuid: row.id,
  name: row.name,
  size: Number(row.size),
  contentType: row.content_type,
  sha256: row.sha256,
})

export async function saveFile(trx: Transaction<DB>, file: NewFile): Promise<FileMeta> {
  const row = await files(trx)
    .insertInto('file')
    .values({
      tenant_id: file.tenantId,
      entity: file.entity,
      field: file.field,
      name: file.name,
      content_type: file.contentType,
      size: file.bytes.length,
      sha256: createHash('sha256').update(file.bytes).digest('hex'),
      storage: 'db',
      bytes: file.bytes,
      created_by: file.userId,
    } as never)
    .returning(META)
    .executeTakeFirstOrThrow()
  return toMeta(row)
}

/** The files of these ids that the tenant has (others' ids, and ids that never were, are simply absent). */
export async function fileInfo(trx: Transaction<DB>, tenantId: number, ids: string[]): Promise<FileMeta[]> {
  if (!ids.length) return []
  const rows = await files(trx)
    .selectFrom('file')
    .select(META)
    .where('tenant_id', '=', tenantId)
    .where(sql<boolean>`id in (${sql.join(ids)})`)
    .execute()
  const byId = new Map(rows.map((row) => [row.id, toMeta(row)]))
  return ids.flatMap((id) => byId.get(id) ?? [])
}

export async function readFile(
  trx: Transaction<DB>,
  tenantId: number,
  id: string,
): Promise<(FileMeta & { bytes: Uint8Array }) | undefined> {
  const row = await files(trx)
    .selectFrom('file')
    .select([...META, 'bytes'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst()
  if (!row?.bytes) return undefined
  return { ...toMeta(row), bytes: row.bytes }
}
