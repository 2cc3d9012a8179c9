import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { type ReactNode, StrictMode, startTransition, useInsertionEffect, useMemo } from 'react'
import { createRoot } from 'react-dom/client'
import { BrowserRouter } from 'react-router'
import { App, routeAt } from './App.tsx'
import { ClientProvider } from './client.tsx'
import { startI18n } from './i18n.ts'
import { EffectsHost } from './shell/EffectsHost.tsx'
import { markFocusVisible } from './shell/focusVisible.ts'
import { goMobileFirst, preloadFirstPage, readInitialData, seedNews, seedQueries } from './shell/initial.ts'
import { drawingTarget } from './shell/reveal.ts'
import { textsFor } from './shell/texts.ts'
import { SiteSettingsProvider, useSiteSettings } from './site/SiteSettings.tsx'
import { DEFAULT_THEME_COLOR, tenantTheme } from './theme.ts'

const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } })

/**
 * Fluent UI in the tenant's colour (SPEC §3 themeColor, default #409eff), the shades that carry text derived
 * to read at 4.5:1 (runtime/theme.ts): the theme's tokens as CSS variables on the document root, which is
 * all Fluent's styles read. No FluentProvider: every page would
 * carry it and its focus-management helpers (≈7 KB gzipped) for a wrapper element; Fluent components
 * default to this document and left-to-right without one, and portals see root variables too.
 */
function TenantTheme({ children }: { children: ReactNode }) {
  const color = useSiteSettings()?.themeColor || DEFAULT_THEME_COLOR
  const theme = useMemo(() => tenantTheme(color), [color])
  useInsertionEffect(() => {
    let style = document.getElementById('tenant-theme')
    if (!style) {
      style = document.createElement('style')
      style.id = 'tenant-theme'
      document.head.append(style)
    }
    style.textContent = `:root{${Object.entries(theme)
      .map(([token, value]) => `--${token}:${value};`)
      .join('')}}`
  }, [theme])
  return children
}

markFocusVisible()

// What the server wrote into the page for its first drawing (server/portal/initial.ts): the site settings,
// and on the home page its lanes and news. A phone on the full site's address goes to the mobile site now,
// before anything is drawn, rather than after drawing the full site's frame.
const initial = readInitialData()
seedQueries(queryClient, initial)
goMobileFirst(initial)

/**
 * The first page's texts and code load with the rest of the start, not after it: the page is drawn once,
 * complete. Not a top-level await: a lazy chunk imports from this entry chunk, and its import would wait for
 * this module to finish evaluating — which would be waiting for it.
 */
async function start() {
  const first = routeAt(window.location.pathname)
  await Promise.all([startI18n(first ? textsFor(first) : ['site']), preloadFirstPage(first, initial)])
  seedNews(queryClient, initial)
  // A transition: React draws the first page in slices of a few milliseconds, yielding to the browser
  // between them, rather than in one task of several hundred milliseconds on a slow phone (issue #18, TBT).
  // Drawn beside the server's summary of the page, which it replaces once complete (./shell/reveal.ts).
  const root = createRoot(drawingTarget(document.getElementById('root') as HTMLElement))
  startTransition(() =>
    root.render(
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <BrowserRouter>
            <SiteSettingsProvider>
              <TenantTheme>
                <EffectsHost>
                  <ClientProvider>
                    <App />
                  </ClientProvider>
                </EffectsHost>
              </TenantTheme>
            </SiteSettingsProvider>
          </BrowserRouter>
        </QueryClientProvider>
      </StrictMode>,
    ),
  )
}

void start()
