import type { Transaction } from 'kysely'
import type { DB } from '../db/schema.ts'
import { type HandlerContext, sessionOf } from './context.ts'
import { ApiError } from './errors.ts'
import { parseId } from './ids.ts'

/**
 * A tenant's one-record settings (site settings, messaging): one row whose id is the tenant's, served as the
 * engine's list of one and its detail, so the generic list → detail → form screens edit it. Another id is a 404,
 * the same answer as a row of another tenant.
 */
export function tenantRecordReads<T>(
  read: (trx: Transaction<DB>, tenantId: number) => Promise<T>,
  shown: (tenantId: number, record: T) => Record<string, unknown>,
) {
  return {
    async list(ctx: HandlerContext) {
      const { tenantId } = sessionOf(ctx)
      const record = await ctx.inTenant((trx) => read(trx, tenantId))
      return { list: [shown(tenantId, record)], total: 1, pageNum: 1, pageSize: 1 } as never
    },
    async detail(ctx: HandlerContext & { input: { id?: unknown } }) {
      const { tenantId } = sessionOf(ctx)
      if (parseId(ctx.input.id) !== tenantId) throw new ApiError('404')
      return shown(tenantId, await ctx.inTenant((trx) => read(trx, tenantId))) as never
    },
  }
}

/** A save of the tenant's one record names the tenant's id or none: any other is a 404. */
export function ownTenantId(ctx: HandlerContext, id: unknown): number {
  const { tenantId } = sessionOf(ctx)
  if (id !== undefined && id !== null && id !== tenantId) throw new ApiError('404')
  return tenantId
}
