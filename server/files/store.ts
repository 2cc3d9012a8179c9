import { createHash } from 'node:crypto'
import type { FastifyReply } from 'fastify'
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

/** Who may download a file besides its uploader (schemas' file fields, `visibility`). */
export type FileVisibility = 'company' | 'operators' | 'public'

/** Who asks for a file: the uploader always reads it; the rest as its visibility says. */
export interface FileViewer {
  userId: number
  companyId: number | null
  /** One of the forwarder's own staff (company user type 1). */
  operator: boolean
}

export interface NewFile {
  tenantId: number
  userId: number | null
  companyId: number | null
  visibility: FileVisibility
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
  owner_company: number | null
  visibility: FileVisibility
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
      owner_company: file.companyId,
      visibility: file.visibility,
    } as never)
    .returning(META)
    .executeTakeFirstOrThrow()
  return toMeta(row)
}

/**
 * The condition a viewer's files meet: their own uploads, the others' as each file's visibility allows, and
 * those granted to them by name (a chat message's attachment to its conversation's customer, grantFile).
 */
function visibleTo(viewer: FileViewer) {
  return sql<boolean>`(created_by = ${viewer.userId} or visibility = 'public' or ${viewer.operator}
    or (visibility = 'company' and owner_company = ${viewer.companyId ?? -1})
    or exists (select 1 from file_grant g
      where g.tenant_id = file.tenant_id and g.file_id = file.id and g.user_id = ${viewer.userId}))`
}

/**
 * Lets one more user read a file, whatever its visibility: the way a domain shares a file it carries with a
 * reader the visibility does not reach (a chat attachment with the conversation's customer). Granting twice
 * is granting once; a grant goes with the file.
 */
export async function grantFile(
  trx: Transaction<DB>,
  grant: { tenantId: number; fileId: string; userId: number; reason: string },
): Promise<void> {
  await sql`insert into file_grant (tenant_id, file_id, user_id, reason)
    values (${grant.tenantId}, ${grant.fileId}, ${grant.userId}, ${grant.reason})
    on conflict do nothing`.execute(trx)
}

/**
 * The files of these ids that the tenant has and the viewer may see (others' ids, ids that never were and files
 * the viewer may not read are simply absent: nothing tells them apart).
 */
export async function fileInfo(
  trx: Transaction<DB>,
  tenantId: number,
  ids: string[],
  viewer: FileViewer,
  /** Only files uploaded for this field (a chat message takes only uploads within its own field's limits). */
  uploadedFor?: { entity: string; field: string },
): Promise<FileMeta[]> {
  if (!ids.length) return []
  let query = files(trx)
    .selectFrom('file')
    .select(META)
    .where('tenant_id', '=', tenantId)
    .where(sql<boolean>`id in (${sql.join(ids)})`)
    .where(visibleTo(viewer))
  if (uploadedFor) query = query.where('entity', '=', uploadedFor.entity).where('field', '=', uploadedFor.field)
  const rows = await query.execute()
  const byId = new Map(rows.map((row) => [row.id, toMeta(row)]))
  return ids.flatMap((id) => byId.get(id) ?? [])
}

/**
 * One file's bytes. With a viewer, only a file they may read (GET /b2b/file/download); without, for the
 * server's own use (a published article's cover, which its public call answers).
 */
export async function readFile(
  trx: Transaction<DB>,
  tenantId: number,
  id: string,
  viewer?: FileViewer,
): Promise<(FileMeta & { bytes: Uint8Array }) | undefined> {
  let query = files(trx)
    .selectFrom('file')
    .select([...META, 'bytes'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
  if (viewer) query = query.where(visibleTo(viewer))
  const row = await query.executeTakeFirst()
  if (!row?.bytes) return undefined
  return { ...toMeta(row), bytes: row.bytes }
}

/**
 * A stored file as the answer, behind the headers every file of ours carries: its type, no sniffing, a sandbox
 * should it be opened as a page, and how long a browser or a proxy may keep it (`cache-control`; a file never
 * changes under its id). `disposition` is the Content-Disposition when the reader should see a name.
 */
export async function sendStoredFile(
  reply: FastifyReply,
  file: { contentType: string; bytes: Uint8Array; sha256?: string },
  cacheControl: string,
  disposition?: string,
): Promise<void> {
  reply
    .header('content-type', file.contentType)
    .header('content-length', String(file.bytes.length))
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('cache-control', cacheControl)
  if (disposition) reply.header('content-disposition', disposition)
  if (file.sha256) reply.header('etag', `"${file.sha256}"`)
  await reply.send(Buffer.from(file.bytes))
}
