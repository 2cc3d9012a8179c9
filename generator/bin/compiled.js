// The generator compiled to JavaScript for the `waybill` command: Node 20 cannot run TypeScript, and
// loading it through tsx (a loader thread transforming each of ~140 modules) cost most of a `check`.
// generator/cli.ts and what it imports are bundled once into node_modules/.cache/waybill/cli/ and rebuilt
// when any of those files changes (their sizes and times are kept beside the bundle), so there is still
// no build step to forget.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const CACHE = join(ROOT, 'node_modules/.cache/waybill/cli')
const CURRENT = join(CACHE, 'current.json')

/** Size and modification time of each file, or undefined when one is gone. */
function signature(files) {
  try {
    return Object.fromEntries(
      files.map((file) => {
        const stat = statSync(join(ROOT, file))
        return [file, `${stat.size}:${stat.mtimeMs}`]
      }),
    )
  } catch {
    return undefined
  }
}

function fresh() {
  try {
    const current = JSON.parse(readFileSync(CURRENT, 'utf8'))
    const now = signature(Object.keys(current.inputs))
    if (current.node !== process.version || !now) return undefined
    for (const [file, stamp] of Object.entries(current.inputs)) if (now[file] !== stamp) return undefined
    return join(CACHE, current.dir, 'cli.mjs')
  } catch {
    return undefined
  }
}

async function build() {
  const { build } = await import('esbuild')
  const dir = `build-${Date.now()}-${process.pid}`
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: ['generator/cli.ts'],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: `node${process.versions.node.split('.')[0]}`,
    packages: 'external',
    outdir: join(CACHE, dir),
    outExtension: { '.js': '.mjs' },
    metafile: true,
    logLevel: 'silent',
    plugins: [
      {
        name: 'waybill',
        setup(plugin) {
          // The server is loaded only by `waybill migrate`, which runs through tsx (bin/waybill.js).
          plugin.onResolve({ filter: /\/server\// }, (args) => ({
            path: pathToFileURL(join(args.resolveDir, args.path)).href,
            external: true,
          }))
          // Each module keeps its own import.meta.url, so files it reads beside itself are found.
          plugin.onLoad({ filter: /\.ts$/ }, (args) => ({
            contents: readFileSync(args.path, 'utf8').replaceAll(
              'import.meta.url',
              JSON.stringify(pathToFileURL(args.path).href),
            ),
            loader: 'ts',
          }))
        },
      },
    ],
  })
  const inputs = signature(Object.keys(result.metafile.inputs).map((file) => relative(ROOT, join(ROOT, file))))
  const next = join(CACHE, `current-${process.pid}.json`)
  writeFileSync(next, JSON.stringify({ node: process.version, dir, inputs }))
  renameSync(next, CURRENT)
  removeOldBuilds(dir)
  return join(CACHE, dir, 'cli.mjs')
}

/** Builds replaced more than ten minutes ago (a command started before may still load their chunks). */
function removeOldBuilds(keep) {
  for (const name of readdirSync(CACHE)) {
    const path = join(CACHE, name)
    if (!name.startsWith('build-') || name === keep) continue
    if (Date.now() - statSync(path).mtimeMs > 10 * 60_000) rmSync(path, { recursive: true, force: true })
  }
}

/** The bundled CLI, built if the sources changed; undefined where it cannot be built (then tsx runs it). */
export async function compiledCli() {
  if (process.env.WAYBILL_TSX) return undefined
  try {
    mkdirSync(dirname(CURRENT), { recursive: true })
    return pathToFileURL(fresh() ?? (await build())).href
  } catch {
    return undefined
  }
}
