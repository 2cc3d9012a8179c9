import { lazy, Suspense } from 'react'
import { Navigate, Route, Routes } from 'react-router'
import { type RouteEntry, routes } from '../generated/routes.ts'
import PlannedScreen from './shell/PlannedScreen.tsx'
import { Shell } from './shell/Shell.tsx'

const Home = lazy(() => import('./site/Home.tsx'))

function screenFor(route: RouteEntry) {
  if (route.name === 'dashboard') return <Home />
  return <PlannedScreen route={route} />
}

export function App() {
  return (
    <Suspense fallback={null}>
      <Routes>
        <Route path="/" element={<Navigate to="/dashboard" replace />} />
        {routes
          .filter((route) => route.path !== '/')
          .map((route) => (
            <Route
              key={route.name}
              path={route.path}
              element={<Shell hideFooter={route.path === '/resetPassword'}>{screenFor(route)}</Shell>}
            />
          ))}
        <Route path="*" element={<Navigate to="/404" replace />} />
      </Routes>
    </Suspense>
  )
}
