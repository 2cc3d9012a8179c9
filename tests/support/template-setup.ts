import { pgliteTemplate, postgresTemplate, templatesEnabled } from './template.ts'

/**
 * The api project's globalSetup: builds the seeded template once before the workers start, so two files
 * starting together do not both build it (tests/support/template.ts).
 */
export default async function buildTemplate(): Promise<void> {
  if (!templatesEnabled()) return
  if (process.env.TEST_DB !== 'postgres') await pgliteTemplate()
  else if (process.env.DATABASE_URL) await postgresTemplate(process.env.DATABASE_URL)
}
