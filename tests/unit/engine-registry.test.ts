import { describe, expect, it } from 'vitest'
import { buildApp } from '../../server/app.ts'
import type { Database } from '../../server/db/database.ts'
import { domainRegistry } from '../../server/domain/index.ts'
import { createEngine } from '../../server/engine/core.ts'
import { createRegistry, type Registry } from '../../server/engine/registry.ts'
import { loadManifest } from '../../server/manifest.ts'

const manifest = loadManifest()

/** The application's registry with everything but the named entries. */
function registryWithout(...names: string[]): Registry {
  const full = domainRegistry()
  const registry = createRegistry()
  for (const [name, effect] of full.effects) if (!names.includes(name)) registry.effect(name, effect)
  for (const [name, derivation] of full.derivations) if (!names.includes(name)) registry.derivation(name, derivation)
  for (const [kind, numbering] of full.numberings) if (!names.includes(kind)) registry.numbering(kind, numbering)
  return registry
}

describe('the engine registry', () => {
  it('starts with what the domain modules register', () => {
    expect(() => createEngine(manifest, { registry: domainRegistry() })).not.toThrow()
  })

  it('refuses at boot an effect, a derivation or a numbering kind the YAML names and nobody registered', () => {
    expect(() => createEngine(manifest, { registry: registryWithout('createShipment') })).toThrow(
      'entity order transition accept effects names the effect "createShipment", which no domain module registers',
    )
    expect(() => createEngine(manifest, { registry: registryWithout('quoteTotals') })).toThrow(
      'entity quote effects.beforeWrite names the derivation "quoteTotals"',
    )
    expect(() => createEngine(manifest, { registry: registryWithout('orderNo') })).toThrow(
      'entity order field orderNo numbering names the numbering kind "orderNo"',
    )
  })

  it('refuses a name registered twice, and a computed column that would hide a stored field', () => {
    const registry = domainRegistry()
    expect(() => registry.effect('autoQuote', async () => {})).toThrow('effect "autoQuote" is registered twice')
    registry.computedColumn('spaApplication', 'targetPrice', () => {
      throw new Error('never read')
    })
    expect(() => createEngine(manifest, { registry })).toThrow(
      'the computed column spaApplication.targetPrice has the name of a stored field',
    )
  })

  it('stops the server at boot when the YAML names an effect no module registers (a typo)', async () => {
    const typo = structuredClone(manifest)
    const accept = typo.entities.order?.states?.transitions.accept
    if (!accept) throw new Error('the manifest has no order accept transition')
    accept.effects = ['createShipments' as never]
    // The engine is built before any route or database call: nothing here is ever queried.
    const database = { api: {}, db: {}, close: async () => {} } as unknown as Database
    await expect(buildApp({ database, manifest: typo })).rejects.toThrow(
      'entity order transition accept effects names the effect "createShipments", which no domain module registers',
    )
  })

  it('reads a view only where a module registered it, and never writes one', () => {
    // The customer-account lists read enterpriseUser, a view of app_user (server/domain/clients/register.ts).
    const full = domainRegistry()
    const without = createRegistry()
    for (const [name, effect] of full.effects) without.effect(name, effect)
    for (const [name, derivation] of full.derivations) without.derivation(name, derivation)
    for (const [kind, numbering] of full.numberings) without.numbering(kind, numbering)
    expect(() => createEngine(manifest, { registry: without })).toThrow(
      'POST /b2b/user/customerAccount/list reads enterpriseUser, which the engine does not store, and no domain module registers its view',
    )
    const writing = structuredClone(manifest)
    const list = writing.endpoints.find((e) => e.id === 'clientEnterpriseAccount.list')
    if (!list) throw new Error('no clientEnterpriseAccount.list in the manifest')
    writing.endpoints.push({ ...list, id: 'enterpriseUser.delete', kind: 'delete', method: 'DELETE', path: '/x' })
    expect(() => createEngine(writing, { registry: domainRegistry() })).toThrow(
      'DELETE /x would delete enterpriseUser, a view the engine only reads',
    )
    const stored = domainRegistry()
    stored.view('order', () => {
      throw new Error('never read')
    })
    expect(() => createEngine(manifest, { registry: stored })).toThrow(
      'a view is registered for order, which is stored',
    )
    // Roles live in a core table the engine never writes: the /operationAuth list reads them through a view.
    const noRoles = createRegistry()
    for (const [name, effect] of full.effects) noRoles.effect(name, effect)
    for (const [name, derivation] of full.derivations) noRoles.derivation(name, derivation)
    for (const [kind, numbering] of full.numberings) noRoles.numbering(kind, numbering)
    for (const [entity, view] of full.views) if (entity !== 'role') noRoles.view(entity, view)
    expect(() => createEngine(manifest, { registry: noRoles })).toThrow(
      'POST /b2b/role/page reads role, which the engine does not store, and no domain module registers its view',
    )
    // A view's own order and a list order are one too many.
    const twice = domainRegistry()
    twice.listOrder('role', { field: 'name', order: 'asc' })
    expect(() => createEngine(manifest, { registry: twice })).toThrow(
      'role has a list order and its view an order of its own: register one',
    )
  })

  it('refuses at boot a view without a creator that something orders, shows or scopes by its creator', () => {
    // Operation accounts keep no creator (server/domain/accounts/register.ts): nothing may name createdBy.
    const ordered = domainRegistry()
    ordered.listOrder('operationAccount', { field: 'createdBy', order: 'desc' })
    expect(() => createEngine(manifest, { registry: ordered })).toThrow(
      "operationAccount's view keeps no creator ({ creator: false }), but its list order names createdBy",
    )
    const shown = structuredClone(manifest)
    const screen = shown.screens.find((s) => s.entity === 'operationAccount' && s.columns?.length)
    if (!screen?.columns) throw new Error('no operationAccount list screen in the manifest')
    screen.columns.push({ ...screen.columns[0], field: 'createdBy' } as (typeof screen.columns)[number])
    expect(() => createEngine(shown, { registry: domainRegistry() })).toThrow(
      `operationAccount's view keeps no creator ({ creator: false }), but screen ${screen.name}'s columns names createdBy`,
    )
  })
})
