import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import manifestJson from '../../generated/manifest.json'
import { routes } from '../../generated/routes.ts'
import { emitValidators } from '../../generator/emit/index.ts'
import {
  emitPortalManifest,
  hasPortalPart,
  portalEntityNames,
  portalPart,
  portalPartPath,
} from '../../generator/emit/portal.ts'
import type { Manifest } from '../../model/resolve.ts'
import { manifestPartOf, READS_WHOLE_MANIFEST, WHOLE_MANIFEST } from '../../runtime/routing/manifestPart.ts'
import { entityDef, hasManifestPart, loadManifest, manifest, screenDef } from '../../runtime/screens/manifest.ts'

/**
 * Issue #19 point 8: a generic screen loads its own part of the manifest, not all of it. These tests hold
 * the parts complete (what a screen looks up is in its part) and small (a list loads no other area's
 * screens), and the route gate's list of screens that need all of it equal to the code that reads it.
 */

const ROOT = new URL('../..', import.meta.url).pathname
const full = manifestJson as unknown as Manifest
const screenOf = (name: string) => {
  const screen = full.screens.find((s) => s.name === name)
  if (!screen) throw new Error(`no screen ${name} in the manifest`)
  return screen
}
const gzipped = (value: unknown) => gzipSync(JSON.stringify(value)).length

describe('the manifest parts the generator writes', () => {
  it('one per built list, detail and form screen, beside the whole manifest and the schemas', () => {
    const paths = emitPortalManifest(full).map((file) => file.path)
    const generic = full.screens.filter(hasPortalPart)
    expect(generic.length).toBeGreaterThan(20)
    expect(paths).toEqual(
      expect.arrayContaining([
        'portal-manifest.json',
        'entity-schemas.json',
        ...generic.map((s) => portalPartPath(s.name)),
      ]),
    )
    expect(paths).toHaveLength(generic.length + 2)
  })

  it('hold what the screen looks up: its entity, the entities it refers to, its endpoints and transitions', () => {
    for (const screen of full.screens.filter(hasPortalPart)) {
      const part = portalPart(full, screen)
      expect(part.screens[0]?.name).toBe(screen.name)
      if (!screen.entity) continue
      const entity = full.entities[screen.entity]
      expect(Object.keys(part.entities), screen.name).toContain(screen.entity)
      for (const field of Object.values(entity?.fields ?? {})) {
        const ref = (field as { ref?: string }).ref
        if (ref) expect(Object.keys(part.entities), `${screen.name} → ${ref}`).toContain(ref)
      }
      for (const [kind, binding] of Object.entries(screen.endpoints ?? {})) {
        const found = part.endpoints.some((e) => e.method === binding.method && e.path === binding.path)
        expect(found, `${screen.name} ${kind}`).toBe(true)
      }
      const transition = full.endpoints.find((e) => e.kind === 'transition' && e.entity === screen.entity)
      if (transition)
        expect(
          part.endpoints.map((e) => e.id),
          screen.name,
        ).toContain(transition.id)
      // The portal never reads the schemas from here (forms load entity-schemas.json).
      expect(JSON.stringify(part)).not.toContain('"schema"')
    }
  })

  it('give a screen the input entities of its transitions', () => {
    for (const screen of full.screens.filter(hasPortalPart)) {
      const transitions = Object.values(full.entities[screen.entity ?? '']?.states?.transitions ?? {})
      for (const input of transitions.flatMap((t) => (t.input ? [t.input] : [])))
        expect(Object.keys(portalPart(full, screen).entities), `${screen.name} → ${input}`).toContain(input)
    }
    expect(Object.keys(portalPart(full, screenOf('viewInquiry')).entities)).toContain('inquiryRejection')
  })

  it('give a hand-written screen the body entities its forms: name, and nothing of the workbench', () => {
    const part = portalPart(full, screenOf('login'))
    expect(part.screens.map((s) => s.name)).toEqual(['login'])
    expect(Object.keys(part.entities).sort()).toEqual(['codeLogin', 'passwordLogin', 'smsCodeRequest'])
    expect(part.endpoints).toEqual([])
    // country: the region field's reference list, which the form's look-up labels by.
    expect(Object.keys(portalPart(full, screenOf('register')).entities).sort()).toEqual([
      'country',
      'registration',
      'smsCodeRequest',
    ])
    expect(hasPortalPart({ status: 'planned', kind: 'custom', forms: ['registration'] })).toBe(false)
    expect(hasPortalPart({ status: 'built', kind: 'custom' })).toBe(false)
  })

  it('give a detail screen the lists that link to it (its "back")', () => {
    const part = portalPart(full, screenOf('orderDetailsOperator'))
    expect(part.screens.map((s) => s.name)).toContain('orderList')
  })

  it('keep the first workbench list to its own screen: no other area, a fraction of the whole', () => {
    const part = portalPart(full, screenOf('orderList'))
    expect(part.screens.map((s) => s.name)).toEqual(['orderList'])
    const text = JSON.stringify(part)
    for (const other of ['freightRateList', 'letterList', 'infomationManagementList', 'operationAccount'])
      expect(text).not.toContain(`"${other}"`)
    // Bytes, gzipped as served: ≈4.8 KB today against ≈22 KB for the whole manifest.
    const whole = emitPortalManifest(full).find((file) => file.path === 'portal-manifest.json')?.content ?? ''
    expect(gzipped(part)).toBeLessThan(8 * 1024)
    expect(gzipSync(whole).length).toBeGreaterThan(3 * gzipped(part))
  })

  it('leave out the entities only an answer is shaped like: the portal validates and draws requests', () => {
    const kept = portalEntityNames(full)
    // Answer-only (a response: and what nests in one) against bodies, forms, screens and transition inputs.
    for (const answer of ['trackingAnswer', 'trackingEventView', 'siteSettingsView', 'quoteComparisonRow'])
      expect(kept, answer).not.toContain(answer)
    for (const request of ['quote', 'order', 'inquiry', 'passwordLogin', 'userProfile', 'freightRateCheckQuery'])
      expect(kept, request).toContain(request)
    for (const input of Object.values(full.entities).flatMap((e) =>
      Object.values(e.states?.transitions ?? {}).flatMap((t) => (t.input ? [t.input] : [])),
    ))
      expect(kept, input).toContain(input)
    const files = Object.fromEntries(
      [...emitPortalManifest(full), ...emitValidators(full)].map((f) => [f.path, f.content]),
    )
    const whole = JSON.parse(files['portal-manifest.json'] ?? '{}') as { entities: Record<string, unknown> }
    expect(Object.keys(whole.entities).sort()).toEqual(kept)
    expect(Object.keys(JSON.parse(files['entity-schemas.json'] ?? '{}')).sort()).toEqual(kept)
    expect(files['validators.d.ts']).toContain('export declare const quote:')
    expect(files['validators.d.ts']).not.toContain('export declare const trackingAnswer:')
  })
})

describe('what the route gate loads', () => {
  it('a generic screen its own part, the whole-manifest screens all of it, the public site nothing', () => {
    const route = (name: string) => routes.find((r) => r.name === name) as (typeof routes)[number]
    expect(manifestPartOf(route('orderList'))).toBe('orderList')
    expect(manifestPartOf(route('personalInfo'))).toBe('personalInfo')
    expect(manifestPartOf(route('screenOverlay'))).toBe(WHOLE_MANIFEST)
    // A hand-written screen that names its forms: (issue #21) loads its own part, with those entities only.
    expect(manifestPartOf(route('register'))).toBe('register')
    for (const name of ['dashboard', 'productService', 'news', 'orderTracking'])
      expect(manifestPartOf(route(name)), name).toBeNull()
    for (const r of routes) {
      const part = manifestPartOf(r)
      if (part && part !== WHOLE_MANIFEST) expect(hasManifestPart(part), r.name).toBe(true)
    }
  })

  it('fills the look-ups from a part, and from the whole manifest after it', async () => {
    await loadManifest('orderList')
    expect(screenDef('orderList')?.entity).toBe('order')
    expect(entityDef('port')?.fields).toBeDefined()
    expect(screenDef('freightRateList')).toBeUndefined()
    await loadManifest(WHOLE_MANIFEST)
    expect(screenDef('freightRateList')?.entity).toBe('rate')
    expect(manifest.screens.filter((s) => s.name === 'orderList')).toHaveLength(1)
    expect(new Set(manifest.endpoints.map((e) => e.id)).size).toBe(manifest.endpoints.length)
  })
})

/** Files a runtime module imports statically (not `import type`, not lazy `import()`), resolved. */
function staticImports(file: string): string[] {
  const source = readFileSync(file, 'utf8')
  const found = [...source.matchAll(/^(?:import|export)\s+(?!type\s)[^'"]*?from\s+'(\.[^']+)'/gms)]
  return found
    .map((match) => resolve(dirname(file), match[1] as string))
    .filter((path) => path.startsWith(join(ROOT, 'runtime')) && existsSync(path))
}

function readsManifest(file: string, seen = new Set<string>()): boolean {
  if (seen.has(file)) return false
  seen.add(file)
  if (file === join(ROOT, 'runtime/screens/manifest.ts')) return true
  return staticImports(file).some((next) => readsManifest(next, seen))
}

describe('the screens that wait for the whole manifest', () => {
  it('include every hand-written component whose code imports runtime/screens/manifest.ts', () => {
    const registry = readFileSync(join(ROOT, 'runtime/registry.ts'), 'utf8')
    const direct = [...registry.matchAll(/^\s+(\w+): lazy\(\(\) => import\('(\.[^']+)'\)\)/gm)].map((m) => ({
      name: m[1] as string,
      file: join(ROOT, 'runtime', m[2] as string),
    }))
    // The public pages load through the shared loaders of runtime/site/loaders.ts (`home: lazy(PUBLIC_PAGES.home)`).
    const loaders = readFileSync(join(ROOT, 'runtime/site/loaders.ts'), 'utf8')
    const publicPages = new Map(
      [...loaders.matchAll(/^\s+(\w+): \(\) => import\('(\.[^']+)'\)/gm)].map((m) => [
        m[1] as string,
        join(ROOT, 'runtime/site', m[2] as string),
      ]),
    )
    const shared = [...registry.matchAll(/^\s+(\w+): lazy\(PUBLIC_PAGES\.(\w+)\)/gm)].map((m) => ({
      name: m[1] as string,
      file: publicPages.get(m[2] as string) ?? `no loader named ${m[2]}`,
    }))
    expect(shared.length).toBeGreaterThan(5)
    const components = [...direct, ...shared]
    expect(components.length).toBeGreaterThan(15)
    // The generic kinds read the manifest too: the route gate loads their own part.
    expect(
      components
        .filter((c) => ['list', 'detail', 'form', 'chart'].includes(c.name))
        .every((c) => readsManifest(c.file)),
    ).toBe(true)
    const reading = components
      .filter((c) => !['list', 'detail', 'form', 'chart', 'custom'].includes(c.name) && readsManifest(c.file))
      .map((c) => c.name)
    expect(reading.length).toBeGreaterThan(3)
    // …unless every route it draws names its `forms:` and so has a part of its own (the sign-in pages).
    const ownPart = (name: string) => {
      const drawn = routes.filter((r) => r.component === name)
      return drawn.length > 0 && drawn.every((r) => r.part && hasManifestPart(r.name))
    }
    expect(reading.filter((name) => !READS_WHOLE_MANIFEST.includes(name) && !ownPart(name))).toEqual([])
    expect(reading.filter(ownPart).sort()).toEqual(['login', 'register', 'resetPassword'])
    // And name registered components only.
    const names = components.map((c) => c.name)
    expect(READS_WHOLE_MANIFEST.filter((name) => !names.includes(name))).toEqual([])
  })
})
