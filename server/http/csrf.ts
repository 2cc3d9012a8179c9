import type { FastifyRequest } from 'fastify'
import { SESSION_COOKIE } from '../auth/tokens.ts'
import { ApiError } from './errors.ts'

/**
 * Cross-site request forgery (issue #17, finding 7). The portal sends `Resource: 1` on every call (SPEC §7
 * names the header; runtime/api.ts and runtime/widgets/fileTransfer.ts). Another site cannot make a browser
 * send it: a form, a link or an image sends no custom header, and a script's cross-origin fetch with one
 * needs a CORS preflight this server never grants. So a call a browser's cookie alone would authorise must
 * carry it:
 *   - every state-changing call (anything but GET, HEAD, OPTIONS), and logout (a GET in SPEC §7), that
 *     presents the b2b_token cookie;
 *   - the sign-in calls, which set that cookie (login CSRF: signing a victim into the attacker's account).
 * A call with an API key (issue #29) never comes here: it may carry no session cookie at all
 * (server/auth/apiKeys.ts), so there is nothing ambient to forge with.
 * A call with an `Authorization` header is not forgeable that way (a browser adds none across sites, and
 * the header decides the session, ./../auth/tokens.ts) and needs nothing more: API clients, tests.
 *
 * A beacon (`navigator.sendBeacon`, the page-visit batch posted as a page is left, issue #28) cannot carry the
 * header. Its call is never refused, but its cookie's session is believed only when the browser itself says the
 * request is same-origin (`Sec-Fetch-Site`, a header no script can set); otherwise it counts as a visitor's.
 */
export const CSRF_HEADER = 'resource'
export const CSRF_VALUE = '1'

/** 220000 (HTTP 403) with its own message: the call did not come from the portal. */
export class CrossSiteRefused extends ApiError {
  constructor() {
    super('220000')
  }
  override get key(): string {
    return 'error.crossSite'
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

export interface CsrfPaths {
  /** GET calls that change state all the same (logout), as /api paths. */
  stateChangingGets: ReadonlySet<string>
  /** Calls that open a session and set the cookie, as /api paths. */
  signIns: ReadonlySet<string>
  /** Calls a beacon makes (no header possible), as /api paths: answered, with the session only if same-origin. */
  beacons?: ReadonlySet<string>
}

/**
 * Throws CrossSiteRefused when the request needs the header and lacks it. Answers whether the session cookie
 * may stand for the caller (false only for a beacon the browser does not vouch for).
 */
export function checkCrossSite(request: FastifyRequest, paths: CsrfPaths): boolean {
  if (request.headers.authorization !== undefined) return true
  if (request.headers[CSRF_HEADER] === CSRF_VALUE) return true
  const path = request.url.split('?')[0] ?? ''
  if (paths.beacons?.has(path)) return request.headers['sec-fetch-site'] === 'same-origin'
  if (paths.signIns.has(path)) throw new CrossSiteRefused()
  const changes = !SAFE_METHODS.has(request.method) || paths.stateChangingGets.has(path)
  if (changes && request.cookies[SESSION_COOKIE] !== undefined) throw new CrossSiteRefused()
  return true
}
