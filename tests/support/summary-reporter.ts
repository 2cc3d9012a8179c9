import { appendFileSync, mkdirSync } from 'node:fs'
import type { Reporter, TestModule } from 'vitest/node'
import { postgresOnlyMark } from './only-on.ts'

/**
 * Adds this run's counts to test-results/summary.jsonl; scripts/test.js prints the total and fails on any
 * `skipped`. A test marked PostgreSQL-only (tests/support/only-on.ts) and skipped on PGlite is counted
 * apart as `postgresOnly`: it declared its database, it was not forgotten.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    let passed = 0
    let failed = 0
    let skipped = 0
    let postgresOnly = 0
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state
        if (state === 'passed') passed++
        else if (state === 'failed') failed++
        else if (test.options.mode === 'skip' && test.fullName.includes(postgresOnlyMark)) postgresOnly++
        else skipped++
      }
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) failed++
    }
    mkdirSync('test-results', { recursive: true })
    appendFileSync('test-results/summary.jsonl', `${JSON.stringify({ passed, failed, skipped, postgresOnly })}\n`)
  }
}
