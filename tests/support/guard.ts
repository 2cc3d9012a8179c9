import type { ManifestEndpoint } from '../../model/resolve.ts'
import type { Manifest } from '../../server/manifest.ts'
import type { TestApp } from './app.ts'

/** How the guard suites call an endpoint of the manifest: a query for GET and DELETE, a JSON body otherwise. */
export function callEndpoint(
  test: TestApp,
  endpoint: ManifestEndpoint,
  input: Record<string, unknown>,
  options: { token?: string; host?: string } = {},
) {
  const read = endpoint.method === 'GET' || endpoint.method === 'DELETE'
  const query = new URLSearchParams(Object.entries(input).map(([k, v]) => [k, String(v)])).toString()
  return test.app.inject({
    method: endpoint.method,
    url: read ? `/api${endpoint.path}?${query}` : `/api${endpoint.path}`,
    headers: {
      host: options.host ?? 'localhost',
      language: 'en_US',
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    ...(read ? {} : { payload: input }),
  })
}

/** The manifest's endpoint of that id; a list naming one the manifest no longer has fails here. */
export function endpointById(manifest: Manifest, id: string): ManifestEndpoint {
  const endpoint = manifest.endpoints.find((e) => e.id === id)
  if (!endpoint) throw new Error(`${id} is in tests/api/guard-lists.ts but not in the manifest`)
  return endpoint
}

/** Ids, sorted, for comparing a list with the manifest so a failure names the difference. */
export const sortedIds = (ids: Iterable<string>) => [...ids].sort()
