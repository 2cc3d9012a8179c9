import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { routes } from '../../generated/routes.ts'
import { emitLocales, TEXT_BUNDLES } from '../../generator/emit/index.ts'
import { loadSources } from '../../generator/load.ts'
import { hasMore } from '../../runtime/shell/Notifications.tsx'
import { textsFor } from '../../runtime/shell/texts.ts'
import { initials } from '../../runtime/shell/UserTools.tsx'

const ROOT = new URL('../..', import.meta.url).pathname
const sources = loadSources(ROOT)
const namespaceOf = (key: string) => key.slice(0, key.indexOf('.'))

describe('the text bundles the generator writes for the portal', () => {
  const files = emitLocales(sources)
  const bundle = (language: string, name: string): Record<string, string> =>
    JSON.parse(files.find((file) => file.path === `locales/${language}/${name}.json`)?.content ?? 'null')

  it('hold every key of a language exactly once, the site and server bundles only their namespaces', () => {
    for (const [language, flat] of Object.entries(sources.locales)) {
      const screens = bundle(language, 'screens')
      const named = Object.keys(TEXT_BUNDLES) as (keyof typeof TEXT_BUNDLES)[]
      const keys = [...named.flatMap((name) => Object.keys(bundle(language, name))), ...Object.keys(screens)]
      expect(keys.sort()).toEqual(Object.keys(flat).sort())
      for (const name of named)
        expect(new Set(Object.keys(bundle(language, name)).map(namespaceOf)), name).toEqual(new Set(TEXT_BUNDLES[name]))
      expect(Object.keys(screens).map(namespaceOf)).toEqual(expect.arrayContaining(['field', 'validation', 'letter']))
    }
  })

  it('are the same bytes every time', () => {
    expect(emitLocales(sources)).toEqual(files)
  })
})

describe('the texts a page loads', () => {
  it('are the site bundle on public site pages and redirects, and the screens too everywhere else', () => {
    const route = (name: string) => routes.find((r) => r.name === name) as (typeof routes)[number]
    expect(textsFor(route('dashboard'))).toEqual(['site'])
    expect(textsFor(route('home'))).toEqual(['site'])
    expect(textsFor(route('login'))).toEqual(['site', 'screens'])
    expect(textsFor(route('orderList'))).toEqual(['site', 'screens'])
    expect(textsFor(route('letterList'))).toEqual(['site', 'screens'])
  })

  it('add the tracking and news texts only on their own pages', () => {
    const route = (name: string) => routes.find((r) => r.name === name) as (typeof routes)[number]
    expect(textsFor(route('orderTracking'))).toEqual(['site', 'tracking'])
    expect(textsFor(route('news'))).toEqual(['site', 'news'])
    expect(textsFor(route('dashboard'))).not.toContain('news')
  })

  it('add the tracking texts to a workbench screen whose labels name them, so no key shows before its text', () => {
    const route = (name: string) => routes.find((r) => r.name === name) as (typeof routes)[number]
    // The order detail's Share tracking action, the links list's columns and Revoke, the operator's trajectory.
    for (const name of ['orderDetails', 'trackingLinks', 'trajectoryEvents'])
      expect(textsFor(route(name)), name).toEqual(['site', 'screens', 'tracking'])
    expect(textsFor(route('orderList'))).not.toContain('tracking')
  })

  it('cover every key the public pages and the shell name, so a visitor never loads the screens bundle', () => {
    // What a visitor's page draws: the route gate, the shell and its menus, the home and status pages.
    const files = [
      'runtime/App.tsx',
      'runtime/client.tsx',
      'runtime/routing/RouteGate.tsx',
      'runtime/routing/menus.ts',
      'runtime/shell/Shell.tsx',
      'runtime/shell/MenuButton.tsx',
      'runtime/shell/EffectsHost.tsx',
      'runtime/shell/StatusPage.tsx',
      'runtime/site/Home.tsx',
    ]
    const named = files.flatMap((file) =>
      [
        ...readFileSync(`${ROOT}${file}`, 'utf8').matchAll(/(?:\bt\(|label: )\s*['`]([a-z][A-Za-z]*)\.([A-Za-z_$]+)/g),
      ].map((match) => ({ file, namespace: match[1] as string, key: `${match[1]}.${match[2]}` })),
    )
    expect(named.length).toBeGreaterThan(20)
    expect(named.filter((use) => !(TEXT_BUNDLES.site as readonly string[]).includes(use.namespace))).toEqual([])
    // Every route's title too: the tab title of any page.
    expect(
      routes.filter((route) => !(TEXT_BUNDLES.site as readonly string[]).includes(namespaceOf(route.title))),
    ).toEqual([])
  })
})

describe('the top bar', () => {
  it('offers more letters while pageNum × pageSize < total (SPEC §9)', () => {
    expect(hasMore({ pageNum: 1, pageSize: 5, total: 6 })).toBe(true)
    expect(hasMore({ pageNum: 1, pageSize: 5, total: 5 })).toBe(false)
    expect(hasMore({ pageNum: 2, pageSize: 5, total: 11 })).toBe(true)
    expect(hasMore({ pageNum: 1, pageSize: 5, total: 0 })).toBe(false)
  })

  it('draws the initials of a name the way Fluent’s Avatar does', () => {
    expect(initials('Li Wei')).toBe('LW')
    expect(initials('Hangzhou Minghui Textile')).toBe('HT')
    expect(initials('刘洋')).toBe('刘')
    expect(initials('opadmin')).toBe('O')
    expect(initials('  ')).toBe('')
  })
})
