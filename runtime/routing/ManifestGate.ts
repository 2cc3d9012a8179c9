import { type ReactNode, use } from 'react'
import { loadManifest } from '../screens/manifest.ts'

/**
 * Draws a screen once its part of the manifest is there (runtime/screens/manifest.ts), suspending until
 * then: the screen's look-ups (screenDef, entityDef…) read the loaded part synchronously.
 */
export default function ManifestGate({ part, children }: { part: string; children: ReactNode }): ReactNode {
  use(loadManifest(part))
  return children
}
