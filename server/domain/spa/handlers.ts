import { type RawBuilder, type SqlBool, sql, type Transaction } from 'kysely'
import type { ManifestEndpoint, ManifestEntity } from '../../../model/resolve.ts'
import { applyMarkup, scaled } from '../../../rules/pricing.ts'
import type { DB } from '../../db/schema.ts'
import { type EngineApi, scopeConditions, writeAudit } from '../../engine/index.ts'
import { type HandlerContext, type Session, sessionOf } from '../../http/context.ts'
import type { HandlerRegistry } from '../../http/endpoints.ts'
import { ApiError } from '../../http/errors.ts'
import { parseId } from '../../http/ids.ts'
import type { Manifest } from '../../manifest.ts'
import { tenantToday } from '../../tenancy/clock.ts'
import { notifyTransition } from '../letters/events.ts'
import { levelOf, type RateRow, rateSelect } from '../rates/pricing.ts'
import { effectiveState, PROVIDER } from './state.ts'

/**
 * Special-rate applications (SPEC §4 states, §7 /booking/spa/*). The state machine is the one of
 * schemas/spaApplication.yaml: each call fires one of its transitions, checked here against the caller's
 * permission (220000), the version they saw (330002) and the state read now (320001). `expired` (an approved
 * rate past its validity) and `passed` (still undecided when the rate ended) are computed when read.
 * Every offer and decision is a spa_offer row (the thread) and an audit entry, in the same transaction.
 */

interface SpaRow {
  id: number
  version: number
  applicationNo: string
  rate: number
  rateNo: string
  mode: string
  carrier: string
  origin: string
  destination: string
  containerType: string | null
  validTo: string
  currency: string
  listPrice: string | null
  targetPrice: string
  counterPrice: string | null
  approvedPrice: string | null
  remark: string | null
  customerCompany: number | null
  customerCompanyName: string | null
  createdBy: number
  createdByName: string | null
  state: string
  storedState: string
  createdAt: string
  updatedAt: string
}

const selectRows = (today: string) => sql`
  select a.id, a.version, a.application_no as "applicationNo", a.rate, a.rate_no as "rateNo", a.mode, a.carrier,
    a.origin, a.destination, a.container_type as "containerType", to_char(a.valid_to, 'YYYY-MM-DD') as "validTo",
    a.currency, a.list_price::text as "listPrice", a.target_price::text as "targetPrice",
    a.counter_price::text as "counterPrice", a.approved_price::text as "approvedPrice", a.remark,
    a.customer_company as "customerCompany", c.name as "customerCompanyName", a.created_by as "createdBy",
    u.real_name as "createdByName", ${effectiveState('a', today)} as state, a.state as "storedState",
    a.created_at as "createdAt", a.updated_at as "updatedAt"
  from spa_application a
  left join company c on c.id = a.customer_company and c.tenant_id = a.tenant_id
  left join app_user u on u.id = a.created_by and u.tenant_id = a.tenant_id
`

/**
 * Customers see their company's applications (a self-scoped one only their own); operators the tenant's —
 * the rule ./register.ts gives the engine's lists too.
 */
function visible(entity: ManifestEntity, session: Session): RawBuilder<SqlBool>[] {
  const tenant = sql<SqlBool>`a.tenant_id = ${session.tenantId}`
  if (session.companyUserType === PROVIDER) return [tenant]
  return [tenant, ...scopeConditions(entity, session, 'a')]
}

const where = (conditions: RawBuilder<SqlBool>[]) => sql.join(conditions, sql` and `)

function field(name: string, message = 'validation.required') {
  return new ApiError('validation', {}, [{ field: name, message, params: {} }])
}

const idOf = (input: unknown): number => parseId((input as { id?: unknown } | null)?.id)

const toIso = (row: SpaRow): SpaRow => ({
  ...row,
  createdAt: new Date(row.createdAt).toISOString(),
  updatedAt: new Date(row.updatedAt).toISOString(),
})

async function findRow(
  trx: Transaction<DB>,
  entity: ManifestEntity,
  session: Session,
  today: string,
  id: number,
  lock = false,
) {
  const { rows } = await sql<SpaRow>`${selectRows(today)} where a.id = ${id} and ${where(visible(entity, session))} ${
    lock ? sql`for update of a` : sql``
  }`.execute(trx)
  if (!rows[0]) throw new ApiError('404')
  return toIso(rows[0])
}

/** The freight unit price the caller would pay on a rate today (their level applied), for the thread's reference. */
function listPriceOf(rate: RateRow, containerType: string | null, markup: string | null): string | null {
  if (rate.mode === 'FCL') {
    const line = rate.container_prices?.find((p) => p.containerType === containerType)
    return line ? applyMarkup(line.price, markup) : null
  }
  if (rate.mode === 'LCL') return rate.price_per_cbm ? applyMarkup(rate.price_per_cbm, markup) : null
  const first = rate.air_breaks?.[0]
  return first ? applyMarkup(first.price, markup) : null
}

async function rateOf(trx: Transaction<DB>, ctx: HandlerContext, rateId: number): Promise<RateRow> {
  const { rows } =
    await sql<RateRow>`${rateSelect(ctx.request.language)} where r.tenant_id = ${ctx.request.tenant.id} and r.id = ${rateId}`.execute(
      trx,
    )
  if (!rows[0]) throw new ApiError('404')
  return rows[0]
}

/** SPEC §8 "freight rate has expired": a rate whose last valid day is before today cannot be applied for. */
function mustBeCurrent(rate: { valid_to: string }, today: string): void {
  if (rate.valid_to < today) throw new ApiError('340001')
}

function positivePrice(value: unknown, name: string): string {
  if (typeof value !== 'string' || scaled(value) <= 0n)
    throw field(name, value ? 'validation.exclusiveMinimum' : 'validation.required')
  return value
}

interface SpaInput {
  id?: number
  version?: number
  rateId?: number
  containerType?: string
  targetPrice?: string
  price?: string
  decision?: 'counterOffer' | 'approve' | 'reject'
  remark?: string
}

/** The special-rate application itself, for the engine's reads no screen binds (getSpaById). */
const SPA = { entity: 'spaApplication' }

export const spaHandlers = (manifest: Manifest, engine: EngineApi): HandlerRegistry => {
  const entity = manifest.entities.spaApplication as ManifestEntity
  const states = entity.states as NonNullable<ManifestEntity['states']>

  /** Fires one transition of the YAML state machine with the field changes it carries; answers the row. */
  async function fire(
    ctx: HandlerContext,
    input: SpaInput,
    transition: string,
    values: (row: SpaRow) => Record<string, unknown>,
    offer: (row: SpaRow) => { action: string; price: string | null },
  ) {
    const session = sessionOf(ctx)
    const rule = states.transitions[transition]
    if (!rule) throw new Error(`spaApplication has no transition ${transition}`)
    if (!session.permissions.has(rule.permission)) throw new ApiError('220000')
    const side = rule.permission === 'spaReview' ? 'operator' : 'customer'
    if (
      (side === 'operator') !== (session.companyUserType === PROVIDER) &&
      !session.roles.includes('SystemAdministrator')
    )
      throw new ApiError('220000')
    const id = idOf(input)
    const version = parseId(input.version, 'version')
    return ctx.inTenant(async (trx) => {
      const before = await findRow(trx, entity, session, tenantToday(ctx.request.tenant), id, true)
      if (before.version !== version) throw new ApiError('330002')
      if (!rule.from.includes(before.state)) throw new ApiError('320001')
      const changes = { ...values(before), state: rule.to }
      const sets = Object.entries(changes).map(([column, value]) => sql`${sql.id(column)} = ${value}`)
      const { rows } = await sql`
        update spa_application set ${sql.join(sets)}, version = version + 1, updated_at = now()
        where id = ${id} and version = ${version} and tenant_id = ${session.tenantId} returning id
      `.execute(trx)
      if (!rows.length) throw new ApiError('330002')
      const { action, price } = offer(before)
      await addOffer(trx, session, id, action, side, price, before.currency, input.remark)
      const after = await findRow(trx, entity, session, tenantToday(ctx.request.tenant), id)
      // The YAML transition's letters (server/domain/letters/events.ts), in this transaction.
      if (rule.effects?.includes('notify'))
        await notifyTransition(trx, 'spaApplication', { ...after, remark: input.remark ?? '' }, session)
      await writeAudit(trx, {
        tenantId: session.tenantId,
        userId: session.userId,
        entity: 'spaApplication',
        recordId: id,
        action: 'transition',
        transition,
        ...(input.remark ? { remark: input.remark } : {}),
        before: { state: before.state, version: before.version },
        after: { ...changes, state: after.state, version: after.version },
      })
      return after
    })
  }

  async function addOffer(
    trx: Transaction<DB>,
    session: Session,
    applicationId: number,
    action: string,
    side: string,
    price: string | null,
    currency: string,
    remark: string | undefined,
  ) {
    await sql`
      insert into spa_offer (tenant_id, application, action, side, price, currency, remark, created_by)
      values (${session.tenantId}, ${applicationId}, ${action}, ${side}, ${price}, ${currency}, ${remark ?? null}, ${session.userId})
    `.execute(trx)
  }

  /**
   * Both lists are the engine's (server/engine/api.ts) over the screens' search: `%` and `_` match themselves,
   * an unknown search key is refused, pageSize is 1..200; the registered computed state (./register.ts)
   * answers and filters `expired` / `passed`.
   */
  async function list(ctx: HandlerContext & { input: unknown; endpoint: ManifestEndpoint }) {
    const session = sessionOf(ctx)
    const call = { tenantId: ctx.request.tenant.id, session, language: ctx.request.language }
    return ctx.inTenant((trx) => engine.list(trx, ctx.endpoint, call, ctx.input))
  }

  /** The transitions this caller may fire on the row now. */
  const allowed = (session: Session, state: string) =>
    Object.entries(states.transitions)
      .filter(([, t]) => t.from.includes(state) && session.permissions.has(t.permission))
      .map(([name]) => name)

  return {
    async verifyFreightRates(ctx) {
      const rateId = parseId((ctx.input as { rateId?: unknown } | null)?.rateId, 'rateId')
      return ctx.inTenant(async (trx) => {
        const rate = await rateOf(trx, ctx, rateId)
        mustBeCurrent(rate, tenantToday(ctx.request.tenant))
        return { valid: true, validTo: rate.valid_to }
      })
    },

    async spaApply(ctx) {
      const session = sessionOf(ctx)
      if (session.companyUserType === PROVIDER) throw new ApiError('220000')
      const input = ctx.input as SpaInput
      if (!input.rateId) throw field('rateId')
      const target = positivePrice(input.targetPrice, 'targetPrice')
      return ctx.inTenant(async (trx) => {
        const rate = await rateOf(trx, ctx, input.rateId as number)
        mustBeCurrent(rate, tenantToday(ctx.request.tenant))
        const containerType = rate.mode === 'FCL' ? (input.containerType ?? null) : null
        if (rate.mode === 'FCL' && !rate.container_prices?.some((p) => p.containerType === containerType))
          throw field('containerType', 'validation.enum')
        const level = await levelOf(trx, session.tenantId, session)
        const listPrice = listPriceOf(rate, containerType, level?.markupPercent ?? null)
        if (listPrice && scaled(target) >= scaled(listPrice)) throw field('targetPrice', 'validation.exclusiveMaximum')
        const { rows } = await sql<{ id: number }>`
          insert into spa_application (tenant_id, created_by, application_no, rate, rate_no, mode, carrier, origin,
            destination, container_type, valid_to, currency, list_price, target_price, remark, customer_company, state)
          values (${session.tenantId}, ${session.userId}, ${`SPA-${Date.now().toString(36).toUpperCase()}`}, ${rate.id},
            ${rate.rate_no}, ${rate.mode}, ${rate.carrier}, ${rate.origin}, ${rate.destination}, ${containerType},
            ${rate.valid_to}, ${rate.currency}, ${listPrice}, ${target}, ${input.remark ?? null}, ${session.companyId},
            ${states.initial})
          returning id
        `.execute(trx)
        const id = rows[0]?.id as number
        // A readable number that never collides: the prefix, the day, the row id.
        await sql`update spa_application set application_no = ${`SPA${tenantToday(ctx.request.tenant).replaceAll('-', '').slice(2)}${String(id).padStart(5, '0')}`} where id = ${id}`.execute(
          trx,
        )
        await addOffer(trx, session, id, 'apply', 'customer', target, rate.currency, input.remark)
        const row = await findRow(trx, entity, session, tenantToday(ctx.request.tenant), id)
        await writeAudit(trx, {
          tenantId: session.tenantId,
          userId: session.userId,
          entity: 'spaApplication',
          recordId: id,
          action: 'create',
          before: null,
          after: row as unknown as Record<string, unknown>,
        })
        return row
      })
    },

    listSpaApply: list,
    listSpaReview: list,

    async getSpaById(ctx) {
      const session = sessionOf(ctx)
      const id = idOf(ctx.input)
      const call = { tenantId: ctx.request.tenant.id, session, language: ctx.request.language }
      return ctx.inTenant(async (trx) => {
        // The engine's detail (server/engine/api.ts): the computed state and names of ./register.ts, the
        // labels, the audit history; the thread is this module's own.
        const row = await engine.detail(trx, SPA, call, { id })
        const state = row.state as string
        const { rows: thread } = await sql<Record<string, unknown>>`
          select o.id, o.action, o.side, o.price::text as price, o.currency, o.remark, o.created_by as "userId",
            u.real_name as "userName", o.created_at as at
          from spa_offer o left join app_user u on u.id = o.created_by and u.tenant_id = o.tenant_id
          where o.tenant_id = ${session.tenantId} and o.application = ${id}
          order by o.id
        `.execute(trx)
        return {
          ...row,
          usable: state === 'approved',
          transitions: allowed(session, state),
          thread: thread.map((t) => ({ ...t, at: new Date(t.at as string).toISOString() })),
        }
      })
    },

    async spaAudit(ctx) {
      const input = ctx.input as SpaInput
      if (input.decision === 'counterOffer') {
        const price = positivePrice(input.price, 'price')
        return fire(
          ctx,
          input,
          'counterOffer',
          () => ({ counter_price: price }),
          () => ({ action: 'counterOffer', price }),
        )
      }
      if (input.decision === 'approve') {
        // Approved at the counter-offer the customer accepted, else at the customer's own price.
        const priceOf = (row: SpaRow) => (row.state === 'accepted' ? row.counterPrice : row.targetPrice)
        return fire(
          ctx,
          input,
          'approve',
          (row) => ({ approved_price: priceOf(row) }),
          (row) => ({ action: 'approve', price: priceOf(row) }),
        )
      }
      if (input.decision === 'reject')
        return fire(
          ctx,
          input,
          'reject',
          () => ({}),
          () => ({ action: 'reject', price: null }),
        )
      throw field('decision')
    },

    async spaAccept(ctx) {
      return fire(
        ctx,
        ctx.input as SpaInput,
        'accept',
        () => ({}),
        (row) => ({ action: 'accept', price: row.counterPrice }),
      )
    },

    async spaCancel(ctx) {
      return fire(
        ctx,
        ctx.input as SpaInput,
        'withdraw',
        () => ({}),
        () => ({ action: 'withdraw', price: null }),
      )
    },

    async validSpaReapply(ctx) {
      const session = sessionOf(ctx)
      const id = idOf(ctx.input)
      return ctx.inTenant(async (trx) => {
        const row = await findRow(trx, entity, session, tenantToday(ctx.request.tenant), id)
        if (row.validTo < tenantToday(ctx.request.tenant)) return { allowed: false, reason: 'error.340001' }
        const ok = states.transitions.reapply?.from.includes(row.state) ?? false
        return { allowed: ok, reason: ok ? null : 'error.320001' }
      })
    },

    async spaReapply(ctx) {
      const input = ctx.input as SpaInput
      const target = positivePrice(input.targetPrice, 'targetPrice')
      return fire(
        ctx,
        input,
        'reapply',
        (row) => {
          if (row.validTo < tenantToday(ctx.request.tenant)) throw new ApiError('340001')
          return { target_price: target, counter_price: null, approved_price: null }
        },
        () => ({ action: 'reapply', price: target }),
      )
    },
  }
}
