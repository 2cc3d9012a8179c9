import { randomUUID } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import type { HandlerContext, Session } from '../../http/context.ts'
import type { Handlers } from '../../http/endpoints.ts'
import { messageFor } from '../../http/errors.ts'
import type { Manifest } from '../../manifest.ts'
import { now, tenantToday } from '../../tenancy/clock.ts'
import { tallyOn } from './rollup.ts'

/**
 * Page visits (issue #28, SPEC §3 "Page-visit record"): the portal posts the visits it queued
 * (runtime/routing/visits.ts); each batch is stored in page_visit and tallied into the day's roll-ups
 * (pageView per page and route, visitor once a day) in one transaction, so the charts never lag the rows.
 *
 * Who visited is the server's to say: a first-party cookie names the browser (set here on its first post, a
 * random uuid, HttpOnly, a year — no third-party service ever sees a visit), and a signed-in visit carries the
 * session's user, user type and company. The body says only which pages; the time is the server's.
 */

/** The browser's visitor cookie: random, HttpOnly, SameSite=Lax, a year. */
export const VISITOR_COOKIE = 'waybill_visitor'
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const YEAR_SECONDS = 365 * 24 * 60 * 60

/** The visitor this browser is: its cookie, or a new one sent back with the answer. */
function visitorOf(ctx: HandlerContext): string {
  const sent = ctx.request.cookies[VISITOR_COOKIE]
  if (sent && UUID.test(sent)) return sent
  const fresh = randomUUID()
  ctx.reply.setCookie(VISITOR_COOKIE, fresh, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.request.protocol === 'https',
    maxAge: YEAR_SECONDS,
  })
  return fresh
}

/**
 * SPEC §3's companyId and customCompanyId: the user's company, and — for a client enterprise's user (type 2) —
 * the same company as the provider's customer, so the provider can ask what its customers looked at.
 */
function companiesOf(session: Session | null): { companyId: number | null; customCompanyId: number | null } {
  if (!session) return { companyId: null, customCompanyId: null }
  return { companyId: session.companyId, customCompanyId: session.companyUserType === 2 ? session.companyId : null }
}

export interface VisitedPage {
  pageName: string
  pageRoute: string
}

/** Stores a batch and tallies it, in the caller's tenant transaction: one insert, one tally per page and route. */
export async function recordVisits(
  ctx: HandlerContext,
  visitor: string,
  session: Session | null,
  visits: readonly VisitedPage[],
): Promise<number> {
  const tenantId = ctx.request.tenant.id
  const at = now()
  const day = tenantToday(ctx.request.tenant, at)
  const { companyId, customCompanyId } = companiesOf(session)
  const pages = new Map<string, VisitedPage & { events: number }>()
  for (const visit of visits) {
    const key = `${visit.pageName}\u0000${visit.pageRoute}`
    const page = pages.get(key)
    if (page) page.events += 1
    else pages.set(key, { ...visit, events: 1 })
  }
  await ctx.inTenant(async (trx) => {
    await sql`
      insert into page_visit
        (tenant_id, visitor, user_id, user_type, company_id, custom_company_id, page_name, page_route, created_at)
      select ${tenantId}, ${visitor}::uuid, ${session?.userId ?? null}::int, ${session?.companyUserType ?? null}::smallint,
        ${companyId}::int, ${customCompanyId}::int, v.name, v.route, ${at}::timestamptz
      from unnest(${visits.map((v) => v.pageName)}::text[], ${visits.map((v) => v.pageRoute)}::text[]) as v(name, route)
    `.execute(trx)
    for (const page of pages.values())
      await tallyOn(trx, tenantId, day, {
        metric: 'pageView',
        dim1: page.pageName,
        dim2: page.pageRoute,
        actor: visitor,
        events: page.events,
      })
    await tallyOn(trx, tenantId, day, {
      metric: 'visitor',
      dim1: String(session?.companyUserType ?? 0),
      actor: visitor,
      once: true,
    })
  })
  return visits.length
}

/** The route table's pages (screens with a route), each titled in the caller's language. */
function pageNames(manifest: Manifest, request: FastifyRequest) {
  return manifest.screens
    .filter((screen) => typeof screen.route === 'string')
    .map((screen) => ({
      pageName: screen.name,
      pageRoute: screen.route as string,
      title: messageFor(screen.title, request.language),
    }))
}

export const visitHandlers = (manifest: Manifest) =>
  ({
    async behaviorRecordAdd(ctx) {
      const visitor = visitorOf(ctx)
      return { recorded: await recordVisits(ctx, visitor, ctx.request.session, ctx.input.visits) }
    },

    async behaviorPageNames(ctx) {
      return { list: pageNames(manifest, ctx.request) }
    },
  }) satisfies Handlers
