import type { HandlerRegistry } from '../http/endpoints.ts'
import { ApiError } from '../http/errors.ts'
import type { Manifest } from '../manifest.ts'
import type { EngineApi } from './api.ts'

/**
 * The handlers of the endpoints that fire one transition (`transition: { entity, name }` in screens/*.yaml,
 * SPEC §7's withdraw, reapplyOrder, onlineOrders/reEdit): the body's id, version and remark go to the entity's
 * state machine, whose permission, data scope, version check, audit and effects are the engine's.
 */
export function transitionHandlers(manifest: Manifest, engine: EngineApi): HandlerRegistry {
  const handlers: HandlerRegistry = {}
  for (const endpoint of manifest.endpoints) {
    const fires = endpoint.fires
    if (endpoint.kind !== 'custom' || !fires || endpoint.servedAs) continue
    handlers[endpoint.id] = async (ctx) => {
      const session = ctx.request.session
      if (!session) throw new ApiError('401')
      const { id, version, remark } = (ctx.input ?? {}) as { id?: number; version?: number; remark?: string }
      const call = { tenantId: ctx.request.tenant.id, session, language: ctx.request.language }
      return ctx.inTenant((trx) =>
        engine.transition(trx, { entity: fires.entity }, call, {
          id,
          version,
          transition: fires.name,
          ...(remark ? { remark } : {}),
        }),
      )
    }
  }
  return handlers
}
