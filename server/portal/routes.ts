import { type RouteEntry, routes } from '../../generated/routes.ts'

/**
 * Which paths are portal pages: the generated route table (SPEC §2, screens/*.yaml), matched as the
 * portal's router matches it (react-router's matchPath: `:name` is one segment, case ignored, a trailing
 * slash allowed). A path the table does not have is the portal's 404 page, answered with HTTP 404.
 */

export type { RouteEntry }

interface Compiled {
  route: RouteEntry
  /** Spelled as in the table. */
  exact: RegExp
  /** Any case, as the portal's router matches. */
  loose: RegExp
}

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

function source(path: string): string {
  const segments = path
    .split('/')
    .filter(Boolean)
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : literal(segment)))
  return `^/${segments.join('/')}/?$`
}

const COMPILED: readonly Compiled[] = routes.map((route) => ({
  route,
  exact: new RegExp(source(route.path)),
  loose: new RegExp(source(route.path), 'i'),
}))

/** The route a path opens: the one spelled exactly so, else the first that matches ignoring case. */
export function routeOf(pathname: string): RouteEntry | undefined {
  return (
    COMPILED.find((entry) => entry.exact.test(pathname))?.route ??
    COMPILED.find((entry) => entry.loose.test(pathname))?.route
  )
}

/** The portal's own 404 page (screens/site.yaml notFound): a known route, but it says nothing was found. */
export const NOT_FOUND_PATH = '/404'

/** Every route of the table. */
export const portalRoutes: readonly RouteEntry[] = routes
