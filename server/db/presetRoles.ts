import { type Kysely, sql, type Transaction } from 'kysely'
import type { Manifest } from '../../model/resolve.ts'
import { DEFAULT_LANGUAGE, LANGUAGES, type Language, messageFor } from '../http/errors.ts'
import { withTenant } from '../tenancy/scope.ts'
import type { DB } from './schema.ts'

/** A preset role's name as its tenant first reads it: the YAML's label (role.<code>) in the tenant's language. */
export function presetRoleName(role: Manifest['roles'][string], language: Language): string {
  return messageFor(role.label, language)
}

/** The language a tenant's own texts are written in: its configured default language, else Chinese (SPEC §9). */
export function tenantLanguageOf(settings: unknown): Language {
  const configuration = (settings as { configuration?: { defaultLanguage?: unknown } } | null)?.configuration
  const configured = String(configuration?.defaultLanguage ?? '')
  return (LANGUAGES as readonly string[]).includes(configured) ? (configured as Language) : DEFAULT_LANGUAGE
}

/**
 * One preset role of a tenant as the YAML has it (the demo seed's and the start-up sync's one writer), named by
 * its label in the tenant's language; the code stays the YAML's. A role the tenant made itself under that code
 * keeps it: the answer is then null.
 */
export async function insertPresetRole(
  trx: Transaction<DB>,
  tenantId: number,
  code: string,
  role: Manifest['roles'][string],
  language: Language,
): Promise<number | null> {
  const row = await trx
    .insertInto('role')
    .values({
      tenant_id: tenantId,
      code,
      name: presetRoleName(role, language),
      preset: true,
      company_user_type: role.companyUserType === 1 ? 1 : 2,
      data_scope: role.dataScope,
      permissions: JSON.stringify([...role.permissions].sort()),
    })
    .onConflict((conflict) => conflict.columns(['tenant_id', 'code']).doNothing())
    .returning('id')
    .executeTakeFirst()
  return row?.id ?? null
}

/**
 * The preset roles (screens' `roles:` in the YAML) as every tenant holds them, brought up to date at every
 * start: a permission added to a preset role in YAML reaches a database that already exists, and a preset
 * role new in YAML is created in every tenant. Idempotent; roles a tenant made itself (preset false) and
 * each role's name and status are left as the tenant set them. Answers how many rows it inserted or changed.
 */
export async function syncPresetRoles(db: Kysely<DB>, manifest: Manifest): Promise<number> {
  const tenants = await db.selectFrom('tenant').select(['id', 'settings']).execute()
  let changed = 0
  for (const tenant of tenants) {
    changed += await withTenant(db, tenant.id, async (trx) => {
      const rows = await trx
        .selectFrom('role')
        .select(['id', 'code', 'data_scope', 'permissions', 'company_user_type'])
        .where('tenant_id', '=', tenant.id)
        .where('preset', '=', true)
        .execute()
      const byCode = new Map(rows.map((row) => [row.code, row]))
      let n = 0
      for (const [code, role] of Object.entries(manifest.roles)) {
        const permissions = [...role.permissions].sort()
        const row = byCode.get(code)
        if (!row) {
          await insertPresetRole(trx, tenant.id, code, role, tenantLanguageOf(tenant.settings))
          n++
          continue
        }
        const held = [...((row.permissions as unknown as string[]) ?? [])].sort()
        const side = role.companyUserType === 1 ? 1 : 2
        if (
          row.data_scope === role.dataScope &&
          row.company_user_type === side &&
          JSON.stringify(held) === JSON.stringify(permissions)
        )
          continue
        await trx
          .updateTable('role')
          .set({
            data_scope: role.dataScope,
            company_user_type: side,
            permissions: sql`${JSON.stringify(permissions)}::jsonb` as never,
          })
          .where('tenant_id', '=', tenant.id)
          .where('id', '=', row.id)
          .execute()
        n++
      }
      return n
    })
  }
  return changed
}
