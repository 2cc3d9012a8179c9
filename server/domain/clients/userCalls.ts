import { sql } from 'kysely'
import { normaliseTarget } from '../../auth/codes.ts'
import { sessionOf } from '../../http/context.ts'
import type { Handlers } from '../../http/endpoints.ts'
import { ApiError } from '../../http/errors.ts'
import { parseId } from '../../http/ids.ts'

/**
 * SPEC §7's user calls of issue #21 (screens/account.yaml): an enterprise's accounts, the services a user
 * remembers, the display currency and the price-alert e-mail. Each reads and writes the caller's own rows
 * in their tenant transaction; the bodies were checked by their YAML entities before these run.
 */

const PROVIDER = 1
/** The user_setting row of the remembered services (server/domain/accounts/settings.ts keeps its kin). */
const REMEMBERED = 'rememberServices'
const SERVICES = [
  'needPickUp',
  'deliveryToConsignee',
  'collectWarehouse',
  'warehouseServices',
  'customsDeclaration',
  'insurance',
  'unloadingWarehouse',
] as const

/** What the user ticked, as stored: only the services the body names (the validator refused any other). */
const servicesOf = (value: unknown): Record<string, unknown> => {
  const source = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
  return Object.fromEntries(
    SERVICES.filter((name) => source[name] !== undefined && source[name] !== null).map((name) => [name, source[name]]),
  )
}

export const userCallHandlers = {
  /**
   * GET /b2b/user/getUsersByCompanyId?companyId=: the enabled accounts of an enterprise. An enterprise user
   * may name only their own (another answers 404, as a missing one); an operator any customer enterprise of
   * the tenant. Plain JSON over TLS (docs/DECISIONS.md: a key shipped to the browser would protect nothing).
   */
  async getUsersByCompanyId(ctx) {
    const session = sessionOf(ctx)
    const asked = ctx.input.companyId === undefined ? undefined : parseId(ctx.input.companyId, 'companyId')
    const provider = session.companyUserType === PROVIDER
    const companyId = asked ?? (provider ? undefined : (session.companyId ?? undefined))
    if (companyId === undefined) {
      if (provider)
        throw new ApiError('validation', {}, [{ field: 'companyId', message: 'validation.required', params: {} }])
      return []
    }
    if (!provider && companyId !== session.companyId) throw new ApiError('404')
    return ctx.inTenant(async (trx) => {
      const company = await trx
        .selectFrom('company')
        .select('id')
        .where('tenant_id', '=', session.tenantId)
        .where('id', '=', companyId)
        .where('company_type', '=', 2)
        .executeTakeFirst()
      if (!company) throw new ApiError('404')
      const rows = await trx
        .selectFrom('app_user')
        .select(['id', 'real_name', 'email', 'mobile'])
        .where('tenant_id', '=', session.tenantId)
        .where('company_id', '=', companyId)
        .where('state', '=', 1)
        .orderBy('id')
        .execute()
      return rows.map((row) => ({ id: row.id, realName: row.real_name, email: row.email, mobile: row.mobile }))
    })
  },

  /** GET /b2b/user/getRememberServices: the caller's remembered services ({} when never saved). */
  async getRememberServices(ctx) {
    const session = sessionOf(ctx)
    const row = await ctx.inTenant((trx) =>
      trx
        .selectFrom('user_setting')
        .select('value')
        .where('tenant_id', '=', session.tenantId)
        .where('user_id', '=', session.userId)
        .where('name', '=', REMEMBERED)
        .executeTakeFirst(),
    )
    return servicesOf(row?.value)
  },

  /** POST /b2b/user/changeRememberServices: remember what the caller ticked (replacing what was there). */
  async changeRememberServices(ctx) {
    const session = sessionOf(ctx)
    const services = servicesOf(ctx.input)
    await ctx.inTenant((trx) =>
      trx
        .insertInto('user_setting')
        .values({
          tenant_id: session.tenantId,
          user_id: session.userId,
          name: REMEMBERED,
          value: JSON.stringify(services),
        })
        .onConflict((oc) =>
          oc
            .columns(['tenant_id', 'user_id', 'name'])
            .doUpdateSet({ value: JSON.stringify(services), updated_at: sql<Date>`now()` }),
        )
        .execute(),
    )
    return services
  },

  /** POST /b2b/user/change/individuationCurrency: `{ individuationCurrency }` → `{ state: true }`. */
  async changeIndividuationCurrency(ctx) {
    const session = sessionOf(ctx)
    const currency = ctx.input.individuationCurrency
    if (!currency)
      throw new ApiError('validation', {}, [
        { field: 'individuationCurrency', message: 'validation.required', params: {} },
      ])
    await ctx.inTenant((trx) =>
      trx
        .updateTable('app_user')
        .set({ individuation_currency: currency, version: sql<number>`version + 1`, updated_at: sql<Date>`now()` })
        .where('tenant_id', '=', session.tenantId)
        .where('id', '=', session.userId)
        .execute(),
    )
    return { state: true }
  },

  /** POST /b2b/user/change/pricePushEmail: `{ pricePushEmail }` → `{ state: true }`. */
  async changePricePushEmail(ctx) {
    const session = sessionOf(ctx)
    const email = normaliseTarget(ctx.input.pricePushEmail)
    await ctx.inTenant((trx) =>
      trx
        .updateTable('app_user')
        .set({ price_push_email: email, version: sql<number>`version + 1`, updated_at: sql<Date>`now()` })
        .where('tenant_id', '=', session.tenantId)
        .where('id', '=', session.userId)
        .execute(),
    )
    return { state: true }
  },
} satisfies Handlers
