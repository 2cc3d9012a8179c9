import { type ReactNode, use } from 'react'
import { useTranslation } from 'react-i18next'
import { matchPath, Navigate, Route, Routes } from 'react-router'
import { type RouteEntry, routes } from '../generated/routes.ts'
import { hasTexts, textsReady } from './i18n.ts'
import { NOT_FOUND_PATH } from './routing/access.ts'
import { HandoffGate, RouteGate } from './routing/RouteGate.tsx'
import { ScrollManager } from './routing/scroll.tsx'
import { VisitRecorder } from './routing/VisitRecorder.tsx'
import { textsFor } from './shell/texts.ts'

/** The route of the table an address opens, if any. */
export function routeAt(pathname: string): RouteEntry | undefined {
  return routes.find((route) => matchPath({ path: route.path, end: true }, pathname))
}

/**
 * Renders a page once its texts are there. Navigations are transitions (react-router), so while a
 * workbench page's texts load the page being left stays on screen.
 */
function RouteTexts({ route, children }: { route: RouteEntry; children: ReactNode }) {
  const bundles = textsFor(route)
  // Re-renders on a language switch, which loads the texts in use before it changes language.
  useTranslation()
  if (!hasTexts(bundles)) use(textsReady(bundles))
  return <>{children}</>
}

/**
 * Every route of the generated table behind its gate; anything else is the 404 page (SPEC §2). A new
 * page opens at its top, Back and Forward restore the position (./routing/scroll.tsx); each page opened is
 * recorded as a visit, off the navigation's path (./routing/VisitRecorder.tsx).
 */
export function App() {
  return (
    <HandoffGate>
      <ScrollManager />
      <VisitRecorder pageAt={routeAt} />
      <Routes>
        {routes.map((route) => (
          <Route
            key={route.name}
            path={route.path}
            element={
              <RouteTexts route={route}>
                <RouteGate route={route} />
              </RouteTexts>
            }
          />
        ))}
        <Route path="*" element={<Navigate to={NOT_FOUND_PATH} replace />} />
      </Routes>
    </HandoffGate>
  )
}
