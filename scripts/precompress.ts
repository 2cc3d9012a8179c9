import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import type { Plugin } from 'vite'

/**
 * Static assets compressed once, at build (issue #18): beside every compressible file of the build a `.br`
 * (brotli, best quality) and a `.gz` (gzip, level 9), which @fastify/static serves with `preCompressed: true`
 * to a browser that accepts them (server/portal/static.ts) — no compression work per request, and better
 * ratios than a server could afford on the fly.
 *
 * Skipped: files under 1 KB (the headers weigh more than the saving), index.html (the server fills it in
 * for every page, so it is compressed as it goes out), and a variant that would not be smaller.
 */

/** What compresses: text. Images other than SVG, fonts in woff2 and archives are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|map|wasm|ico|ttf|otf)$/i
export const MIN_BYTES = 1024

export interface Precompressed {
  file: string
  bytes: number
  br: number | null
  gz: number | null
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(entry.parentPath ?? dir, entry.name)
    return entry.isDirectory() ? filesUnder(path) : entry.isFile() ? [path] : []
  })
}

/** Writes `<file>.br` and `<file>.gz` beside each compressible file under `dir`; answers what it wrote. */
export function precompressDir(dir: string): Precompressed[] {
  const root = resolve(dir)
  const written: Precompressed[] = []
  for (const file of filesUnder(root)) {
    const name = relative(root, file).split('\\').join('/')
    if (!COMPRESSIBLE.test(name) || name === 'index.html') continue
    if (statSync(file).size < MIN_BYTES) continue
    const bytes = readFileSync(file)
    const br = brotliCompressSync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    })
    const gz = gzipSync(bytes, { level: constants.Z_BEST_COMPRESSION })
    const entry: Precompressed = { file: name, bytes: bytes.length, br: null, gz: null }
    if (br.length < bytes.length) {
      writeFileSync(`${file}.br`, br)
      entry.br = br.length
    }
    if (gz.length < bytes.length) {
      writeFileSync(`${file}.gz`, gz)
      entry.gz = gz.length
    }
    written.push(entry)
  }
  return written
}

/** The vite plugin: precompresses the build's output directory (assets and public files) once it is written. */
export function precompress(): Plugin {
  let outDir = ''
  return {
    name: 'waybill:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir)
    },
    closeBundle: {
      order: 'post',
      handler() {
        if (outDir) precompressDir(outDir)
      },
    },
  }
}
