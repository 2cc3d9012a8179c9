import { useQueryClient } from '@tanstack/react-query'
import { createContext, type ReactNode, useContext, useMemo, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { type Client, createClient } from '../generated/client.ts'
import { createTransport } from './api.ts'
import { useEffects } from './effects.tsx'
import { languageHeader } from './i18n.ts'
import { quietClient } from './quietClient.ts'
import { loginPath } from './routing/access.ts'
import { resetSession } from './session.ts'

const ClientContext = createContext<Client>(quietClient)

/** The client screens use: SPEC §8's error behaviour is wired in, through the side-effects context. */
export function useClient(): Client {
  return useContext(ClientContext)
}

export function ClientProvider({ children }: { children: ReactNode }) {
  const effects = useEffects()
  const queryClient = useQueryClient()
  const { t } = useTranslation()
  // One "Confirm logout" box however many calls fail at once.
  const askingLogout = useRef(false)

  const client = useMemo(
    () =>
      createClient(
        createTransport({
          language: languageHeader,
          onFailure(outcome, error) {
            if (outcome === 'toast') {
              effects.toast(error.message || t('ui.hasError'), { intent: 'error' })
            } else if (outcome === 'unauthorized') {
              const here = `${window.location.pathname}${window.location.search}`
              void resetSession(queryClient).then(() => {
                effects.toast(error.message || t('ui.pleaseLogin'), { intent: 'warning', id: 'unauthorized' })
                effects.navigate(loginPath(here), { replace: true })
              })
            } else if (outcome === 'confirmLogout' && !askingLogout.current) {
              askingLogout.current = true
              void effects
                .confirm({
                  title: t('ui.confirmLogoutTitle'),
                  body: t('ui.confirmLogoutText'),
                  confirmLabel: t('ui.reLogin'),
                  cancelLabel: t('ui.cancel'),
                })
                .then(async (reLogin) => {
                  askingLogout.current = false
                  if (!reLogin) return
                  await resetSession(queryClient)
                  effects.navigate('/login')
                })
            }
          },
        }),
      ),
    [effects, queryClient, t],
  )
  return <ClientContext.Provider value={client}>{children}</ClientContext.Provider>
}
