import { makeStyles, tokens } from '@fluentui/react-components'
import { useQueryClient } from '@tanstack/react-query'
import { lazy, type ReactNode, Suspense, useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { useLocation } from 'react-router'
import { type RouteEntry, routes } from '../../generated/routes.ts'
import { useEffects } from '../effects.tsx'
import { FLOW_PAGE } from '../flows/layout.ts'
import { quietClient } from '../quietClient.ts'
import { screenFor } from '../registry.ts'
import { reloadSession, resetSession, useSession } from '../session.ts'
import { Shell } from '../shell/Shell.tsx'
import { Forbidden } from '../shell/StatusPage.tsx'
import { setPageHead } from '../site/head.ts'
import { loadMobileShell } from '../site/loaders.ts'
import { descriptionKey } from '../site/meta.ts'
import { MobileSwitch } from '../site/mobile/switch.ts'
import { siteName, useHomeMode, useSiteSettings } from '../site/SiteSettings.tsx'
import { type Decision, decide, takeHandoff } from './access.ts'
import { manifestPartOf } from './manifestPart.ts'

const WorkbenchLayout = lazy(() => import('../shell/WorkbenchLayout.tsx'))
const MobileShell = lazy(loadMobileShell)
const ManifestGate = lazy(() => import('./ManifestGate.ts'))

const useSpinnerStyles = makeStyles({
  spinner: {
    display: 'block',
    width: '32px',
    height: '32px',
    margin: '96px auto',
    borderRadius: '50%',
    border: `3px solid ${tokens.colorBrandBackground2}`,
    borderTopColor: tokens.colorBrandBackground,
    animationName: { to: { transform: 'rotate(360deg)' } },
    animationDuration: '0.8s',
    animationIterationCount: 'infinite',
    animationTimingFunction: 'linear',
  },
})

/** A generic screen (a list, a detail, a form) outside the workbench: the column a flow's page draws in. */
const usePageStyles = makeStyles({ page: FLOW_PAGE })

/**
 * A page on its way (a lazy screen, the session, texts). A ring of our own rather than Fluent's Spinner:
 * every page shows it, and the entry chunk need not carry the Spinner and its Label (≈3 KB gzipped).
 */
export function PageSpinner() {
  const styles = useSpinnerStyles()
  const { t } = useTranslation()
  return <span role="progressbar" aria-busy="true" aria-label={t('ui.loading')} className={styles.spinner} />
}

/** The frame a route's layout asks for (SPEC §2 "Layout"). */
function Layout({ route, children }: { route: RouteEntry; children: ReactNode }) {
  if (route.layout === 'blank') return <>{children}</>
  if (route.layout === 'mobile') {
    return (
      <Suspense fallback={<PageSpinner />}>
        <MobileShell>{children}</MobileShell>
      </Suspense>
    )
  }
  if (route.layout === 'workbench') {
    return (
      <Shell ownMain>
        <Suspense fallback={<PageSpinner />}>
          <WorkbenchLayout>{children}</WorkbenchLayout>
        </Suspense>
      </Shell>
    )
  }
  if (route.kind !== 'custom' && route.kind !== null) return <ScreenPage>{children}</ScreenPage>
  return <Shell>{children}</Shell>
}

/** The site's schedules (a generic list on the public site) sat against the window's edges without it. */
function ScreenPage({ children }: { children: ReactNode }) {
  const styles = usePageStyles()
  return (
    <Shell>
      <div className={styles.page}>{children}</div>
    </Shell>
  )
}

/** Carries out a redirect decision: says why, goes there, and ends the session when the rule says so. */
function Redirect({ decision, failure }: { decision: Extract<Decision, { kind: 'redirect' }>; failure?: string }) {
  const effects = useEffects()
  const queryClient = useQueryClient()
  const { t } = useTranslation()
  const { to, notice, resetSession: reset } = decision
  useEffect(() => {
    if (notice) {
      const text = notice === 'loadFailed' ? failure || t('ui.hasError') : t(`ui.${notice}`)
      effects.toast(text, { intent: notice === 'loadFailed' ? 'error' : 'warning', id: notice })
    }
    effects.navigate(to, { replace: true })
    // After navigating: the session's end must not re-decide the page being left.
    if (reset) void resetSession(queryClient)
  }, [to, notice, reset, failure, effects, queryClient, t])
  return <PageSpinner />
}

function Refusal() {
  const effects = useEffects()
  const { t } = useTranslation()
  useEffect(() => effects.toast(t('ui.noPermission'), { intent: 'warning', id: 'noPermission' }), [effects, t])
  return <Forbidden />
}

/** One route of the table: SPEC §2's rules decide whether it renders, waits, refuses or redirects. */
export function RouteGate({ route }: { route: RouteEntry }) {
  const location = useLocation()
  const session = useSession()
  const homeMode = useHomeMode()
  const decision = decide({
    route,
    location: `${location.pathname}${location.search}`,
    session: session.view,
    homeMode,
    routes,
  })
  if (decision.kind === 'wait') return <PageSpinner />
  if (decision.kind === 'redirect') {
    return <Redirect decision={decision} failure={session.view.status === 'error' ? session.view.message : undefined} />
  }
  const Screen = screenFor(route)
  const screen = <Screen key={route.name} route={route} />
  // A screen that reads the manifest draws once its part is loaded (runtime/screens/manifest.ts).
  const part = manifestPartOf(route)
  // One tree shape for both outcomes, so the shell stays mounted from page to page.
  return (
    <>
      <PageTitle route={route} />
      <MobileSwitch route={route} />
      <Layout route={route}>
        {decision.kind === 'refuse' ? (
          <Refusal />
        ) : (
          <Suspense fallback={<PageSpinner />}>
            {part ? <ManifestGate part={part}>{screen}</ManifestGate> : screen}
          </Suspense>
        )}
      </Layout>
    </>
  )
}

/**
 * The browser tab says where the user is: the route's title and the tenant's site name, the page's
 * description and the tenant's favicon (runtime/site/head.ts). Pages with copy of their own describe
 * themselves (PAGES_WITH_OWN_DESCRIPTION).
 */
function PageTitle({ route }: { route: RouteEntry }) {
  const { t, i18n } = useTranslation()
  const settings = useSiteSettings()
  const site = siteName(settings, i18n.language)
  const title = t(route.title)
  // The same text the server wrote into the page's HTML (runtime/site/meta.ts); undefined: the page's own.
  const key = descriptionKey(route.component)
  const description = key === undefined ? undefined : t(key, { site })
  const icon = settings?.iconPath
  useEffect(() => {
    setPageHead({ title, site, description, icon })
  }, [title, site, description, icon])
  return null
}

// A handoff value is single-use: never exchange one twice, even when React runs an effect twice.
const exchanged = new Set<string>()

/** SPEC §2: a `?token=` handoff on any URL is exchanged for a session and taken off the address. */
export function HandoffGate({ children }: { children: ReactNode }) {
  const location = useLocation()
  const effects = useEffects()
  const queryClient = useQueryClient()
  const { t } = useTranslation()
  const { token, rest } = takeHandoff(location.search)
  const target = `${location.pathname}${rest}${location.hash}`
  useEffect(() => {
    if (!token || exchanged.has(token)) return
    exchanged.add(token)
    // The quiet client: a refused handoff is said here, and the page then treats the reader as a visitor
    // (rather than the client's HTTP 401 handling racing this navigation).
    void quietClient.b2b
      .exchangeToken({ handoff: token })
      .catch((error: Error) => effects.toast(error.message || t('ui.hasError'), { intent: 'error', id: 'handoff' }))
      .then(() => reloadSession(queryClient).catch(() => null))
      .finally(() => effects.navigate(target, { replace: true }))
  }, [token, target, effects, queryClient, t])
  if (token) return <PageSpinner />
  return <>{children}</>
}
