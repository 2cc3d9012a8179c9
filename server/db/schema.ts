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
  /** 1 live, 0 suspended by the platform (its sign-ins and public site refused, its data kept). */
  state: Generated<number>
  /** The platform's own tenant: its walltechAdmin holders administer every tenant (issue #25). */
  platform: Generated<boolean>
  /** Bumped by every platform change (optimistic locking of /tenantDetail). */
  version_no: Generated<number>
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
  /** Since migration 0016 an engine table: the system columns, and the fields of schemas/company.yaml. */
  version: Generated<number>
  updated_at: Generated<Timestamp>
  created_by: number | null
  enterprise_type: number | null
  certificate_type: number | null
  unique_number: string | null
  registered_capital: string | null
  founding_date: string | null
  corporate_name: string | null
  contact_name: string | null
  contact_mobile: string | null
  contact_email: string | null
  address: string | null
  /** jsonb: the stored file ids. */
  certificate_files: unknown | null
  business_start_date: string | null
  business_end_date: string | null
  origin: number | null
  inviter: number | null
  fba_status: number | null
  /** When the enterprise asked for the FBA service (migration 0029). */
  fba_applied_at: Timestamp | null
  fba_apply_note: string | null
  sales_branch: number | null
  salesman: number | null
  /** The services enabled for the enterprise (/clientEnterpriseService); null: never set, off. */
  online_booking: boolean | null
  im_service: boolean | null
  /** The name the enterprise's users appear under in the chat (migration 0031); null: the company's name. */
  im_display_name: string | null
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
  // Migration 0004: the profile (userProfile) and operation-account (operationAccount) fields.
  qq: ColumnType<string | null, string | null | undefined, string | null>
  /** The uploaded avatar's file reference. */
  avatar: ColumnType<string | null, string | null | undefined, string | null>
  /** zh, en, ja or es: the interface language the user chose. */
  language: ColumnType<string | null, string | null | undefined, string | null>
  /** The ISO 4217 code of the currency the user prefers prices shown in. */
  individuation_currency: ColumnType<string | null, string | null | undefined, string | null>
  /** Optimistic concurrency: every change adds one; a change at a stale version answers 330002. */
  version: Generated<number>
  /** Defaults to now() on insert (Timestamp allows leaving it out); handlers set it on each change. */
  updated_at: Timestamp
  // Migration 0017: how the account came (0 registered, 1 invited, 2 created by an operator), its inviter,
  // and where price-watch alerts go.
  origin: Generated<number>
  inviter_id: ColumnType<number | null, number | null | undefined, number | null>
  price_push_email: ColumnType<string | null, string | null | undefined, string | null>
  /** Migration 0021: the user's openid under the tenant's WeChat official account (bound there). */
  wechat_openid: ColumnType<string | null, string | null | undefined, string | null>
  /** Migration 0034: the user's country or region (ref_country's code), and how they registered (mobile, invitation…). */
  region: ColumnType<string | null, string | null | undefined, string | null>
  register_channel: ColumnType<string | null, string | null | undefined, string | null>
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
  /** 1 the operator side, 2 the client enterprises' (migration 0019). */
  company_user_type: Generated<number>
  group_id: number | null
  branch: string | null
  personalization: string | null
  version: Generated<number>
  created_at: Generated<Timestamp>
  updated_at: Generated<Timestamp>
}

export interface UserRoleTable {
  tenant_id: number
  user_id: number
  role_id: number
}

export interface SessionTable {
  tenant_id: number
  id: Generated<number>
  user_id: number
  /** sha256 of the token, hex: the token itself is never stored. */
  token_hash: string
  created_at: Timestamp
  expires_at: Timestamp
  revoked_at: Timestamp | null
  last_seen_at: Timestamp
  user_agent: string | null
  ip: string | null
}

export interface VerificationCodeTable {
  tenant_id: number
  id: Generated<number>
  channel: 'sms' | 'email'
  /** The mobile number or the lower-cased e-mail address the code went to. */
  target: string
  purpose: 'login' | 'reset' | 'bind' | 'register'
  user_id: number | null
  /** HMAC-SHA256 of the code with the server secret: the code is in clear only in the outbox message. */
  code_hash: string
  attempts: Generated<number>
  created_at: Timestamp
  expires_at: Timestamp
  used_at: Timestamp | null
  ip: string | null
}

export interface LoginFailureTable {
  tenant_id: number
  /** The account's user name (lower case), or what was typed when no account matched. */
  username: string
  at: Timestamp
  ip: string | null
}

/** Short-lived single-use values: the ?token= handoff (60 s) and the password reset ticket (10 min). */
export interface AuthTicketTable {
  tenant_id: number
  id: Generated<number>
  kind: 'handoff' | 'reset'
  user_id: number
  token_hash: string
  created_at: Timestamp
  expires_at: Timestamp
  used_at: Timestamp | null
}

/** Side effects (SMS, mail…) written in the same transaction as the change, delivered later by a worker. */
export interface OutboxTable {
  tenant_id: number
  id: Generated<number>
  kind: string
  payload: Json<Record<string, unknown>>
  created_at: Timestamp
  sent_at: Timestamp | null
  attempts: Generated<number>
  last_error: string | null
  /** Migration 0020: when the worker may try it (again), its lease, and a final failure. */
  next_attempt_at: Generated<Timestamp>
  leased_until: Timestamp | null
  failed_at: Timestamp | null
}

/** One saved version of a tenant's overlay of one screen (migration 0005); the newest is in force. */
export interface ScreenOverlayTable {
  tenant_id: number
  id: Generated<number>
  screen: string
  version: number
  source: string
  document: Json<Record<string, unknown>>
  rolled_back_from: number | null
  created_by: number | null
  created_at: Generated<Timestamp>
}

/** A user's own setting (migration 0008), e.g. `listColumns:orderList`. */
export interface UserSettingTable {
  tenant_id: number
  user_id: number
  name: string
  value: Json<unknown>
  updated_at: Generated<Timestamp>
}

/** One cargo-tracking search (migration 0009): the per-IP rate limit and the visitor allowance count these. */
export interface TrackingLookupTable {
  tenant_id: number
  id: Generated<number>
  ip: string
  /** The signed-in caller, or null for a visitor (only visitors spend the allowance). */
  user_id: number | null
  /** How many numbers the search asked for. */
  numbers: number
  at: Timestamp
}

type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>

/** Engine storage of schemas/shipment.yaml (created by syncEntityTables), as the tracking calls read it. */
export interface ShipmentTable {
  tenant_id: number
  id: Generated<number>
  version: Generated<number>
  created_at: Timestamp
  updated_at: Timestamp
  created_by: number | null
  booking_order: number | null
  transport_mode: number
  bl_no: string | null
  hbl: string | null
  mawb: string | null
  containers: ColumnType<
    { containerNo: string; sizeType?: string; sealNo?: string }[] | null,
    string | null | undefined,
    string | null
  >
  carrier: string | null
  vessel: string | null
  voyage: string | null
  pol: string
  pod: string
  origin_airport: string | null
  destination_airport: string | null
  etd: NullableTimestamp
  eta: NullableTimestamp
  atd: NullableTimestamp
  ata: NullableTimestamp
  cancelled: boolean | null
  customer_company: number | null
}

/** Engine storage of schemas/trackingEvent.yaml: DCSA Track & Trace events, never updated. */
export interface TrackingEventTable {
  tenant_id: number
  id: Generated<number>
  version: Generated<number>
  created_at: Timestamp
  updated_at: Timestamp
  created_by: number | null
  shipment: number
  event_type: 'SHIPMENT' | 'TRANSPORT' | 'EQUIPMENT'
  event_classifier_code: 'ACT' | 'PLN' | 'EST'
  event_date_time: Timestamp
  event_created_date_time: Timestamp
  shipment_event_type_code: string | null
  document_type_code: string | null
  transport_event_type_code: string | null
  equipment_event_type_code: string | null
  equipment_reference: string | null
  empty_indicator_code: string | null
  un_location_code: string | null
  vessel_name: string | null
  carrier_voyage_number: string | null
  corrects_event: number | null
  remark: string | null
}

/** Migration 0035: shareable tracking links, by the hash of their token (server/domain/tracking/links.ts). */
export interface TrackingLinkTable {
  tenant_id: number
  id: Generated<number>
  token_hash: string
  shipment: number
  company: number | null
  created_by: number | null
  created_at: Timestamp
  expires_at: Timestamp
  revoked_at: NullableTimestamp
}

/** Migration 0034: DCSA Track & Trace event subscriptions (server/domain/dcsa/tnt.ts). */
export interface DcsaEventSubscriptionTable {
  tenant_id: number
  id: string
  company: number | null
  created_by: number | null
  callback_url: string
  secret: string
  filters: ColumnType<Record<string, unknown>, string, string>
  created_at: Timestamp
  updated_at: Timestamp
  /** Migration 0043: its number in the portal (the engine's integer id); the standard's id stays `id`. */
  seq: Generated<number>
}

/** Migration 0043: one notification of a DCSA event subscription, its body as sent (server/domain/dcsa/tntNotifications.ts). */
export interface DcsaNotificationTable {
  tenant_id: number
  id: Generated<number>
  version: Generated<number>
  created_at: Generated<Timestamp>
  updated_at: Generated<Timestamp>
  created_by: number | null
  subscription: string
  body: string
  event_count: number
  outbox_id: number | null
  attempts: Generated<number>
  last_status: number | null
  last_attempt_at: NullableTimestamp
}

/** Migration 0025: the (subscription, tracking event) pairs already told (server/domain/tracking/subscriptions.ts). */
export interface ShipmentNoticeTable {
  tenant_id: number
  subscription: number
  event: number
  at: Generated<Timestamp>
}

/** Migration 0021: a tenant's SMS and WeChat settings (server/jobs/providers/settings.ts). */
export interface TenantMessagingTable {
  tenant_id: number
  settings: ColumnType<Record<string, unknown>, string, string>
  sms_secret_sealed: string | null
  wechat_secret_sealed: string | null
  version: Generated<number>
  updated_at: Generated<Timestamp>
}

/** An API key (migration 0034): only the secret's SHA-256 is kept; the rate bucket lives on the row. */
export interface ApiKeyTable {
  tenant_id: number
  id: Generated<number>
  /** The owning enterprise; null for the tenant's own key (an operation administrator's). */
  company_id: number | null
  /** The user the key acts as: its permissions are its scopes that this user still holds. */
  user_id: number
  name: string
  prefix: string
  secret_hash: string
  scopes: Json<string[]>
  created_at: Timestamp
  rotated_at: Timestamp | null
  last_used_at: Timestamp | null
  expires_at: Timestamp | null
  revoked_at: Timestamp | null
  revoked_by: number | null
  bucket_tokens: number | null
  bucket_at: Timestamp | null
}

export interface DB {
  tenant: TenantTable
  api_key: ApiKeyTable
  tenant_domain: TenantDomainTable
  company: CompanyTable
  app_user: UserTable
  role: RoleTable
  user_role: UserRoleTable
  session: SessionTable
  verification_code: VerificationCodeTable
  login_failure: LoginFailureTable
  auth_ticket: AuthTicketTable
  outbox: OutboxTable
  screen_overlay: ScreenOverlayTable
  user_setting: UserSettingTable
  tracking_lookup: TrackingLookupTable
  shipment: ShipmentTable
  tracking_event: TrackingEventTable
  tenant_messaging: TenantMessagingTable
  shipment_notice: ShipmentNoticeTable
  dcsa_event_subscription: DcsaEventSubscriptionTable
  dcsa_notification: DcsaNotificationTable
  tracking_link: TrackingLinkTable
}
