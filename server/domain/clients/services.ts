import { sql, type Transaction } from 'kysely'
import type { CompanyServices } from '../../../generated/types.ts'
import type { DB } from '../../db/schema.ts'
import type { EngineApi } from '../../engine/index.ts'
import type { Session } from '../../http/context.ts'
import type { HandlerRegistry } from '../../http/endpoints.ts'
import { ApiError } from '../../http/errors.ts'

/**
 * The services the provider enabled per enterprise (/clientEnterpriseService, schemas/company.yaml
 * onlineBooking, fbaStatus, imService). Online booking is what direct orders need: the Direct order menu's
 * tenant check (GET /b2b/tenant/checkTenant) answers no service — the warm reminder — and the server refuses
 * a direct order (server/domain/orders/source.ts) for an enterprise without it. Both read the enterprise's
 * row on every call, so turning the service off takes effect on its users' next call.
 */

/**
 * A service switch of the caller's enterprise (a customer company of the tenant: online booking, FBA), read on
 * every call so that turning it off takes effect on the next; undefined for a caller of no such enterprise.
 */
export async function enterpriseSwitch<K extends 'online_booking' | 'fba_status'>(
  trx: Transaction<DB>,
  session: Pick<Session, 'tenantId' | 'companyId'>,
  column: K,
): Promise<unknown> {
  if (session.companyId === null) return undefined
  const row = await trx
    .selectFrom('company')
    .select(sql.ref(column).as('value'))
    .where('tenant_id', '=', session.tenantId)
    .where('id', '=', session.companyId)
    .where('company_type', '=', 2)
    .executeTakeFirst()
  return row?.value
}

/** Whether the caller's enterprise books online: a customer enterprise of the tenant with online booking on. */
export async function booksOnline(trx: Transaction<DB>, session: Pick<Session, 'tenantId' | 'companyId'>) {
  return (await enterpriseSwitch(trx, session, 'online_booking')) === true
}

export const clientServiceHandlers = (engine: EngineApi): HandlerRegistry => ({
  /** POST /b2b/company/service/edit: `{ id, version, onlineBooking?, fbaStatus?, imService? }` → the enterprise. */
  async companyServicesSave(ctx) {
    const session = ctx.request.session
    if (!session) throw new ApiError('401')
    const input = ctx.input as CompanyServices
    const call = { tenantId: session.tenantId, session, language: ctx.request.language }
    return ctx.inTenant(async (trx) => {
      // A customer enterprise of the tenant (404 for anything else, as the list's filter says), then the
      // engine's update, which checks the version (330002), validates the record and writes its history.
      // Read as the entity, not through the enterprise list's detail: this call's permission is its own.
      const found = await engine.detail(trx, { entity: 'company' }, call, { id: input.id })
      if (found.companyType !== 2) throw new ApiError('404')
      // Only what was sent: a service left out keeps its value (the engine validates the record whole).
      const sent = Object.fromEntries(
        (['onlineBooking', 'fbaStatus', 'imService'] as const)
          .filter((name) => input[name] !== undefined)
          .map((name) => [name, input[name]]),
      )
      return engine.update(trx, { entity: 'company' }, call, { id: input.id, version: input.version, ...sent })
    })
  },
})
