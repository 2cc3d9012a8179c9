import { describe, expect, it } from 'vitest'
import { routes } from '../../generated/routes.ts'
import {
  canOpen,
  type DecideInput,
  decide,
  LOGIN_PATH,
  loginPath,
  pathOfRoute,
  type SessionView,
  safeRedirect,
  takeHandoff,
} from '../../runtime/routing/access.ts'

const route = (name: string) => {
  const found = routes.find((r) => r.name === name)
  if (!found) throw new Error(`no route ${name} in generated/routes.ts`)
  return found
}

const user = (permissions: string[], roles = ['OperationAdministrator']): SessionView => ({
  status: 'user',
  roles,
  permissions: new Set(permissions),
})

/** The decision at a route; the location defaults to the route's path, the home mode to 1. */
const at = (name: string, session: SessionView, options: Partial<Pick<DecideInput, 'location' | 'homeMode'>> = {}) =>
  decide({
    route: route(name),
    location: options.location ?? route(name).path,
    session,
    homeMode: 'homeMode' in options ? options.homeMode : 1,
    routes,
  })

describe('SPEC §2 route rules', () => {
  it('lets anyone open a public route, even while the session loads', () => {
    expect(at('login', { status: 'anonymous' })).toEqual({ kind: 'render' })
    expect(at('orderTracking', { status: 'loading' })).toEqual({ kind: 'render' })
    expect(at('notFound', { status: 'anonymous' })).toEqual({ kind: 'render' })
  })

  it('sends a visitor from any other route to /login with the address to return to', () => {
    expect(at('orderList', { status: 'anonymous' }, { location: '/orderList?pageNum=2' })).toEqual({
      kind: 'redirect',
      to: '/login?redirect=%2ForderList%3FpageNum%3D2',
      notice: 'pleaseLogin',
    })
    // Open routes need a login too, but no permission.
    expect(at('inquiryHome', { status: 'anonymous' }, { homeMode: 2 })).toMatchObject({
      kind: 'redirect',
      to: '/login?redirect=%2FinquiryHome',
      notice: 'pleaseLogin',
    })
  })

  it('waits for the session before judging a protected route', () => {
    expect(at('orderList', { status: 'loading' })).toEqual({ kind: 'wait' })
  })

  it('lets a logged-in user through /login', () => {
    expect(at('login', user(['orderList']))).toEqual({ kind: 'render' })
  })

  it('opens open routes to every logged-in user and permission routes to holders of one permission', () => {
    expect(at('palletInquiry', user([]), { location: '/palletInquiry/sea' })).toEqual({ kind: 'render' })
    expect(at('orderList', user(['orderList']))).toEqual({ kind: 'render' })
    expect(at('preOrderList', user(['predictionOrder']))).toEqual({ kind: 'render' })
    expect(at('preOrderList', user(['predictionOrderEnterprise']))).toEqual({ kind: 'render' })
  })

  it('refuses a route the user may not open instead of showing it', () => {
    expect(at('orderList', user(['personalInfo'], ['PersonalUser']))).toEqual({ kind: 'refuse' })
  })

  it('sends a user with no role to /login and ends the session', () => {
    expect(at('personalInfo', user(['personalInfo'], []))).toEqual({
      kind: 'redirect',
      to: LOGIN_PATH,
      notice: 'noRole',
      resetSession: true,
    })
    expect(at('login', user([], []))).toEqual({ kind: 'render' })
  })

  it('ends the session and goes to /login when the user data failed to load', () => {
    expect(at('orderList', { status: 'error', message: 'boom' })).toEqual({
      kind: 'redirect',
      to: LOGIN_PATH,
      notice: 'loadFailed',
      resetSession: true,
    })
    expect(at('dashboard', { status: 'error' })).toEqual({ kind: 'render' })
  })

  it('redirects / to /dashboard and between the two homes by home mode', () => {
    expect(at('home', { status: 'anonymous' }, { location: '/?lang=en' })).toEqual({
      kind: 'redirect',
      to: '/dashboard?lang=en',
    })
    expect(at('dashboard', user([]), { homeMode: 2 })).toEqual({ kind: 'redirect', to: '/inquiryHome' })
    // /inquiryHome needs a login, so a visitor keeps the public home.
    expect(at('dashboard', { status: 'anonymous' }, { homeMode: 2 })).toEqual({ kind: 'render' })
    expect(at('dashboard', { status: 'loading' }, { homeMode: 2 })).toEqual({ kind: 'wait' })
    expect(at('inquiryHome', user([]), { homeMode: 1 })).toEqual({ kind: 'redirect', to: '/dashboard' })
    expect(at('dashboard', { status: 'anonymous' }, { homeMode: 1 })).toEqual({ kind: 'render' })
    expect(at('inquiryHome', user([]), { homeMode: 2 })).toEqual({ kind: 'render' })
    expect(at('dashboard', { status: 'anonymous' }, { homeMode: undefined })).toEqual({ kind: 'wait' })
    expect(at('dashboard', { status: 'anonymous' }, { homeMode: null })).toEqual({ kind: 'render' })
  })
})

describe('route filtering', () => {
  it('needs nothing for public and open routes, one of the listed permissions otherwise', () => {
    const none = new Set<string>()
    expect(canOpen(route('dashboard'), none)).toBe(true)
    expect(canOpen(route('inquiryHome'), none)).toBe(true)
    expect(canOpen(route('orderList'), none)).toBe(false)
    expect(canOpen(route('orderList'), new Set(['orderList']))).toBe(true)
    expect(canOpen(route('enterpriseInfo'), new Set(['myEnterprise']))).toBe(true)
  })

  it('finds the target of a redirect entry by route name', () => {
    expect(pathOfRoute(routes, 'dashboard')).toBe('/dashboard')
    expect(pathOfRoute(routes, 'nowhere')).toBeNull()
  })
})

describe('login redirects', () => {
  it('keeps the wanted address, leaves out home and /login itself', () => {
    expect(loginPath('/orderList')).toBe('/login?redirect=%2ForderList')
    expect(loginPath('/')).toBe('/login')
    expect(loginPath('/login?redirect=%2Fx')).toBe('/login')
  })

  it('returns only to paths of this site', () => {
    expect(safeRedirect('/orderList?pageNum=2')).toBe('/orderList?pageNum=2')
    expect(safeRedirect(null)).toBe('/')
    expect(safeRedirect('https://evil.example/')).toBe('/')
    expect(safeRedirect('//evil.example/')).toBe('/')
    expect(safeRedirect('/\\evil.example/')).toBe('/')
    expect(safeRedirect('/login')).toBe('/')
    expect(safeRedirect('/login?redirect=/x')).toBe('/')
    expect(safeRedirect('/loginHelp')).toBe('/loginHelp')
  })
})

describe('?token= handoff', () => {
  it('takes the token off the address and keeps the rest', () => {
    expect(takeHandoff('?token=abc&lang=en')).toEqual({ token: 'abc', rest: '?lang=en' })
    expect(takeHandoff('?token=abc')).toEqual({ token: 'abc', rest: '' })
    expect(takeHandoff('?lang=en')).toEqual({ token: null, rest: '?lang=en' })
    expect(takeHandoff('')).toEqual({ token: null, rest: '' })
  })
})
