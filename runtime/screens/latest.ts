import { useQuery } from '@tanstack/react-query'
import type { ManifestScreen } from '../../model/resolve.ts'
import { useClient } from '../client.tsx'
import { engineCall } from './manifest.ts'

/**
 * The record a form or detail screen shows when it is opened without `?id=`: the first row of its `list`
 * binding, which the server answers as the caller's own, newest first (the applicant's certification on
 * /enterpriseApply and /enterpriseInfo, the user's enterprise on /myEnterprise). A screen without a list
 * binding has none. `pending` while the list is asked; `id` null when the caller has no such record yet.
 */
export function useLatestId(screen: ManifestScreen | undefined, given: string | number | null) {
  const client = useClient()
  const binding = given === null ? screen?.endpoints?.list : undefined
  const query = useQuery({
    queryKey: ['list', 'latest', screen?.name],
    queryFn: async ({ signal }) => {
      const call = engineCall(client, binding, 'list')
      if (!call) return null
      const page = await call({ searchParams: {}, pageNum: 1, pageSize: 1 }, signal)
      const first = page.content.list[0] as { id?: number } | undefined
      return first?.id ?? null
    },
    enabled: binding !== undefined,
    retry: false,
  })
  return { id: given ?? query.data ?? null, pending: binding !== undefined && query.isPending }
}
