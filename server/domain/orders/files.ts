import { type Kysely, sql } from 'kysely'
import { fileLimits, formatBytes } from '../../../rules/fileLimits.ts'
import {
  attachLabels,
  columnsOf,
  type EngineApi,
  labelFields,
  selection,
  toApiRow,
  toDbValue,
} from '../../engine/index.ts'
import { FileRefused, receiveFile } from '../../files/handlers.ts'
import { saveFile } from '../../files/store.ts'
import type { HandlerContext } from '../../http/context.ts'
import type { HandlerRegistry } from '../../http/endpoints.ts'
import { ApiError } from '../../http/errors.ts'
import { validateBody } from '../../http/validation.ts'
import type { Manifest } from '../../manifest.ts'

/**
 * An order's documents by type (SPEC §7 orderFile, §5 limits): POST /booking/orderFile/upload?orderId=&fileType=
 * stores one file through the file store (its bytes in the tenant's database, under DATA_DIR with PGlite) and
 * records it as an orderFile row of the order, through the engine. SPEC §5 caps: 5 MB a file (the orderFile
 * field's maxSizeKb, checked while the bytes stream in), 10 files of a type and 50 MB for all of an order's
 * files — taken with the order's row locked, so two uploads at once cannot both slip under them.
 */

/** SPEC §5 / §9: uploads 10 files (of one type here), total attachments 50 MB (all of the order's). */
export const ORDER_FILE_LIMITS = { filesPerType: 10, totalBytes: 50 * 1024 * 1024 } as const

type AnyDB = Kysely<Record<string, Record<string, unknown>>>

export function orderFileHandlers(manifest: Manifest, engine: EngineApi): HandlerRegistry {
  const orderFile = manifest.entities.orderFile
  const target = manifest.entities.orderFileTarget
  const order = manifest.entities.order
  if (!orderFile?.fields.file || !target || !order)
    throw new Error('orders: orderFile, orderFileTarget or order missing')
  const limits = fileLimits(orderFile.fields.file)
  const fromQuery = (query: unknown) => {
    const { orderId, fileType } = (query ?? {}) as Record<string, unknown>
    const id = typeof orderId === 'string' && /^\d{1,10}$/.test(orderId) ? Number(orderId) : orderId
    return validateBody<{ orderId: number; fileType: string }>(target, { orderId: id, fileType })
  }

  return {
    async uploadOrderFile(ctx: HandlerContext) {
      const session = ctx.request.session
      if (!session) throw new ApiError('401')
      const { orderId, fileType } = fromQuery(ctx.request.query)
      const call = { tenantId: ctx.request.tenant.id, session, language: ctx.request.language }
      // The order first: one the caller may not see takes no files, before a byte is read.
      const found = await ctx.inTenant((trx) =>
        engine.detail(trx, 'GET /booking/order/getOrderDetail', call, { id: orderId }),
      )
      const { name, contentType, bytes } = await receiveFile(ctx, limits)
      return ctx.inTenant(async (trx) => {
        const db = trx as unknown as AnyDB
        await sql`select id from ${sql.table(order.table)} where id = ${orderId} for update`.execute(trx)
        const held = (await db
          .selectFrom(orderFile.table)
          .select([
            sql<number>`count(*) filter (where file_type = ${fileType})`.as('ofType'),
            sql<string>`coalesce(sum(size), 0)`.as('bytes'),
          ])
          .where('order', '=', orderId)
          .executeTakeFirstOrThrow()) as { ofType: number | string; bytes: number | string }
        if (Number(held.ofType) >= ORDER_FILE_LIMITS.filesPerType)
          throw new FileRefused('validation', 'widget.orderFilesOfType', { max: ORDER_FILE_LIMITS.filesPerType })
        if (Number(held.bytes) + bytes.length > ORDER_FILE_LIMITS.totalBytes)
          throw new FileRefused('413', 'widget.orderFilesTotal', {
            name,
            size: formatBytes(ORDER_FILE_LIMITS.totalBytes),
          })
        const stored = await saveFile(trx, {
          tenantId: session.tenantId,
          userId: session.userId,
          // The order's customer reads its documents whoever uploaded them (the file store's company visibility).
          companyId: (found.customerCompany as number | null) ?? session.companyId,
          visibility: orderFile.fields.file?.visibility ?? 'company',
          entity: orderFile.entity,
          field: 'file',
          name,
          contentType,
          bytes,
        })
        // Every value is the server's own (the checked order and type, the stored file's name and size): the row
        // is written as the engine writes one, and answered as it answers one.
        const columns = columnsOf(orderFile, manifest.entities)
        const record: Record<string, unknown> = {
          order: orderId,
          fileType,
          file: stored.uuid,
          name: stored.name,
          size: stored.size,
          contentType,
        }
        const values: Record<string, unknown> = { tenant_id: session.tenantId, created_by: session.userId }
        for (const column of columns)
          if (!column.system && record[column.name] !== undefined)
            values[column.column] = toDbValue(column, record[column.name])
        const row = await db
          .insertInto(orderFile.table)
          .values(values)
          .returning(selection(columns))
          .executeTakeFirstOrThrow()
        const [answer] = await attachLabels(
          trx,
          labelFields(orderFile, manifest.entities),
          [toApiRow(columns, row)],
          call,
        )
        return answer
      })
    },
  }
}
