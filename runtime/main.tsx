import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { type ReactNode, StrictMode, useInsertionEffect, useMemo } from 'react'
import { createRoot } from 'react-dom/client'
import { BrowserRouter } from 'react-router'
import { App, routeAt } from './App.tsx'
import { ClientProvider } from './client.tsx'
import { startI18n } from './i18n.ts'
import { EffectsHost } from './shell/EffectsHost.tsx'
import { markFocusVisible } from './shell/focusVisible.ts'
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

// The first page's texts load with the rest of the start, not after it.
const first = routeAt(window.location.pathname)
await startI18n(first ? textsFor(first) : ['site'])

createRoot(document.getElementById('root') as HTMLElement).render(
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
)
