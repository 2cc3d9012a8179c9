import { sql, type Transaction } from 'kysely'
import type { ApiKeySecret, ApiKeyView } from '../../../generated/content.ts'
import type { ManifestEndpoint } from '../../../model/resolve.ts'
import { newApiKey } from '../../auth/apiKeys.ts'
import type { DB } from '../../db/schema.ts'
import { type ListPlan, parseListRequest, planList } from '../../engine/index.ts'
import { type HandlerContext, type Session, sessionOf } from '../../http/context.ts'
import type { Handlers } from '../../http/endpoints.ts'
import { ApiError } from '../../http/errors.ts'
import { loadManifest } from '../../manifest.ts'

/**
 * The API keys' own calls (issue #29; screens/apiKeys.yaml, /apiKeys and /tenantApiKeys). Whose keys a caller keeps
 * follows from who they are: an enterprise user with enterpriseApiKeys keeps their enterprise's, an operator with
 * tenantApiKeys the tenant's own (company_id null). Every call is sessionOnly in the YAML: a key cannot make,
 * rotate or revoke keys. Scopes are the maker's permissions at the time, never more; the secret is answered
 * only by create and rotate, and stored as its SHA-256 (server/auth/apiKeys.ts).
 */

/** SPEC §6: company user type 1 is the provider side, 2 the enterprise side. */
const PROVIDER = 1
const ENTERPRISE = 2
const DAY_MS = 24 * 60 * 60 * 1000

type Owner = { companyId: number | null }

function ownerOf(session: Session): Owner {
  if (
    session.companyUserType === ENTERPRISE &&
    session.companyId !== null &&
    session.permissions.has('enterpriseApiKeys')
  )
    return { companyId: session.companyId }
  if (session.companyUserType === PROVIDER && session.permissions.has('tenantApiKeys')) return { companyId: null }
  throw new ApiError('220000')
}

const invalid = (field: string, message: string, params: Record<string, unknown> = {}) =>
  new ApiError('validation', {}, [{ field, message, params }])

interface KeyRow {
  id: number
  name: string
  prefix: string
  scopes: string[]
  owner: string | null
  created_by: string
  created_at: Date
  last_used_at: Date | null
  expires_at: Date | null
  revoked: boolean
  expired: boolean
}

function toView(row: KeyRow, tenantName: string): ApiKeyView {
  return {
    id: row.id,
    version: 1,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    owner: row.owner ?? tenantName,
    createdBy: row.created_by,
    createdAt: new Date(row.created_at).toISOString(),
    ...(row.last_used_at ? { lastUsedAt: new Date(row.last_used_at).toISOString() } : {}),
    ...(row.expires_at ? { expiresAt: new Date(row.expires_at).toISOString() } : {}),
    revoked: row.revoked,
    state: row.revoked ? 'revoked' : row.expired ? 'expired' : 'active',
  }
}

/** The owner's keys, newest first (one key with `id`); never the secret nor its hash. */
function ownersKeys(trx: Transaction<DB>, tenantId: number, owner: Owner) {
  return trx
    .selectFrom('api_key as k')
    .innerJoin('app_user as u', 'u.id', 'k.user_id')
    .leftJoin('company as c', 'c.id', 'k.company_id')
    .select([
      'k.id',
      'k.name',
      'k.prefix',
      'k.scopes',
      'c.name as owner',
      'u.real_name as created_by',
      'k.created_at',
      'k.last_used_at',
      'k.expires_at',
      sql<boolean>`k.revoked_at is not null`.as('revoked'),
      sql<boolean>`coalesce(k.expires_at <= now(), false)`.as('expired'),
    ])
    .where('k.tenant_id', '=', tenantId)
    .where((eb) =>
      owner.companyId === null ? eb('k.company_id', 'is', null) : eb('k.company_id', '=', owner.companyId),
    )
}

async function keyOf(trx: Transaction<DB>, tenantId: number, owner: Owner, id: number): Promise<KeyRow> {
  const row = await ownersKeys(trx, tenantId, owner).where('k.id', '=', id).executeTakeFirst()
  // Another owner's key is no key of this caller's: 404, never which.
  if (!row) throw new ApiError('404')
  return row
}

let plan: ListPlan | undefined
function listPlanOf(endpoint: ManifestEndpoint): ListPlan {
  if (!plan) {
    const manifest = loadManifest()
    const entity = manifest.entities.apiKeyView
    if (!entity) throw new Error('the manifest has no entity apiKeyView: run npm run generate')
    plan = planList(manifest, { ...endpoint, search: [] }, entity)
  }
  return plan
}

const tenantNameOf = (ctx: HandlerContext) =>
  ctx.request.language === 'zh' ? ctx.request.tenant.nameZh : ctx.request.tenant.nameEn

export const apiKeyHandlers = {
  /** POST /b2b/apiKey/page: the caller's enterprise's or tenant's keys, newest first. */
  async apiKeyPage(ctx) {
    const session = sessionOf(ctx)
    const owner = ownerOf(session)
    const request = parseListRequest(listPlanOf(ctx.endpoint), ctx.input)
    return ctx.inTenant(async (trx) => {
      const rows = await ownersKeys(trx, session.tenantId, owner)
        .orderBy('k.id', 'desc')
        .limit(request.pageSize)
        .offset((request.pageNum - 1) * request.pageSize)
        .execute()
      const counted = await trx
        .selectFrom('api_key')
        .select(sql<number>`count(*)::int`.as('total'))
        .where('tenant_id', '=', session.tenantId)
        .where((eb) =>
          owner.companyId === null ? eb('company_id', 'is', null) : eb('company_id', '=', owner.companyId),
        )
        .executeTakeFirstOrThrow()
      return {
        list: rows.map((row) => toView(row, tenantNameOf(ctx))),
        total: Number(counted.total),
        pageNum: request.pageNum,
        pageSize: request.pageSize,
      }
    })
  },

  /** POST /b2b/apiKey/create: a key with scopes the maker holds; its secret, answered this once. */
  async apiKeyCreate(ctx) {
    const session = sessionOf(ctx)
    const owner = ownerOf(session)
    const scopes = [...new Set(ctx.input.scopes)].sort()
    if (!scopes.length) throw invalid('scopes', 'validation.required')
    const notHeld = scopes.find((scope) => !session.permissions.has(scope))
    if (notHeld) throw invalid('scopes', 'apiKey.scopeNotHeld', { permission: notHeld })
    const key = newApiKey()
    const expiresAt = ctx.input.expiresInDays ? new Date(Date.now() + ctx.input.expiresInDays * DAY_MS) : null
    const row = await ctx.inTenant((trx) =>
      trx
        .insertInto('api_key')
        .values({
          tenant_id: session.tenantId,
          company_id: owner.companyId,
          user_id: session.userId,
          name: ctx.input.name.trim(),
          prefix: key.prefix,
          secret_hash: key.hash,
          scopes: JSON.stringify(scopes),
          expires_at: expiresAt,
        })
        .returning('id')
        .executeTakeFirstOrThrow(),
    )
    return { id: row.id, prefix: key.prefix, secret: key.secret } satisfies ApiKeySecret
  },

  /** POST /b2b/apiKey/rotate: a new secret for a live key; the old one stops at once. */
  async apiKeyRotate(ctx) {
    const session = sessionOf(ctx)
    const owner = ownerOf(session)
    const key = newApiKey()
    await ctx.inTenant(async (trx) => {
      const row = await keyOf(trx, session.tenantId, owner, ctx.input.id)
      if (row.revoked || row.expired) throw invalid('id', 'apiKey.notLive')
      await trx
        .updateTable('api_key')
        .set({ secret_hash: key.hash, prefix: key.prefix, rotated_at: sql<Date>`now()` })
        .where('tenant_id', '=', session.tenantId)
        .where('id', '=', ctx.input.id)
        .execute()
    })
    return { id: ctx.input.id, prefix: key.prefix, secret: key.secret } satisfies ApiKeySecret
  },

  /** POST /b2b/apiKey/revoke: for good; a call with the key answers 401 from now on. */
  async apiKeyRevoke(ctx) {
    const session = sessionOf(ctx)
    const owner = ownerOf(session)
    return ctx.inTenant(async (trx) => {
      await keyOf(trx, session.tenantId, owner, ctx.input.id)
      await trx
        .updateTable('api_key')
        .set({ revoked_at: sql<Date>`coalesce(revoked_at, now())`, revoked_by: session.userId })
        .where('tenant_id', '=', session.tenantId)
        .where('id', '=', ctx.input.id)
        .execute()
      return toView(await keyOf(trx, session.tenantId, owner, ctx.input.id), tenantNameOf(ctx))
    })
  },
} satisfies Handlers
