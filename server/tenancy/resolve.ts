import type { Kysely } from 'kysely'
import type { DB } from '../db/schema.ts'

export interface Tenant {
  id: number
  code: string
  nameZh: string
  nameEn: string
  version: string
  settings: Record<string, unknown>
}

/** Every resolver of this process, so a settings change is seen on the next request (see forgetTenants). */
const resolvers = new Set<TenantResolver>()

/**
 * A tenant's settings changed (/operationSet, issue #25): this process's resolvers read every tenant again on
 * their next request. Other replicas see it when their entries expire (30 s).
 */
export function forgetTenants(): void {
  for (const resolver of resolvers) resolver.forget()
}

/**
 * The tenant of a request comes from its host name (SPEC: each tenant has its own domain);
 * `localhost` is the demo tenant. Domains are cached for a short while: they change rarely.
 */
export class TenantResolver {
  private cache = new Map<string, { tenant: Tenant | null; at: number }>()
  constructor(
    private db: Kysely<DB>,
    private ttlMs = 30_000,
  ) {
    resolvers.add(this)
  }

  async byHost(hostHeader: string | undefined): Promise<Tenant | null> {
    const host = (hostHeader ?? '')
      .toLowerCase()
      .replace(/:\d+$/, '')
      .replace(/^\[|\]$/g, '')
    const hit = this.cache.get(host)
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.tenant
    const row = await this.db
      .selectFrom('tenant_domain')
      .innerJoin('tenant', 'tenant.id', 'tenant_domain.tenant_id')
      .select(['tenant.id', 'tenant.code', 'tenant.name_zh', 'tenant.name_en', 'tenant.version', 'tenant.settings'])
      .where('tenant_domain.domain', '=', host)
      .where('tenant.state', '=', 1)
      .executeTakeFirst()
    const tenant = row
      ? {
          id: row.id,
          code: row.code,
          nameZh: row.name_zh,
          nameEn: row.name_en,
          version: row.version,
          settings: row.settings,
        }
      : null
    this.cache.set(host, { tenant, at: Date.now() })
    return tenant
  }

  forget() {
    this.cache.clear()
  }
}
