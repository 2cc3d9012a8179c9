import type { Session } from '../http/context.ts'
import type { Language } from '../http/errors.ts'
import type { EndpointOverlay } from '../overlays/enforce.ts'

/** A row as the API answers it (camelCase fields, money as text, instants as ISO text). */
export type ApiRow = Record<string, unknown>

/** Who calls, for which tenant, in which language (CSV headers). */
export interface EngineCall {
  tenantId: number
  session: Session
  language?: Language
  /** The tenant's overlays of the screens that bind the endpoint (server/overlays/enforce.ts). */
  overlay?: EndpointOverlay
  /** The tenant's site settings, for the YAML's `{ setting: … }` rules (feature flags); absent: every flag off. */
  settings?: Readonly<Record<string, unknown>>
}
