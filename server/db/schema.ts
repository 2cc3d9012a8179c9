import type { ColumnType, Generated } from 'kysely'

/** Tables the hand-written server code touches. Entity tables from schemas/ are reached through the engine. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>
type Json<T = unknown> = ColumnType<T, string, string>

export interface TenantTable {
  id: Generated<number>
  code: string
  name_zh: string
  name_en: string
  version: 'flagship' | 'standard' | 'basic'
  /** The site settings of SPEC §3, one JSON document validated by schemas/siteSettings.yaml. */
  settings: Json<Record<string, unknown>>
  state: Generated<number>
  created_at: Generated<Timestamp>
  updated_at: Generated<Timestamp>
}

export interface TenantDomainTable {
  domain: string
  tenant_id: number
}

export interface CompanyTable {
  id: Generated<number>
  tenant_id: number
  name: string
  name_en: string | null
  /** 1 provider (the forwarder itself), 2 customer enterprise. */
  company_type: number
  created_at: Generated<Timestamp>
}

export interface UserTable {
  id: Generated<number>
  tenant_id: number
  company_id: number | null
  username: string
  real_name: string
  email: string | null
  mobile: string | null
  password_hash: string
  /** SPEC §6: 1 provider side, 2 enterprise side, 3 the order-list-only user. */
  company_user_type: number
  state: Generated<number>
  created_at: Generated<Timestamp>
  last_login_at: Timestamp | null
}

export interface RoleTable {
  id: Generated<number>
  tenant_id: number
  code: string
  name: string
  preset: boolean
  data_scope: 'all' | 'self'
  permissions: Json<string[]>
  status: Generated<number>
}

export interface UserRoleTable {
  tenant_id: number
  user_id: number
  role_id: number
}

export interface DB {
  tenant: TenantTable
  tenant_domain: TenantDomainTable
  company: CompanyTable
  app_user: UserTable
  role: RoleTable
  user_role: UserRoleTable
}
