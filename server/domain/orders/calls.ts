import { type Kysely, sql, type Transaction } from 'kysely'
import type { DB } from '../../db/schema.ts'
import {
  attachLabels,
  columnsOf,
  type EngineApi,
  type EngineCall,
  labelFields,
  selection,
  toApiRow,
} from '../../engine/index.ts'
import { type HandlerContext as BaseContext, type Session, sessionOf } from '../../http/context.ts'
import type { HandlerRegistry } from '../../http/endpoints.ts'
import { ApiError } from '../../http/errors.ts'
import type { Manifest } from '../../manifest.ts'

/**
 * SPEC §7's order calls beside the state changes (issue #23): an order by its job number, the order-number
 * look-up, the order's charge lines, files and business log, what the forwarder requires for a mode, the
 * special operation codes and the public SOP. Whatever belongs to one order reads the order through the
 * engine's detail first, so the caller's permission, tenant and data scope decide, exactly as for
 * getOrderDetail: an order they may not see is not found (404), and neither is anything of it.
 */

type Row = Record<string, unknown>
type HandlerContext = BaseContext & { input: unknown }
type AnyDB = Kysely<Record<string, Record<string, unknown>>>

const inputOf = (ctx: HandlerContext): Row => (ctx.input ?? {}) as Row

/** SPEC §5: the order-number look-up takes at most 20 lines (the body's schema bounds it too). */
export const ORDER_LOOKUP_LINES = 20

export function orderCallHandlers(manifest: Manifest, engine: EngineApi): HandlerRegistry {
  const orderDetail = '/booking/order/getOrderDetail'
  const detailRef = `GET ${orderDetail}`
  const entity = (name: string) => {
    const found = manifest.entities[name]
    if (!found) throw new Error(`orders: no entity ${name} in the manifest`)
    return found
  }
  const charge = entity('orderCharge')
  const file = entity('orderFile')
  const requirement = entity('orderRequirement')
  const operationCode = entity('specialOperationCode')
  const procedure = entity('operatingProcedure')

  const callOf = (ctx: HandlerContext, session: Session): EngineCall => ({
    tenantId: ctx.request.tenant.id,
    session,
    language: ctx.request.language,
    settings: ctx.request.tenant.settings,
  })

  /** The order as getOrderDetail answers it to this caller, or 404. */
  const visibleOrder = (trx: Transaction<DB>, ctx: HandlerContext, session: Session, id: unknown) =>
    engine.detail(trx, detailRef, callOf(ctx, session), { id })

  /** Rows read from an entity's table as the engine answers them: API values and the display texts of references. */
  const answerRows = (trx: Transaction<DB>, of: typeof charge, ctx: HandlerContext, rows: unknown[]) =>
    attachLabels(
      trx,
      labelFields(of, manifest.entities),
      rows.map((row) => toApiRow(columnsOf(of, manifest.entities), row as Row)),
      { tenantId: ctx.request.tenant.id, language: ctx.request.language },
    )

  /** The rows of a tenant table that belong to an order, in the order given, as the engine answers rows. */
  async function rowsOf(
    trx: Transaction<DB>,
    ctx: HandlerContext,
    of: typeof charge,
    orderId: number,
    order: string[],
  ): Promise<Row[]> {
    const columns = columnsOf(of, manifest.entities)
    let query = (trx as unknown as AnyDB).selectFrom(of.table).select(selection(columns)).where('order', '=', orderId)
    for (const column of order) query = query.orderBy(sql.ref(column))
    return answerRows(trx, of, ctx, await query.execute())
  }

  /** An order as a row of an answer: getOrderDetail's, without the history (getBusinessLog answers that). */
  const withoutHistory = ({ history: _history, ...row }: Row) => row

  /** Ids of the tenant's orders by a column's values (row-level security keeps it to the caller's tenant). */
  async function orderIdsBy(trx: Transaction<DB>, column: 'job_no' | 'order_no', values: string[]) {
    if (!values.length) return []
    return (await (trx as unknown as AnyDB)
      .selectFrom(entity('order').table)
      .select(['id', sql.ref(column).as('key')])
      .where(column, 'in', values)
      .orderBy('id')
      .execute()) as { id: number; key: string }[]
  }

  return {
    async getOrderDetailByJobNo(ctx) {
      const session = sessionOf(ctx)
      const { jobNo } = inputOf(ctx) as { jobNo: string }
      return ctx.inTenant(async (trx) => {
        // A job number names one job file; should two orders carry it, the first the caller may see answers.
        for (const { id } of await orderIdsBy(trx, 'job_no', [jobNo])) {
          try {
            return withoutHistory(await visibleOrder(trx, ctx, session, id))
          } catch (error) {
            if (!(error instanceof ApiError) || error.code !== '404') throw error
          }
        }
        throw new ApiError('404')
      })
    },

    async queryOrderByOrderNos(ctx) {
      const session = sessionOf(ctx)
      const { orderNos } = inputOf(ctx) as { orderNos: string }
      const wanted = [...new Set(orderNos.split('\n').map((line) => line.trim().toUpperCase()))].filter(Boolean)
      if (wanted.length > ORDER_LOOKUP_LINES)
        throw new ApiError('validation', {}, [
          { field: 'orderNos', message: 'validation.textBlock', params: { maxLines: ORDER_LOOKUP_LINES } },
        ])
      return ctx.inTenant(async (trx) => {
        const ids = new Map((await orderIdsBy(trx, 'order_no', wanted)).map((row) => [row.key, row.id]))
        const list: Row[] = []
        const notFound: string[] = []
        for (const orderNo of wanted) {
          const id = ids.get(orderNo)
          const found = id === undefined ? undefined : await visibleOrder(trx, ctx, session, id).catch(notFoundAsNone)
          if (found) list.push(withoutHistory(found))
          else notFound.push(orderNo)
        }
        return { list, notFound }
      })
    },

    async getChargeListVos(ctx) {
      const session = sessionOf(ctx)
      const { orderId } = inputOf(ctx) as { orderId: number }
      return ctx.inTenant(async (trx) => {
        await visibleOrder(trx, ctx, session, orderId)
        return rowsOf(trx, ctx, charge, orderId, ['id'])
      })
    },

    async getFiles(ctx) {
      const session = sessionOf(ctx)
      const { orderId } = inputOf(ctx) as { orderId: number }
      return ctx.inTenant(async (trx) => {
        await visibleOrder(trx, ctx, session, orderId)
        return rowsOf(trx, ctx, file, orderId, ['file_type', 'id'])
      })
    },

    async getBusinessLog(ctx) {
      const session = sessionOf(ctx)
      const { orderId } = inputOf(ctx) as { orderId: number }
      return ctx.inTenant(async (trx) => (await visibleOrder(trx, ctx, session, orderId)).history)
    },

    async queryRequirements(ctx) {
      const session = sessionOf(ctx)
      const input = inputOf(ctx) as { transportMode?: number; containerLoadType?: string; orderId?: number }
      return ctx.inTenant(async (trx) => {
        let mode = input.transportMode
        let loadType = input.containerLoadType
        if (input.orderId !== undefined) {
          const order = await visibleOrder(trx, ctx, session, input.orderId)
          mode = order.transportMode as number
          loadType = order.containerLoadType as string
        }
        const columns = columnsOf(requirement, manifest.entities)
        let query = (trx as unknown as AnyDB)
          .selectFrom(requirement.table)
          .select(selection(columns))
          .where('transport_mode', '=', mode as number)
        // A requirement of no load type is the mode's, for every load type.
        if (loadType)
          query = query.where((eb) =>
            eb.or([eb('container_load_type', 'is', null), eb('container_load_type', '=', loadType as string)]),
          )
        const rows = await query.orderBy(sql`days_before_etd desc nulls last`).orderBy('code').execute()
        return answerRows(trx, requirement, ctx, rows)
      })
    },

    async specialOperationCodeList(ctx) {
      sessionOf(ctx)
      return ctx.inTenant(async (trx) => {
        const columns = columnsOf(operationCode, manifest.entities)
        const rows = await (trx as unknown as AnyDB)
          .selectFrom(operationCode.table)
          .select(selection(columns))
          .where('enabled', '=', true)
          .orderBy('code')
          .execute()
        return answerRows(trx, operationCode, ctx, rows)
      })
    },

    async getSop(ctx) {
      const { transportMode } = inputOf(ctx) as { transportMode: number }
      return ctx.inTenant(async (trx) => {
        const columns = columnsOf(procedure, manifest.entities)
        const row = await (trx as unknown as AnyDB)
          .selectFrom(procedure.table)
          .select(selection(columns))
          .where('transport_mode', '=', transportMode)
          .executeTakeFirst()
        return row ? ((await answerRows(trx, procedure, ctx, [row]))[0] ?? null) : null
      })
    },
  }
}

/** An order the caller may not see is one not found. */
function notFoundAsNone(error: unknown): undefined {
  if (error instanceof ApiError && error.code === '404') return undefined
  throw error
}
