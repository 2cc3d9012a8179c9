#!/usr/bin/env node
// `npm test`: everything that must pass, in the order that fails fastest.
// With DATABASE_URL set, the API suite runs a second time against PostgreSQL.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync } from 'node:fs'

const steps = [
  ['generate', 'node', ['generator/bin/waybill.js', 'generate']],
  ['typecheck', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']],
  ['lint', 'npx', ['biome', 'check', '.']],
  ['unit', 'npx', ['vitest', 'run', '--project', 'unit']],
  ['api (PGlite)', 'npx', ['vitest', 'run', '--project', 'api'], { TEST_DB: 'pglite' }],
  ...(process.env.DATABASE_URL
    ? [['api (PostgreSQL)', 'npx', ['vitest', 'run', '--project', 'api'], { TEST_DB: 'postgres' }]]
    : []),
  ['chromium', 'node', ['scripts/ensure-chromium.js']],
  ['build', 'npx', ['vite', 'build', '--logLevel', 'warn']],
  ['e2e', 'npx', ['vitest', 'run', '--project', 'e2e']],
]

rmSync('test-results/summary.jsonl', { force: true })
let failedStep
for (const [name, command, args, env = {}] of steps) {
  console.log(`\n▶ ${name}`)
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } })
  if (result.status !== 0) {
    failedStep = name
    break
  }
}

let passed = 0
let failed = 0
let skipped = 0
let postgresOnly = 0
if (existsSync('test-results/summary.jsonl')) {
  for (const line of readFileSync('test-results/summary.jsonl', 'utf8').trim().split('\n').filter(Boolean)) {
    const counts = JSON.parse(line)
    passed += counts.passed
    failed += counts.failed
    skipped += counts.skipped
    postgresOnly += counts.postgresOnly ?? 0
  }
}
if (failedStep) console.error(`\n✖ npm test stopped at: ${failedStep}`)
if (failedStep && failed === 0) failed = 1
console.log(`\ntests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped or todo` : ''}`)
// A test that runs only on PostgreSQL says so in its name (tests/support/only-on.ts); any other skip is a
// test nobody runs, so it fails the run.
if (postgresOnly) console.log(`${postgresOnly} PostgreSQL-only tests not run on PGlite`)
if (skipped) console.error(`✖ ${skipped} tests skipped or todo: run them, delete them, or mark them PostgreSQL-only`)
process.exit(failedStep || skipped ? 1 : 0)
