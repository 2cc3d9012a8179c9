import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { cruise, type IConfiguration, type ICruiseOptions } from 'dependency-cruiser'
import { afterAll, describe, expect, it } from 'vitest'

/**
 * The architecture check (issue #19 point 4, DESIGN §2): the rules of .dependency-cruiser.cjs hold on the
 * whole tree, and each rule fails when a small tree breaks it.
 */
const ROOT = new URL('../../', import.meta.url).pathname
const config = createRequire(import.meta.url)(join(ROOT, '.dependency-cruiser.cjs')) as IConfiguration
const ROOMS = ['generator', 'model', 'rules', 'server', 'runtime']

async function violations(baseDir: string, paths: string[]): Promise<string[]> {
  const options: ICruiseOptions = {
    ...(config.options as ICruiseOptions),
    ruleSet: { forbidden: config.forbidden },
    validate: true,
    baseDir,
  }
  const result = await cruise(paths, options)
  if (typeof result.output === 'string') throw new Error('expected the cruise result as an object')
  return result.output.summary.violations
    .map((v) =>
      v.cycle?.length
        ? `${v.rule.name}: ${[v.from, ...v.cycle.map((c) => c.name)].join(' → ')}`
        : `${v.rule.name}: ${v.from} → ${v.to}`,
    )
    .sort()
}

const made: string[] = []
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true })
})

/** A tree of a few files (path → source) in a temporary folder. */
function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'waybill-architecture-'))
  made.push(dir)
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  return dir
}

/** Rooms that keep every rule: the engine registers, the domain registers with it, both use the model. */
const CLEAN = {
  'model/definitions.ts': 'export type EntityDef = { entity: string }\n',
  'rules/index.ts':
    "import type { EntityDef } from '../model/definitions.ts'\nexport const named = (e: EntityDef) => e.entity\n",
  'server/engine/registry.ts': 'export const effects = new Map<string, () => void>()\n',
  'server/engine/core.ts':
    "import { effects } from './registry.ts'\nexport const run = (name: string) => effects.get(name)?.()\n",
  'server/domain/orders/effects.ts':
    "import { effects } from '../../engine/registry.ts'\nexport const register = () => effects.set('ship', () => {})\n",
  'runtime/registry.ts':
    "import { lazy } from 'react'\nexport type ScreenProps = { route: string }\nexport const screens = { home: lazy(() => import('./Home.tsx')) }\n",
  'runtime/Home.tsx':
    "import type { ScreenProps } from './registry.ts'\nimport { named } from '../rules/index.ts'\nexport default (p: ScreenProps) => <>{named({ entity: p.route })}</>\n",
  'generator/cli.ts': "import { named } from '../rules/index.ts'\nexport const cli = named\n",
}

describe('the architecture check', () => {
  it('finds no violation in the repository', { timeout: 120_000 }, async () => {
    expect(await violations(ROOT, ROOMS)).toEqual([])
  })

  it('finds none in a small tree that keeps the rules (a lazy screen may name its registry’s types)', async () => {
    expect(await violations(tree(CLEAN), ROOMS)).toEqual([])
  })

  it('fails when the engine imports a domain module', async () => {
    const dir = tree({
      ...CLEAN,
      'server/engine/core.ts':
        "import { effects } from './registry.ts'\nimport { register } from '../domain/orders/effects.ts'\nregister()\nexport const run = (name: string) => effects.get(name)?.()\n",
    })
    expect(await violations(dir, ROOMS)).toEqual([
      'engine-not-to-domain: server/engine/core.ts → server/domain/orders/effects.ts',
    ])
  })

  it('fails on a cycle', async () => {
    const dir = tree({
      ...CLEAN,
      'model/definitions.ts':
        "import { named } from './names.ts'\nexport type EntityDef = { entity: string }\nexport const n = named\n",
      'model/names.ts': "import { n } from './definitions.ts'\nexport const named = () => n\n",
    })
    expect(await violations(dir, ROOMS)).toEqual([
      'no-circular: model/definitions.ts → model/names.ts → model/definitions.ts',
    ])
  })

  it('fails when the portal imports the server (a .tsx file too) and the server the portal', async () => {
    const dir = tree({
      ...CLEAN,
      'runtime/Home.tsx':
        "import type { ScreenProps } from './registry.ts'\nimport { run } from '../server/engine/core.ts'\nexport default (p: ScreenProps) => <>{run(p.route)}</>\n",
      'server/engine/labels.ts': "import { screens } from '../../runtime/registry.ts'\nexport const all = screens\n",
    })
    expect(await violations(dir, ROOMS)).toEqual([
      'runtime-not-to-server: runtime/Home.tsx → server/engine/core.ts',
      'server-not-to-runtime: server/engine/labels.ts → runtime/registry.ts',
    ])
  })

  it('fails when a pure room imports the server, or the server loads the generator', async () => {
    const dir = tree({
      ...CLEAN,
      'model/resolve.ts': "import { run } from '../server/engine/core.ts'\nexport const resolve = run\n",
      'server/manifest.ts': "import { cli } from '../generator/cli.ts'\nexport const manifest = cli\n",
    })
    expect(await violations(dir, ROOMS)).toEqual([
      'no-generator-at-run-time: server/manifest.ts → generator/cli.ts',
      'pure-rooms-stay-pure: model/resolve.ts → server/engine/core.ts',
    ])
  })
})
