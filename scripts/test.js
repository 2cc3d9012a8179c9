#!/usr/bin/env node
// `npm test`: everything that must pass, in the order that fails fastest.
// With DATABASE_URL set, the API suite runs a second time against PostgreSQL.
//
// The steps of one stage run at once (issue #20): the build beside the PGlite API leg, and the PostgreSQL API
// leg beside the end-to-end leg — their waits (PostgreSQL, Chromium) leave CPU the other uses. The first step
// of a stage prints as it runs; the others' output is kept and printed whole after it, so no two interleave.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, rmSync } from 'node:fs'

// Time under control (issue #20, docs/TESTING.md): every leg runs in Shanghai's zone, where UTC is still
// yesterday until 08:00, and the API legs on a server clock fixed either side of a tenant's midnight (and of a
// year's end) — a test or a rule that takes the machine's UTC day for the tenant's fails one of them. The e2e
// leg runs after midnight too: its server runs in the test's process on the same clock, and every browser
// context it opens starts its page's clock there (tests/support/browser.ts openContext).
const SHANGHAI = 'Asia/Shanghai'
const BEFORE_MIDNIGHT = { TZ: SHANGHAI, WAYBILL_NOW: '2026-12-31T23:30:00+08:00' }
const AFTER_MIDNIGHT = { TZ: SHANGHAI, WAYBILL_NOW: '2027-01-01T00:30:00+08:00' }

const stages = [
  [['generate', 'node', ['generator/bin/waybill.js', 'generate']]],
  [['typecheck', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']]],
  [['lint', 'npx', ['biome', 'check', '.']]],
  [['unit', 'npx', ['vitest', 'run', '--project', 'unit'], BEFORE_MIDNIGHT]],
  [
    ['api (PGlite)', 'npx', ['vitest', 'run', '--project', 'api'], { TEST_DB: 'pglite', ...BEFORE_MIDNIGHT }],
    ['build', 'npx', ['vite', 'build', '--logLevel', 'warn']],
  ],
  [['chromium', 'node', ['scripts/ensure-chromium.js']]],
  // The scale-out test's HAProxy (Debian's), for the PostgreSQL leg only; after Chromium's, not beside it (one apt).
  ...(process.env.DATABASE_URL ? [[['haproxy', 'node', ['scripts/ensure-haproxy.js']]]] : []),
  [
    ['e2e', 'npx', ['vitest', 'run', '--project', 'e2e'], AFTER_MIDNIGHT],
    ...(process.env.DATABASE_URL
      ? [['api (PostgreSQL)', 'npx', ['vitest', 'run', '--project', 'api'], { TEST_DB: 'postgres', ...AFTER_MIDNIGHT }]]
      : []),
  ],
]

/** Runs one step: its output straight to the terminal (`live`), or kept to be printed after. */
function run([name, command, args, env = {}], live) {
  const started = Date.now()
  return new Promise((resolve) => {
    const output = []
    const done = (status) =>
      resolve({ name, status, output: Buffer.concat(output), seconds: (Date.now() - started) / 1000 })
    const child = spawn(command, args, {
      stdio: live ? 'inherit' : ['ignore', 'pipe', 'pipe'],
      // Kept output is printed to the same terminal later: keep its colours.
      env: { ...process.env, ...(!live && process.stdout.isTTY ? { FORCE_COLOR: '1' } : {}), ...env },
    })
    child.stdout?.on('data', (chunk) => output.push(chunk))
    child.stderr?.on('data', (chunk) => output.push(chunk))
    child.on('error', (error) => {
      output.push(Buffer.from(`${command}: ${error.message}\n`))
      done(1)
    })
    child.on('close', (status) => done(status ?? 1))
  })
}

rmSync('test-results/summary.jsonl', { force: true })
const failedSteps = []
const times = []
for (const stage of stages) {
  const [first, ...beside] = stage
  console.log(`\n▶ ${first[0]}${beside.length ? ` (beside it: ${beside.map(([name]) => name).join(', ')})` : ''}`)
  const results = await Promise.all(stage.map((step, i) => run(step, i === 0)))
  for (const result of results.slice(1)) {
    console.log(`\n▶ ${result.name} (ran beside ${first[0]})`)
    process.stdout.write(result.output)
  }
  for (const result of results) {
    times.push(`${result.name} ${Math.round(result.seconds)} s`)
    if (result.status !== 0) failedSteps.push(result.name)
  }
  if (failedSteps.length) break
}
const failedStep = failedSteps.join(', ')

let passed = 0
let failed = 0
let skipped = 0
let postgresOnly = 0
const failures = []
if (existsSync('test-results/summary.jsonl')) {
  for (const line of readFileSync('test-results/summary.jsonl', 'utf8').trim().split('\n').filter(Boolean)) {
    const counts = JSON.parse(line)
    passed += counts.passed
    failed += counts.failed
    skipped += counts.skipped
    postgresOnly += counts.postgresOnly ?? 0
    failures.push(...(counts.failures ?? []))
  }
}
if (failedStep) console.error(`\n✖ npm test stopped at: ${failedStep}`)
// Each leg's output may have scrolled far above (a leg beside another prints first): name what failed last.
for (const failure of failures) console.error(`  ✖ ${failure}`)
if (failedStep && failed === 0) failed = 1
console.log(`\ntests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped or todo` : ''}`)
// A test that runs only on PostgreSQL says so in its name (tests/support/only-on.ts); any other skip is a
// test nobody runs, so it fails the run.
if (postgresOnly) console.log(`${postgresOnly} PostgreSQL-only tests not run on PGlite`)
if (skipped) console.error(`✖ ${skipped} tests skipped or todo: run them, delete them, or mark them PostgreSQL-only`)
console.log(`steps: ${times.join(', ')}`)
process.exit(failedStep || skipped ? 1 : 0)
