import type { TestProject } from 'vitest/node'
import { launchBrowserServer } from './browser.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The websocket of the run's one Chromium, which tests/support/portal.ts connects to. */
    chromiumEndpoint: string
  }
}

/**
 * The e2e project's global setup (issue #20): one Chromium for the whole run instead of one per test file.
 * Each file connects to it and works in browser contexts of its own (cookies and storage of their own), all
 * closed when the file disconnects; launching a browser took seconds per file on a loaded 2-core machine.
 */
export default async function shareChromium(project: TestProject) {
  const server = await launchBrowserServer()
  project.provide('chromiumEndpoint', server.wsEndpoint())
  return async () => {
    await server.close()
  }
}
