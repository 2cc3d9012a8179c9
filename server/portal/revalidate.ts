import { createHash } from 'node:crypto'
import type { FastifyRequest } from 'fastify'

/**
 * Validation for answers that change without their address changing (a page's HTML, the site settings):
 * `cache-control: no-cache` and a weak ETag of the body, so a browser asks every time and an unchanged
 * answer costs a 304 without a body. Weak, because the same tag stands for the compressed and the plain bytes.
 */

export function etagOf(body: string | Buffer): string {
  return `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`
}

const opaque = (tag: string) => tag.trim().replace(/^W\//, '')

/** True when the request's If-None-Match names this tag (weak comparison, RFC 9110 §13.1.2) or is `*`. */
export function matchesEtag(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match']
  if (!header) return false
  return header.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag))
}
