import { useQuery } from '@tanstack/react-query'
import type { ManifestScreen } from '../../../model/resolve.ts'
import { useClient } from '../../client.tsx'
import { withSchema } from '../../forms/schemas.ts'
import { storedValue } from '../../widgets/lookups.ts'
import { clientCall, namedEndpoint, type PortalEntity } from '../manifest.ts'

type Data = Record<string, unknown>

/** A record's answer as fields by name, checked rather than cast: anything else (a list, a scalar, none) is null. */
export function recordOf(content: unknown): Data | null {
  return content && typeof content === 'object' && !Array.isArray(content)
    ? Object.fromEntries(Object.entries(content))
    : null
}

/**
 * A new record's values from the page's query (`form.prefill` in the screen YAML): each field named there
 * takes the query parameter of its name, as the field stores it (an entity's id as a number), so an action
 * that opens the form for a record (param: order) starts it filled in. Null when nothing is given.
 */
export function prefilledRecord(
  screen: Pick<ManifestScreen, 'form'>,
  entity: Pick<PortalEntity, 'fields' | 'entity'>,
  query: URLSearchParams,
): Data | null {
  const fields = screen.form?.prefill
  if (!fields?.length) return null
  const properties = (withSchema(entity).schema as { properties?: Record<string, { type?: unknown }> }).properties ?? {}
  const record: Data = {}
  for (const name of fields) {
    const value = query.get(name)?.trim()
    if (value) record[name] = storedValue(value, properties[name]?.type)
  }
  return Object.keys(record).length ? record : null
}

/**
 * A new record's starting values when the screen names a `form.prefillCall`: the query's prefilled fields sent
 * to that GET endpoint, and its answer (shaped like the form's entity: the B/L instruction the order already
 * knows) under them. `pending` while the answer is on its way, so nothing typed is overwritten by it; an
 * answer refused (an order not the caller's, or not confirmed) leaves the query's fields alone.
 */
export function usePrefill(
  screen: Pick<ManifestScreen, 'form'>,
  prefilled: Data | null,
): { pending: boolean; values: Data | null } {
  const client = useClient()
  const endpoint = namedEndpoint(screen.form?.prefillCall)
  const call = endpoint && prefilled ? clientCall(client, endpoint) : null
  const answer = useQuery({
    queryKey: ['prefill', endpoint?.id, prefilled],
    queryFn: async ({ signal }) => {
      const content = (await call?.(prefilled, signal))?.content
      return recordOf(content)
    },
    enabled: call !== null,
    retry: false,
    staleTime: 0,
    gcTime: 0,
  })
  if (!call) return { pending: false, values: prefilled }
  if (answer.isPending) return { pending: true, values: null }
  return { pending: false, values: answer.data ? { ...answer.data, ...prefilled } : prefilled }
}
