import { appendFileSync, mkdirSync } from 'node:fs'
import type { Reporter, TestCase, TestModule } from 'vitest/node'
import { postgresOnlyMark } from './only-on.ts'

/**
 * Adds this run's counts to test-results/summary.jsonl; scripts/test.js prints the total and fails on any
 * `skipped`. A test marked PostgreSQL-only (tests/support/only-on.ts) and skipped on PGlite is counted
 * apart as `postgresOnly`: it declared its database, it was not forgotten. The failed tests are named with
 * their first error line, so the last lines of a run say what failed even when a leg's output scrolled away.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    let passed = 0
    let failed = 0
    let skipped = 0
    let postgresOnly = 0
    const failures: string[] = []
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state
        if (state === 'passed') passed++
        else if (state === 'failed') {
          failed++
          const journal = test.meta().journal
          failures.push(
            `${module.moduleId.replace(`${process.cwd()}/`, '')} › ${test.fullName}: ${firstLine(test)}` +
              (journal ? `\n    ${journal.split('\n').join('\n    ')}` : ''),
          )
        } else if (test.options.mode === 'skip' && test.fullName.includes(postgresOnlyMark)) postgresOnly++
        else skipped++
      }
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) {
        failed++
        failures.push(`${module.moduleId.replace(`${process.cwd()}/`, '')}: ${module.errors()[0]?.message ?? 'failed'}`)
      }
    }
    mkdirSync('test-results', { recursive: true })
    appendFileSync(
      'test-results/summary.jsonl',
      `${JSON.stringify({ passed, failed, skipped, postgresOnly, failures })}\n`,
    )
  }
}

/** The first line of a failed test's first error, and the line of its own file it came from. */
function firstLine(test: TestCase): string {
  const result = test.result()
  const error = result.state === 'failed' ? result.errors[0] : undefined
  const message = (error?.message.split('\n')[0] ?? '').slice(0, 300)
  const at = error?.stacks?.find((frame) => frame.file === test.module.moduleId)
  return at ? `${message} (line ${at.line})` : message
}
