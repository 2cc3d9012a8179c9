import { beforeAll, describe, expect, it } from 'vitest'
import { createClient } from '../../generated/client.ts'
import { routes } from '../../generated/routes.ts'
import { COMPONENTS, SCREEN_KINDS, WIDGETS } from '../../model/registries.ts'
import { COMPONENT_REGISTRY, ROUTE_COMPONENTS, SCREEN_KIND_REGISTRY, screenFor } from '../../runtime/registry.ts'
import { WHOLE_MANIFEST } from '../../runtime/routing/manifestPart.ts'
import { clientCall, loadManifest, manifest, transitionEndpoint } from '../../runtime/screens/manifest.ts'
import { WIDGET_REGISTRY } from '../../runtime/widgets/index.tsx'

const sorted = (names: Iterable<string>) => [...names].sort()

describe('runtime registries match model/registries.ts', () => {
  it('registers a component under every COMPONENTS name and no other', () => {
    expect(sorted(Object.keys(COMPONENT_REGISTRY))).toEqual(sorted(COMPONENTS))
  })

  it('registers a screen for every screen kind and no other', () => {
    expect(sorted(Object.keys(SCREEN_KIND_REGISTRY))).toEqual(sorted(SCREEN_KINDS))
  })

  it('registers a widget under every WIDGETS name and no other', () => {
    expect(sorted(Object.keys(WIDGET_REGISTRY))).toEqual(sorted(WIDGETS))
  })

  it('binds routes only to registered components, and every route to some screen', () => {
    for (const name of Object.values(ROUTE_COMPONENTS)) expect(COMPONENTS).toContain(name)
    for (const route of routes) expect(screenFor(route)).toBeTruthy()
  })

  it('draws built screens with their kind and the rest with the placeholder', () => {
    const orderList = routes.find((r) => r.name === 'orderList')
    const personalInfo = routes.find((r) => r.name === 'personalInfo')
    const login = routes.find((r) => r.name === 'login')
    if (!orderList || !personalInfo || !login) throw new Error('route table lacks orderList, personalInfo or login')
    expect(screenFor(orderList)).toBe(SCREEN_KIND_REGISTRY.list)
    expect(screenFor(personalInfo)).toBe(SCREEN_KIND_REGISTRY.form)
    expect(screenFor(login)).toBe(COMPONENT_REGISTRY.login)
    expect(screenFor({ name: 'x', component: null, kind: null, status: 'planned' })).toBe(
      COMPONENT_REGISTRY.placeholder,
    )
  })
})

describe('generic screens reach the server through the generated client', () => {
  const client = createClient(async () => ({ code: '0000', message: '', content: null }) as never)
  beforeAll(() => loadManifest(WHOLE_MANIFEST))

  it('finds a client function for every endpoint a built screen binds, and for its transitions', () => {
    const built = manifest.screens.filter((screen) => screen.status === 'built' && screen.kind)
    expect(built.length).toBeGreaterThan(0)
    for (const screen of built) {
      for (const [kind, binding] of Object.entries(screen.endpoints ?? {})) {
        // A list's export streams an .xlsx the portal fetches itself (runtime/download.ts exportFrom): no
        // envelope, so no client function.
        const served = manifest.endpoints.find((e) => e.method === binding.method && e.path === binding.path)
        const call = clientCall(client, binding)
        const where = `${screen.name} ${kind} ${binding.method} ${binding.path}`
        if (served?.kind === 'export') expect(call, where).toBeNull()
        else expect(call, where).toBeTypeOf('function')
      }
      // Transitions its actions fire (an entity served only by hand-written calls, spaApplication, has none).
      const fires = [...(screen.actions?.toolbar ?? []), ...(screen.actions?.row ?? [])].some((a) => a.transition)
      if (screen.entity && manifest.entities[screen.entity]?.states && fires) {
        expect(clientCall(client, transitionEndpoint(screen.entity)), `${screen.entity} transition`).toBeTypeOf(
          'function',
        )
      }
    }
  })

  it('finds nothing for a place the server does not serve', () => {
    expect(clientCall(client, { method: 'GET', path: '/nowhere' })).toBeNull()
    expect(clientCall(client, undefined)).toBeNull()
  })
})
