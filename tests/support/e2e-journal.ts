import { afterEach } from 'vitest'
import { contextJournals } from './browser.ts'

declare module 'vitest' {
  interface TaskMeta {
    /** A failed e2e test's pages and refusals (tests/support/browser.ts contextJournals). */
    journal?: string
  }
}

// Every e2e file (vitest.config.ts setupFiles): a failed test's report says where each of its pages was, what it
// showed and what the server refused — every context is opened through openContext, whichever server it drives.
// tests/support/summary-reporter.ts prints it under the failure.
afterEach(async ({ task }) => {
  if (task.result?.state === 'fail') task.meta.journal = await contextJournals()
})
