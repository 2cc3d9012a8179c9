import type { RouteEntry } from '../../generated/routes.ts'

/**
 * SPEC §2's routing rules as pure functions of (route, location, session, home mode): the route gate
 * (runtime/routing/RouteGate.tsx) only carries out what `decide` answers.
 */

export type RouteRule = Pick<RouteEntry, 'name' | 'path' | 'access' | 'permissions' | 'redirect'>

/** What the gate knows about the user. */
export type SessionView =
  | { status: 'loading' }
  | { status: 'anonymous' }
  | { status: 'error'; message?: string }
  | { status: 'user'; roles: readonly string[]; permissions: ReadonlySet<string> }

/** Why the user is sent elsewhere; each has a locale key in ui.json. */
export type Notice = 'pleaseLogin' | 'noRole' | 'loadFailed'

export type Decision =
  | { kind: 'render' }
  | { kind: 'wait' }
  | { kind: 'refuse' }
  | { kind: 'redirect'; to: string; notice?: Notice; resetSession?: boolean }

export const LOGIN_PATH = '/login'
export const NOT_FOUND_PATH = '/404'

/** SPEC §2 "Home mode": 1 shows the marketing home (/dashboard), 2 the inquiry home (/inquiryHome). */
export const HOME_MODE = { dashboard: 1, inquiryHome: 2 } as const

/** Does a user holding `permissions` hold any one of `needed` (none needed: anyone)? The rule of routes and calls. */
export function holdsAny(needed: readonly string[], permissions: ReadonlySet<string>): boolean {
  return needed.length === 0 || needed.some((permission) => permissions.has(permission))
}

/** May a user holding `permissions` open this route? Public and open routes need no permission. */
export function canOpen(route: Pick<RouteEntry, 'access' | 'permissions'>, permissions: ReadonlySet<string>): boolean {
  return route.access !== 'permission' || holdsAny(route.permissions, permissions)
}

/** `/login?redirect=<where the user wanted to go>`. */
export function loginPath(wanted?: string): string {
  if (!wanted || wanted === '/' || wanted.startsWith(LOGIN_PATH)) return LOGIN_PATH
  return `${LOGIN_PATH}?redirect=${encodeURIComponent(wanted)}`
}

/**
 * Where to go after logging in: the redirect parameter when it is a path of this site, else home.
 * Anything that could leave the site (`//host`, `/\host`, `https:`) or loop back to /login is refused.
 */
export function safeRedirect(raw: string | null | undefined, fallback = '/'): string {
  if (!raw?.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return fallback
  if (raw === LOGIN_PATH || raw.startsWith(`${LOGIN_PATH}?`) || raw.startsWith(`${LOGIN_PATH}/`)) return fallback
  return raw
}

/** A `?token=` handoff value on the address, and the search string without it (SPEC §2). */
export function takeHandoff(search: string): { token: string | null; rest: string } {
  const params = new URLSearchParams(search)
  const token = params.get('token')
  if (token === null) return { token: null, rest: search }
  params.delete('token')
  const rest = params.toString()
  return { token, rest: rest ? `?${rest}` : '' }
}

/** The path a `redirect: <route name>` entry leads to. */
export function pathOfRoute(routes: readonly Pick<RouteEntry, 'name' | 'path'>[], name: string): string | null {
  return routes.find((route) => route.name === name)?.path ?? null
}

export interface DecideInput {
  route: RouteRule
  /** pathname + search, as the user asked for it */
  location: string
  session: SessionView
  /** The tenant's home mode; undefined while site settings load, null when they could not be read. */
  homeMode: number | null | undefined
  /** Paths of named routes, for `redirect:` entries. */
  routes: readonly Pick<RouteEntry, 'name' | 'path'>[]
}

export function decide({ route, location, session, homeMode, routes }: DecideInput): Decision {
  const search = location.includes('?') ? location.slice(location.indexOf('?')) : ''

  if (route.redirect) {
    const to = pathOfRoute(routes, route.redirect)
    if (to && to !== route.path) return { kind: 'redirect', to: `${to}${search}` }
  }

  if (route.name === 'dashboard' || route.name === 'inquiryHome') {
    if (homeMode === undefined) return { kind: 'wait' }
    // /inquiryHome needs a login: a visitor keeps the public home rather than meeting the login wall.
    if (route.name === 'dashboard' && homeMode === HOME_MODE.inquiryHome) {
      if (session.status === 'loading') return { kind: 'wait' }
      if (session.status === 'user') return { kind: 'redirect', to: `/inquiryHome${search}` }
    }
    if (route.name === 'inquiryHome' && homeMode === HOME_MODE.dashboard) {
      return { kind: 'redirect', to: `/dashboard${search}` }
    }
  }

  // A logged-in user opening /login passes through; /login is also where the failures below end up.
  const onLogin = route.path === LOGIN_PATH
  if (!onLogin && session.status === 'user' && session.roles.length === 0) {
    return { kind: 'redirect', to: LOGIN_PATH, notice: 'noRole', resetSession: true }
  }
  if (route.access === 'public') return { kind: 'render' }
  // The cookie is HttpOnly, so the portal cannot tell a visitor from a user whose data failed to load;
  // public pages stay readable and the reset happens where the user's data is needed.
  if (session.status === 'error') {
    return { kind: 'redirect', to: LOGIN_PATH, notice: 'loadFailed', resetSession: true }
  }
  if (session.status === 'loading') return { kind: 'wait' }
  if (session.status !== 'user') return { kind: 'redirect', to: loginPath(location), notice: 'pleaseLogin' }
  return canOpen(route, session.permissions) ? { kind: 'render' } : { kind: 'refuse' }
}
