import { describe, expect, it } from 'vitest'
import manifest from '../../generated/manifest.json'
import { portalPart } from '../../generator/emit/portal.ts'
import type { Manifest } from '../../server/manifest.ts'

/**
 * Issue #23: the customer's withdraw, reapply and re-edit buttons on an order's detail fire their transitions
 * through SPEC §7's own calls (`call:` beside `transition:`), not the generic /order/transition, and each
 * screen's part of the manifest carries those calls so the portal finds them.
 */

const whole = manifest as unknown as Manifest
const DETAILS = ['orderDetails', 'lclOrderDetail', 'airOrderDetail', 'railwayOrderDetail']
const SPEC_CALLS: Record<string, { call: string; method: string; path: string }> = {
  withdraw: { call: 'withdraw', method: 'GET', path: '/booking/order/withdraw' },
  reapply: { call: 'reapplyOrder', method: 'GET', path: '/booking/order/reapplyOrder' },
  reEdit: { call: 'onlineOrdersReEdit', method: 'POST', path: '/booking/onlineOrders/reEdit' },
}

describe("the customer's order detail toolbar", () => {
  for (const name of DETAILS)
    it(`${name} fires withdraw, reapply and reEdit through SPEC §7's endpoints`, () => {
      const screen = whole.screens.find((s) => s.name === name)
      expect(screen?.entity).toBe('order')
      const toolbar = screen?.actions?.toolbar ?? []
      const part = portalPart(whole, screen as NonNullable<typeof screen>)
      for (const [transition, spec] of Object.entries(SPEC_CALLS)) {
        const action = toolbar.find((a) => a.transition === transition)
        expect(action?.call, `${name} ${transition}`).toBe(spec.call)
        const endpoint = whole.endpoints.find((e) => e.id === spec.call)
        expect(endpoint).toMatchObject({
          kind: 'custom',
          method: spec.method,
          path: spec.path,
          fires: { entity: 'order', name: transition },
        })
        expect(part.endpoints.map((e) => e.id)).toContain(spec.call)
      }
    })
})
