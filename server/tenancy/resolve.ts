import type { Kysely } from 'kysely'
import type { DB } from '../db/schema.ts'

export interface Tenant {
  id: number
  code: string
  nameZh: string
  nameEn: string
  version: string
  settings: Record<string, unknown>
  /** 1 live; 0 suspended: every call but health answers 110001 and every page says so (issue #25). */
  state: number
  /** The platform's own tenant (walltechAdmin counts only here). */
  platform: boolean
}

/**
 * Every resolver of this process, so a tenant the platform makes or changes is seen at once (forgetTenantHosts);
 * held weakly, so an app that is closed (tests build many) takes its resolver and database with it.
 */
const resolvers = new Set<WeakRef<TenantResolver>>()

/**
 * Forgets every cached host of this process — a tenant made, suspended or its settings saved (/operationSet) is
 * read again on the next request; other replicas see the change within their cache's 30 s.
 */
export function forgetTenantHosts(): void {
  for (const ref of resolvers) {
    const resolver = ref.deref()
    if (resolver) resolver.forget()
    else resolvers.delete(ref)
  }
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
    resolvers.add(new WeakRef(this))
  }

  async byHost(hostHeader: string | undefined): Promise<Tenant | null> {
    const host = (hostHeader ?? '')
      .toLowerCase()
      .replace(/:\d+$/, '')
      .replace(/^\[|\]$/g, '')
    const hit = this.cache.get(host)
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.tenant
    // A suspended tenant still resolves (its host answers "suspended", not "no such site").
    const row = await this.db
      .selectFrom('tenant_domain')
      .innerJoin('tenant', 'tenant.id', 'tenant_domain.tenant_id')
      .select([
        'tenant.id',
        'tenant.code',
        'tenant.name_zh',
        'tenant.name_en',
        'tenant.version',
        'tenant.settings',
        'tenant.state',
        'tenant.platform',
      ])
      .where('tenant_domain.domain', '=', host)
      .executeTakeFirst()
    const tenant = row
      ? {
          id: row.id,
          code: row.code,
          nameZh: row.name_zh,
          nameEn: row.name_en,
          version: row.version,
          settings: row.settings,
          state: row.state,
          platform: row.platform,
        }
      : null
    this.cache.set(host, { tenant, at: Date.now() })
    return tenant
  }

  forget() {
    this.cache.clear()
  }
}
