import { readFileSync } from 'node:fs'
import type { Manifest } from '../model/resolve.ts'

export type { Manifest }

let cached: Manifest | undefined

/** The manifest `waybill generate` wrote; the server is built from it. */
export function loadManifest(): Manifest {
  if (!cached) {
    const file = new URL('../generated/manifest.json', import.meta.url)
    try {
      cached = JSON.parse(readFileSync(file, 'utf8')) as Manifest
    } catch (error) {
      throw new Error(
        `generated/manifest.json is missing or unreadable: run \`npm run generate\` first (${(error as Error).message})`,
      )
    }
  }
  return cached
}
