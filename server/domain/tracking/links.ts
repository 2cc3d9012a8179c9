import { createHash, randomBytes } from 'node:crypto'
import { sql } from 'kysely'
import type { TrackingLinkCreated, TrackingLinkRow } from '../../../generated/content.ts'
import type { HandlerContext } from '../../http/context.ts'
import type { Handlers } from '../../http/endpoints.ts'
import { ApiError } from '../../http/errors.ts'
import { parseId } from '../../http/ids.ts'
import { now } from '../../tenancy/clock.ts'
import { sharedShipment } from './lookup.ts'

/**
 * Shareable tracking links (screens/trackingLinks.yaml): a customer's link to one shipment of their company's,
 * for their consignee. The token is 32 random bytes (base64url), shown once; the row keeps its SHA-256, so a
 * leaked table gives no link back and revoking is one row's revoked_at (docs/DECISIONS.md). The public call
 * finds the row by the hash in the host's tenant only, and answers that one shipment without ids.
 */

/** Links a company may hold that still work (neither expired nor revoked). */
export const LIVE_LINKS_PER_COMPANY = 200

const hashOf = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex')

function companyOf(ctx: HandlerContext): number {
  const session = ctx.request.session
  if (!session) throw new ApiError('401')
  // A customer's links are their company's; someone of no company has no shipments to share.
  if (session.companyId === null || session.companyUserType === 1) throw new ApiError('404')
  return session.companyId
}

const DAY = 86_400_000

export const trackingLinkHandlers = {
  async trackingLinkCreate(ctx) {
    const company = companyOf(ctx)
    const { shipment, days } = ctx.input as { shipment: number; days: 7 | 30 | 90 }
    const tenantId = ctx.request.tenant.id
    const token = randomBytes(32).toString('base64url')
    const at = now()
    const row = await ctx.inTenant(async (trx) => {
      const own = await trx
        .selectFrom('shipment')
        .select('id')
        .where('tenant_id', '=', tenantId)
        .where('id', '=', shipment)
        .where('customer_company', '=', company)
        .executeTakeFirst()
      if (!own) throw new ApiError('404')
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from tracking_link
        where tenant_id = ${tenantId} and company = ${company} and revoked_at is null and expires_at > ${at}`.execute(
        trx,
      )
      if ((rows[0]?.n ?? 0) >= LIVE_LINKS_PER_COMPANY)
        throw new ApiError('validation', {}, [
          { field: 'shipment', message: 'tracking.linkLimit', params: { limit: LIVE_LINKS_PER_COMPANY } },
        ])
      return trx
        .insertInto('tracking_link')
        .values({
          tenant_id: tenantId,
          token_hash: hashOf(token),
          shipment,
          company,
          created_by: ctx.request.session?.userId ?? null,
          created_at: at,
          expires_at: new Date(at.getTime() + days * DAY),
        })
        .returning(['id', 'expires_at'])
        .executeTakeFirstOrThrow()
    })
    return {
      id: row.id,
      token,
      path: `/sharedTracking?token=${token}`,
      expiresAt: new Date(row.expires_at).toISOString(),
    } satisfies TrackingLinkCreated
  },

  async trackingLinkList(ctx) {
    const company = companyOf(ctx)
    const tenantId = ctx.request.tenant.id
    const { rows } = await ctx.inTenant((trx) =>
      sql<{
        id: number
        shipment: number
        bl_no: string | null
        order_no: string | null
        created_at: Date
        expires_at: Date
        revoked_at: Date | null
      }>`
        select l.id, l.shipment, s.bl_no, o.order_no, l.created_at, l.expires_at, l.revoked_at
        from tracking_link l
        join shipment s on s.tenant_id = l.tenant_id and s.id = l.shipment
        left join booking_order o on o.tenant_id = s.tenant_id and o.id = s.booking_order
        where l.tenant_id = ${tenantId} and l.company = ${company}
        order by l.id desc limit 200`.execute(trx),
    )
    return rows.map(
      (r): TrackingLinkRow => ({
        id: r.id,
        shipment: r.shipment,
        blNo: r.bl_no,
        orderNo: r.order_no,
        createdAt: new Date(r.created_at).toISOString(),
        expiresAt: new Date(r.expires_at).toISOString(),
        revokedAt: r.revoked_at ? new Date(r.revoked_at).toISOString() : null,
      }),
    )
  },

  async trackingLinkRevoke(ctx) {
    const company = companyOf(ctx)
    const id = parseId((ctx.input as { id: string }).id)
    const tenantId = ctx.request.tenant.id
    const done = await ctx.inTenant((trx) =>
      trx
        .updateTable('tracking_link')
        .set({ revoked_at: now() })
        .where('tenant_id', '=', tenantId)
        .where('id', '=', id)
        .where('company', '=', company)
        .where('revoked_at', 'is', null)
        .returning('id')
        .executeTakeFirst(),
    )
    if (!done) throw new ApiError('404')
    return null
  },

  async trackingLinkView(ctx) {
    const { token } = ctx.input as { token: string }
    const tenantId = ctx.request.tenant.id
    const at = now()
    return ctx.inTenant(async (trx) => {
      const link = await trx
        .selectFrom('tracking_link')
        .select(['shipment', 'expires_at', 'revoked_at'])
        .where('tenant_id', '=', tenantId)
        .where('token_hash', '=', hashOf(token))
        .executeTakeFirst()
      if (!link) throw new ApiError('404')
      if (link.revoked_at !== null)
        throw new ApiError('validation', {}, [{ field: 'token', message: 'tracking.linkRevoked', params: {} }])
      if (new Date(link.expires_at).getTime() <= at.getTime())
        throw new ApiError('validation', {}, [{ field: 'token', message: 'tracking.linkExpired', params: {} }])
      const answer = await sharedShipment(trx, tenantId, link.shipment, ctx.request.language, at)
      if (!answer) throw new ApiError('404')
      return answer
    })
  },
} satisfies Handlers
