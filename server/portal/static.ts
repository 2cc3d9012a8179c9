import fastifyStatic from '@fastify/static'
import type { FastifyInstance } from 'fastify'

/**
 * The built portal's files (vite's dist/), issue #18:
 * - compressed at build, not per request: each asset has a `.br` and a `.gz` beside it (scripts/precompress.ts)
 *   and a browser that accepts one gets it as it is, with `content-encoding` and `vary: accept-encoding`;
 * - vite's hashed files under /assets/ never change under their name: cached for a year, `immutable`, so a
 *   second visit downloads and revalidates none of them;
 * - the other public files (favicon, logo, home images) keep their name across builds: an hour, then
 *   revalidated with their ETag;
 * - index.html is not served from here: every page's HTML is filled in by the server (./page.ts).
 *
 * Registered before @fastify/compress (server/app.ts), so its routes never compress again on the fly.
 */

export const IMMUTABLE = 'public, max-age=31536000, immutable'
export const PUBLIC_FILE = 'public, max-age=3600'
/** Pages and site settings: always asked again, answered 304 while unchanged. */
export const REVALIDATE = 'no-cache'

export async function registerStatic(app: FastifyInstance, root: string): Promise<void> {
  await app.register(fastifyStatic, {
    root,
    // One route per file found at start (the build does not change under a running server).
    wildcard: false,
    index: false,
    globIgnore: ['index.html', '**/*.br', '**/*.gz'],
    preCompressed: true,
    cacheControl: false,
    setHeaders(reply, path) {
      const url = reply.request.url
      reply.header('cache-control', url.startsWith('/assets/') && !path.endsWith('.html') ? IMMUTABLE : PUBLIC_FILE)
    },
  })
}
