import { type QueryClient, useQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import type { Client } from '../generated/client.ts'
import type { CurrentUser } from '../generated/content.ts'
import { LOGOUT_CODES, RequestError } from './api.ts'
import { quietClient } from './quietClient.ts'
import type { SessionView } from './routing/access.ts'

/**
 * The session user of SPEC §3 as GET /b2b/user/getCurrentUserInfo answers it (schemas/currentUser.yaml), with
 * the name, the account and the lists always there: an answer that leaves them out gets them empty.
 */
export interface SessionUser extends Partial<Omit<CurrentUser, 'name' | 'userInfo' | 'roles' | 'permissions'>> {
  name: string
  userInfo: CurrentUser['userInfo']
  roles: string[]
  permissions: string[]
}

export const SESSION_KEY = ['session'] as const

/** Fills the lists a partial answer leaves out, so the rest of the portal can rely on them. */
export function normalizeUser(content: Partial<CurrentUser> | null | undefined): SessionUser {
  const raw = content ?? {}
  const userInfo: Partial<CurrentUser['userInfo']> = raw.userInfo ?? {}
  return {
    ...raw,
    name: raw.name ?? userInfo.username ?? '',
    userInfo: {
      username: userInfo.username ?? '',
      userId: Number(userInfo.userId ?? 0),
      companyUserType: Number(userInfo.companyUserType ?? 0),
    },
    roles: Array.isArray(raw.roles) ? raw.roles : [],
    permissions: Array.isArray(raw.permissions) ? raw.permissions : [],
  }
}

/**
 * The server sets this readable cookie beside the HttpOnly token (server/auth/tokens.ts SIGNED_IN_COOKIE):
 * without it this browser holds no session, and a visitor's page asks for no user.
 */
const SIGNED_IN = 'b2b_signed_in'

export function holdsSession(cookies: string): boolean {
  return cookies.split(';').some((cookie) => cookie.trim() === `${SIGNED_IN}=1`)
}

/** The cookie jar the probe reads: the page's, or none outside a browser (tests, server rendering). */
const pageCookies = () => (typeof document === 'undefined' ? null : document)

/** The signed-in user, or null for a visitor (no session cookie, HTTP 401 or a logout code); any other failure rejects. */
export async function fetchSession(client: Client, signal?: AbortSignal): Promise<SessionUser | null> {
  const jar = pageCookies()
  if (jar && !holdsSession(jar.cookie)) return null
  try {
    const envelope = await client.b2b.currentUserInfo({}, signal)
    return normalizeUser(envelope.content)
  } catch (error) {
    if (error instanceof RequestError && (error.status === 401 || LOGOUT_CODES.includes(error.code))) {
      // The session ended elsewhere (expired, revoked): the next page need not ask again.
      if (jar) jar.cookie = `${SIGNED_IN}=; path=/; max-age=0; SameSite=Lax`
      return null
    }
    throw error
  }
}

export interface Session {
  view: SessionView
  user: SessionUser | null
  permissions: ReadonlySet<string>
  loggedIn: boolean
}

const NO_PERMISSIONS: ReadonlySet<string> = new Set()

/** The session as every screen reads it (TanStack Query on getCurrentUserInfo, fetched once, kept). */
export function useSession(): Session {
  const query = useQuery({
    queryKey: SESSION_KEY,
    queryFn: ({ signal }) => fetchSession(quietClient, signal),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  })
  return useMemo(() => {
    if (query.isPending)
      return { view: { status: 'loading' }, user: null, permissions: NO_PERMISSIONS, loggedIn: false }
    if (query.isError) {
      return {
        view: { status: 'error', message: query.error.message },
        user: null,
        permissions: NO_PERMISSIONS,
        loggedIn: false,
      }
    }
    const user = query.data
    if (!user) return { view: { status: 'anonymous' }, user: null, permissions: NO_PERMISSIONS, loggedIn: false }
    const permissions = new Set(user.permissions)
    return { view: { status: 'user', roles: user.roles, permissions }, user, permissions, loggedIn: true }
  }, [query.isPending, query.isError, query.error, query.data])
}

/**
 * Ends the session here and on the server (the b2b_token cookie is HttpOnly: only the logout call can
 * clear it) and forgets everything fetched as that user. Never rejects.
 */
export async function resetSession(queryClient: QueryClient): Promise<void> {
  await quietClient.b2b.userLogout({}).catch(() => undefined)
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'siteSettings' })
  queryClient.setQueryData(SESSION_KEY, null)
}

/** After a login or a token exchange: read the new session now, before navigating on. */
export async function reloadSession(queryClient: QueryClient): Promise<SessionUser | null> {
  return queryClient.fetchQuery({
    queryKey: SESSION_KEY,
    queryFn: ({ signal }) => fetchSession(quietClient, signal),
    staleTime: 0,
  })
}
