import type { ManifestEndpoint } from '../../model/resolve.ts'
import type { Session } from './context.ts'
import { ApiError, isErrorCode } from './errors.ts'

/**
 * The access rule of every endpoint, from the manifest: public ones answer anyone; the rest need a
 * session (else HTTP 401) and, when they name permissions, at least one of them (else their `refusal`, where the
 * SPEC names one: orderAdd's 360002; else 220000).
 * The portal hiding a button is never the only guard.
 */
export function checkAccess(
  endpoint: Pick<ManifestEndpoint, 'public' | 'permissions' | 'sessionOnly' | 'refusal'>,
  session: Session | null,
): void {
  if (endpoint.sessionOnly && session?.apiKeyId !== undefined) throw new SessionOnly()
  if (endpoint.public) return
  if (!session) throw new ApiError('401')
  if (endpoint.permissions.length && !endpoint.permissions.some((p) => session.permissions.has(p))) {
    throw new ApiError(endpoint.refusal && isErrorCode(endpoint.refusal) ? endpoint.refusal : '220000')
  }
}

/** 220000 (HTTP 403) with its own message: a call a signed-in user must make, not an API key (issue #29). */
export class SessionOnly extends ApiError {
  constructor() {
    super('220000')
  }
  override get key(): string {
    return 'apiKey.sessionOnly'
  }
}

export function hasPermission(session: Session | null, permission: string): boolean {
  return !!session?.permissions.has(permission)
}
