import { createHash, randomBytes } from 'node:crypto'
import { sql } from 'kysely'
import type { TrackingLinkCreated, TrackingLinkRow } from '../../../generated/content.ts'
import type { ManifestEndpoint } from '../../../model/resolve.ts'
import { type ListPlan, parseListRequest, planList } from '../../engine/index.ts'
import type { HandlerContext } from '../../http/context.ts'
import type { Handlers } from '../../http/endpoints.ts'
import { ApiError } from '../../http/errors.ts'
import { loadManifest } from '../../manifest.ts'
import { now } from '../../tenancy/clock.ts'
import { audienceOf, sharedShipment } from './lookup.ts'

/**
 * Shareable tracking links (screens/trackingLinks.yaml): a customer's link to one shipment of their company's,
 * for their consignee, or an operator's to any shipment of the tenant, for the customer's. The token is 32 random bytes (base64url), shown once; the row keeps its SHA-256, so a
 * leaked table gives no link back and revoking is one row's revoked_at (docs/DECISIONS.md). The public call
 * finds the row by the hash in the host's tenant only, and answers that one shipment without ids. The link's page is
 * /sharedTracking/<token>: a path segment, since SPEC §2 takes a `?token=` on any address as a login token.
 */

/** Links a company may hold that still work (neither expired nor revoked). */
export const LIVE_LINKS_PER_COMPANY = 200

const hashOf = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex')

/**
 * Whose links: those of the shipments the caller sees in full when tracking (./lookup.ts audienceOf) — a customer's
 * company's, or for an operator holding orderList the whole tenant's (`company: null`). Whoever sees only the public
 * view (someone of no company, an operator without orderList) has none: 404.
 */
function scopeOf(ctx: HandlerContext): { company: number | null } {
  const session = ctx.request.session
  if (!session) throw new ApiError('401')
  const audience = audienceOf(session)
  if (audience.view !== 'full') throw new ApiError('404')
  return { company: audience.company }
}

const DAY = 86_400_000

let plan: ListPlan | undefined
function listPlanOf(endpoint: ManifestEndpoint): ListPlan {
  if (!plan) {
    const entity = loadManifest().entities.trackingLinkRow
    if (!entity) throw new Error('the manifest has no entity trackingLinkRow: run npm run generate')
    plan = planList(loadManifest(), { ...endpoint, search: [] }, entity)
  }
  return plan
}

export const trackingLinkHandlers = {
  async trackingLinkCreate(ctx) {
    const { company } = scopeOf(ctx)
    const { shipment, order, days } = ctx.input as { shipment?: number; order?: number; days: 7 | 30 | 90 }
    const tenantId = ctx.request.tenant.id
    const token = randomBytes(32).toString('base64url')
    const at = now()
    const row = await ctx.inTenant(async (trx) => {
      // The order detail's Share names the order: its one shipment (server/domain/orders/shipment.ts).
      let own = trx.selectFrom('shipment').select(['id', 'customer_company']).where('tenant_id', '=', tenantId)
      if (company !== null) own = own.where('customer_company', '=', company)
      if (shipment !== undefined) own = own.where('id', '=', shipment)
      if (order !== undefined) own = own.where('booking_order', '=', order)
      const found = await own.executeTakeFirst()
      if (!found) {
        // The company's own order, not confirmed yet, has no shipment to follow: say so. Anything else is 404.
        // booking_order is the engine's table of schemas/order.yaml.
        const ownOrder =
          shipment === undefined && order !== undefined
            ? (
                await sql<{ id: number }>`select id from booking_order
                  where tenant_id = ${tenantId} and id = ${order}
                    ${company !== null ? sql`and customer_company = ${company}` : sql``}`.execute(trx)
              ).rows[0]
            : undefined
        if (ownOrder)
          throw new ApiError('validation', {}, [{ field: 'order', message: 'tracking.linkNoShipment', params: {} }])
        throw new ApiError('404')
      }
      // The link is the shipment's customer's, whoever made it: it counts toward that company's live links.
      const owner = found.customer_company
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from tracking_link
        where tenant_id = ${tenantId} and company is not distinct from ${owner}
          and revoked_at is null and expires_at > ${at}`.execute(trx)
      if ((rows[0]?.n ?? 0) >= LIVE_LINKS_PER_COMPANY)
        throw new ApiError('validation', {}, [
          { field: 'shipment', message: 'tracking.linkLimit', params: { limit: LIVE_LINKS_PER_COMPANY } },
        ])
      return trx
        .insertInto('tracking_link')
        .values({
          tenant_id: tenantId,
          token_hash: hashOf(token),
          shipment: found.id,
          company: owner,
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
      path: `/sharedTracking/${token}`,
      expiresAt: new Date(row.expires_at).toISOString(),
    } satisfies TrackingLinkCreated
  },

  /** The company's links, a page at a time, newest first, with their state; never a token. */
  async trackingLinkPage(ctx) {
    const { company } = scopeOf(ctx)
    const tenantId = ctx.request.tenant.id
    const request = parseListRequest(listPlanOf(ctx.endpoint), ctx.input)
    const at = now()
    return ctx.inTenant(async (trx) => {
      const { rows } = await sql<{
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
        where l.tenant_id = ${tenantId} ${company !== null ? sql`and l.company = ${company}` : sql``}
        order by l.id desc limit ${request.pageSize} offset ${(request.pageNum - 1) * request.pageSize}`.execute(trx)
      const counted = await sql<{ total: number }>`select count(*)::int as total from tracking_link
        where tenant_id = ${tenantId} ${company !== null ? sql`and company = ${company}` : sql``}`.execute(trx)
      return {
        list: rows.map(
          (r): TrackingLinkRow => ({
            id: r.id,
            version: 1,
            shipment: r.shipment,
            blNo: r.bl_no,
            orderNo: r.order_no,
            createdAt: new Date(r.created_at).toISOString(),
            expiresAt: new Date(r.expires_at).toISOString(),
            revokedAt: r.revoked_at ? new Date(r.revoked_at).toISOString() : null,
            state: r.revoked_at ? 'revoked' : new Date(r.expires_at).getTime() <= at.getTime() ? 'expired' : 'active',
          }),
        ),
        total: Number(counted.rows[0]?.total ?? 0),
        pageNum: request.pageNum,
        pageSize: request.pageSize,
      }
    })
  },

  async trackingLinkRevoke(ctx) {
    const { company } = scopeOf(ctx)
    const { id } = ctx.input as { id: number }
    const tenantId = ctx.request.tenant.id
    const done = await ctx.inTenant((trx) => {
      let query = trx
        .updateTable('tracking_link')
        .set({ revoked_at: now() })
        .where('tenant_id', '=', tenantId)
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
      if (company !== null) query = query.where('company', '=', company)
      return query.returning('id').executeTakeFirst()
    })
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
