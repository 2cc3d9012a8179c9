import { sql, type Transaction } from 'kysely'
import type { FbaService } from '../../../generated/content.ts'
import type { DB } from '../../db/schema.ts'
import { writeAudit } from '../../engine/audit.ts'
import type { Gate } from '../../engine/index.ts'
import type { HandlerContext, Session } from '../../http/context.ts'
import type { Handlers } from '../../http/endpoints.ts'
import { ApiError } from '../../http/errors.ts'
import { parseId } from '../../http/ids.ts'
import { now } from '../../tenancy/clock.ts'
import { enterpriseSwitch } from '../clients/services.ts'

/**
 * The FBA service of an enterprise (issue #26, SPEC §3 `fbaStatus`, §7 activateFbaService). Its administrator
 * asks for it on /fbaService (the request's time and note are kept on the company, migration 0029); an
 * operator turns it on with the enterprise's services (POST /b2b/company/service/edit, fbaStatus 1). Until then
 * its users' FBA permissions are withheld from getCurrentUserInfo, so the portal shows no FBA menu, and every
 * call on an FBA entity is refused with 360005 (the engine's gate, ./register.ts). Both read the company row on
 * every call, so turning the service off takes effect on its users' next call.
 */

/** The permissions only an enterprise with the FBA service uses (screens/access.yaml). */
export const FBA_PERMISSIONS = ['fbaAddressBook', 'fbaProductList', 'fbaOrderList'] as const

/** SPEC §9 company user type 1: the forwarder's own staff, who serve every enterprise's FBA records. */
const PROVIDER = 1

/** Whether the caller may use FBA: the forwarder's staff always, an enterprise user when the service is on. */
export async function usesFba(
  trx: Transaction<DB>,
  session: Pick<Session, 'tenantId' | 'companyId' | 'companyUserType'>,
) {
  if (session.companyUserType === PROVIDER) return true
  return (await enterpriseSwitch(trx, session, 'fba_status')) === 1
}

/** The engine's gate of the FBA entities: 360005 for an enterprise without the service. */
export const fbaGate: Gate = async ({ trx, call }) => {
  if (!(await usesFba(trx, call.session))) throw new ApiError('360005')
}

/**
 * The permissions getCurrentUserInfo leaves out for the caller: the FBA ones while the service is off, and the
 * request for the forwarder's own staff (a system administrator holds every permission; they ask nobody).
 */
export async function withheldPermissions(trx: Transaction<DB>, session: Session): Promise<readonly string[]> {
  if (session.companyUserType === PROVIDER) return ['fbaApply']
  return (await usesFba(trx, session)) ? [] : FBA_PERMISSIONS
}

function enterpriseOf(ctx: HandlerContext): Session & { companyId: number } {
  const session = ctx.request.session
  if (!session) throw new ApiError('401')
  if (session.companyId === null || session.companyUserType === PROVIDER) throw new ApiError('404')
  return session as Session & { companyId: number }
}

async function serviceOf(ctx: HandlerContext, session: Session & { companyId: number }): Promise<FbaService> {
  const row = await ctx.inTenant((trx) =>
    trx
      .selectFrom('company')
      .select(['id', 'version', 'fba_status', 'fba_applied_at', 'fba_apply_note'])
      .where('tenant_id', '=', session.tenantId)
      .where('id', '=', session.companyId)
      .where('company_type', '=', 2)
      .executeTakeFirst(),
  )
  if (!row) throw new ApiError('404')
  return {
    id: row.id,
    version: row.version,
    fbaStatus: row.fba_status === 1 ? 1 : 0,
    ...(row.fba_applied_at ? { fbaAppliedAt: row.fba_applied_at.toISOString() } : {}),
    // Empty until the enterprise asks (the form's field to fill).
    fbaApplyNote: row.fba_apply_note ?? '',
  }
}

export const fbaServiceHandlers = {
  async fbaServiceList(ctx) {
    const service = await serviceOf(ctx, enterpriseOf(ctx))
    return { list: [service], total: 1, pageNum: 1, pageSize: 1 }
  },

  async fbaServiceDetail(ctx) {
    const session = enterpriseOf(ctx)
    if (parseId(ctx.input.id) !== session.companyId) throw new ApiError('404')
    return serviceOf(ctx, session)
  },

  /** POST /booking/fba/activateFbaService: the request, once; enabled already, the service as it is. */
  async activateFbaService(ctx) {
    const session = enterpriseOf(ctx)
    const { id } = ctx.input
    if (id !== undefined && id !== null && id !== session.companyId) throw new ApiError('404')
    const current = await serviceOf(ctx, session)
    if (current.fbaStatus === 1) return current
    if (current.fbaAppliedAt) throw new ApiError('360006')
    const at = now()
    const note = ctx.input.fbaApplyNote.trim()
    await ctx.inTenant(async (trx) => {
      const asked = await trx
        .updateTable('company')
        .set({
          fba_applied_at: sql`${at}::timestamptz`,
          fba_apply_note: note,
          version: sql<number>`version + 1`,
          updated_at: sql`now()`,
        })
        .where('tenant_id', '=', session.tenantId)
        .where('id', '=', session.companyId)
        .where('fba_applied_at', 'is', null)
        .executeTakeFirst()
      // The enterprise's history (/clientEnterpriseDetail) says who asked, when and why, beside the operator's
      // enabling it (an update of the engine's, audited there); a request raced by another is not written twice.
      if (Number(asked.numUpdatedRows) === 1)
        await writeAudit(trx, {
          tenantId: session.tenantId,
          userId: session.userId,
          entity: 'company',
          recordId: session.companyId,
          action: 'update',
          transition: 'activateFbaService',
          before: { fbaAppliedAt: null, fbaApplyNote: current.fbaApplyNote || null },
          after: { fbaAppliedAt: at.toISOString(), fbaApplyNote: note },
          at,
        })
    })
    return serviceOf(ctx, session)
  },
} satisfies Handlers
