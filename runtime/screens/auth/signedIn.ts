import { useQueryClient } from '@tanstack/react-query'
import { useSearchParams } from 'react-router'
import { useEffects } from '../../effects.tsx'
import { safeRedirect } from '../../routing/access.ts'
import { reloadSession } from '../../session.ts'

/**
 * What follows a sign-in (by password, by code, or just registered): the session is read again, a toast says
 * so (`message`, under `id`), and the user goes on to where they were going (?redirect=) in place of this page.
 */
export function useSignedIn(): (message: string, id: string) => Promise<void> {
  const queryClient = useQueryClient()
  const effects = useEffects()
  const [params] = useSearchParams()
  return async (message, id) => {
    await reloadSession(queryClient)
    effects.toast(message, { intent: 'success', id })
    effects.navigate(safeRedirect(params.get('redirect')), { replace: true })
  }
}
