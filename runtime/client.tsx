import { useQueryClient } from '@tanstack/react-query'
import { createContext, type ReactNode, useContext, useMemo, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { type Client, createClient } from '../generated/client.ts'
import { createTransport, type Outcome, type RequestError } from './api.ts'
import { useEffects } from './effects.tsx'
import { languageHeader } from './i18n.ts'
import { quietClient } from './quietClient.ts'
import { loginPath } from './routing/access.ts'
import { resetSession } from './session.ts'

type Report = (outcome: Exclude<Outcome, 'ok'>, error: RequestError) => void

const ClientContext = createContext<{ client: Client; report: Report | null }>({ client: quietClient, report: null })

/**
 * The client screens use: SPEC §8's error behaviour is wired in, through the side-effects context. A screen
 * that answers some refusals itself (the quote editor asks to confirm a low fee) names them in `handles`, a
 * function defined once outside the component: those reject without a toast; every other failure is reported.
 */
export function useClient(handles?: (error: RequestError) => boolean): Client {
  const { client, report } = useContext(ClientContext)
  return useMemo(
    () =>
      handles && report
        ? createClient(
            createTransport({
              language: languageHeader,
              onFailure: (outcome, error) => {
                if (!handles(error)) report(outcome, error)
              },
            }),
          )
        : client,
    [client, report, handles],
  )
}

export function ClientProvider({ children }: { children: ReactNode }) {
  const effects = useEffects()
  const queryClient = useQueryClient()
  const { t } = useTranslation()
  // One "Confirm logout" box however many calls fail at once.
  const askingLogout = useRef(false)

  const value = useMemo(() => {
    const report: Report = (outcome, error) => {
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
    }
    return { client: createClient(createTransport({ language: languageHeader, onFailure: report })), report }
  }, [effects, queryClient, t])
  return <ClientContext.Provider value={value}>{children}</ClientContext.Provider>
}
