import { Navigate, Route, Routes } from 'react-router'
import { routes } from '../generated/routes.ts'
import { NOT_FOUND_PATH } from './routing/access.ts'
import { HandoffGate, RouteGate } from './routing/RouteGate.tsx'

/** Every route of the generated table behind its gate; anything else is the 404 page (SPEC §2). */
export function App() {
  return (
    <HandoffGate>
      <Routes>
        {routes.map((route) => (
          <Route key={route.name} path={route.path} element={<RouteGate route={route} />} />
        ))}
        <Route path="*" element={<Navigate to={NOT_FOUND_PATH} replace />} />
      </Routes>
    </HandoffGate>
  )
}
