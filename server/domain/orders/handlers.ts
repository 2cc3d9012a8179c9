import type { Transaction } from 'kysely'
import type { ManifestEndpoint } from '../../../model/resolve.ts'
import type { DB } from '../../db/schema.ts'
import type { EngineApi, EngineCall } from '../../engine/index.ts'
import { type HandlerContext as BaseContext, type Session, sessionOf } from '../../http/context.ts'
import type { HandlerRegistry } from '../../http/endpoints.ts'
import { ApiError } from '../../http/errors.ts'
import type { Manifest } from '../../manifest.ts'

/**
 * The booking calls (SPEC §7 order/add, orderDraft/addOrEditOrderDraft, orderTemplate/addOrEditOrderTemplate,
 * order/{mode}/comfirm). The booking permission is the YAML's (`permission: booking`, `refusal: '360002'`,
 * checked before the body is read, and read by the booking form to say so up front); each checks what is its own
 * (the mode of a confirmation path) and then drives the engine's create, update and transitions in one transaction, so
 * validation, numbering, the order's source (server/domain/orders/source.ts), audit and effects are the
 * engine's, exactly as for its own endpoints.
 */

type Row = Record<string, unknown>
type HandlerContext = BaseContext & { input: unknown }

const bodyOf = (input: unknown): Row =>
  input && typeof input === 'object' && !Array.isArray(input) ? { ...(input as Row) } : {}

const CONFIRM_PATHS = { fclComfirm: 'FCL', lclComfirm: 'LCL', airComfirm: 'AIR', railwayComfirm: 'RAILWAY' } as const

export function orderHandlers(manifest: Manifest, engine: EngineApi): HandlerRegistry {
  const endpointOf = (entity: string, kind: string, path?: string): ManifestEndpoint => {
    const found = manifest.endpoints.find(
      (e) => e.entity === entity && e.kind === kind && (path === undefined || e.path === path),
    )
    if (!found) throw new Error(`No ${kind} endpoint of ${entity}${path ? ` at ${path}` : ''} in the manifest`)
    return found
  }
  const orderCreate = endpointOf('order', 'create', '/booking/orderDraft/add')
  const orderUpdate = endpointOf('order', 'update', '/booking/orderDraft/edit')
  const orderTransition = endpointOf('order', 'transition')
  const orderDetail = endpointOf('order', 'detail', '/booking/order/getOrderDetail')
  const templateCreate = endpointOf('orderTemplate', 'create')
  const templateUpdate = endpointOf('orderTemplate', 'update')

  const callOf = (ctx: HandlerContext, session: Session): EngineCall => ({
    tenantId: ctx.request.tenant.id,
    session,
    language: ctx.request.language,
    settings: ctx.request.tenant.settings,
  })

  /** Stores the order (new, or the caller's draft by id and version) and, when asked, submits it. */
  async function saveOrder(ctx: HandlerContext, submit: boolean): Promise<Row> {
    const session = sessionOf(ctx)
    const { submit: _submit, rateId, quoteId, ...body } = bodyOf(ctx.input)
    if (rateId !== undefined && rateId !== null && rateId !== '') body.rate = Number(rateId)
    if (quoteId !== undefined && quoteId !== null && quoteId !== '') body.quote = Number(quoteId)
    const call = callOf(ctx, session)
    return ctx.inTenant(async (trx: Transaction<DB>) => {
      const editing = body.id !== undefined && body.id !== null
      if (editing) {
        // The source of an order is fixed when it is first stored.
        delete body.rate
        delete body.quote
      }
      const saved = editing
        ? await engine.update(trx, orderUpdate, call, body)
        : await engine.create(trx, orderCreate, call, body)
      if (!submit) return saved
      return engine.transition(trx, orderTransition, call, {
        id: saved.id,
        version: saved.version,
        transition: 'submit',
      })
    })
  }

  const confirm =
    (mode: string) =>
    async (ctx: HandlerContext): Promise<Row> => {
      const session = sessionOf(ctx)
      const { id, version, remark } = bodyOf(ctx.input)
      const call = callOf(ctx, session)
      return ctx.inTenant(async (trx) => {
        const order = await engine.detail(trx, orderDetail, call, { id })
        // An order of another mode is not this path's to confirm.
        if (order.containerLoadType !== mode) throw new ApiError('320001')
        return engine.transition(trx, orderTransition, call, {
          id,
          version,
          transition: 'accept',
          ...(remark ? { remark } : {}),
        })
      })
    }

  return {
    orderAdd: async (ctx) => saveOrder(ctx, bodyOf(ctx.input).submit === true),
    orderDraftSave: async (ctx) => saveOrder(ctx, false),
    async orderTemplateSave(ctx) {
      const session = sessionOf(ctx)
      const body = bodyOf(ctx.input)
      const editing = body.id !== undefined && body.id !== null
      const call = callOf(ctx, session)
      return ctx.inTenant((trx) =>
        editing ? engine.update(trx, templateUpdate, call, body) : engine.create(trx, templateCreate, call, body),
      )
    },
    ...Object.fromEntries(Object.entries(CONFIRM_PATHS).map(([name, mode]) => [name, confirm(mode)])),
  }
}
