import { appendFileSync, mkdirSync } from 'node:fs'
import type { Reporter, TestModule } from 'vitest/node'

/** Adds this run's counts to test-results/summary.jsonl; scripts/test.js prints the total as "N passed, N failed". */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    let passed = 0
    let failed = 0
    let skipped = 0
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state
        if (state === 'passed') passed++
        else if (state === 'failed') failed++
        else skipped++
      }
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) failed++
    }
    mkdirSync('test-results', { recursive: true })
    appendFileSync('test-results/summary.jsonl', `${JSON.stringify({ passed, failed, skipped })}\n`)
  }
}
