import { defineConfig } from 'vitest/config'

const reporters = ['default', './tests/support/summary-reporter.ts']

export default defineConfig({
  test: {
    reporters,
    projects: [
      // Unit files share their worker's modules too (isolate: false): importing the generator, the rules and the
      // runtime again for every file was most of the leg's time (104 s → 52 s); the files pass in any order
      // (run shuffled with --sequence.shuffle.files).
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts', 'generator/**/*.test.ts', 'rules/**/*.test.ts'],
          isolate: false,
        },
      },
      // API tests open a database each, a copy of the seeded template globalSetup builds once per run
      // (tests/support/template.ts); two at a time is what a 2-core machine takes. A worker keeps the modules it
      // loaded from one file to the next (isolate: false): loading the server's modules again for every file
      // was a third of the suite's CPU time, and every file builds an app and a database of its own anyway —
      // the server keeps nothing per process that a second app could read (docs/TESTING.md).
      {
        test: {
          name: 'api',
          isolate: false,
          include: ['tests/api/**/*.test.ts'],
          globalSetup: ['tests/support/template-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          maxWorkers: 2,
        },
      },
      // Each e2e file serves the portal from its own process on a fresh copy of the same template and works in
      // contexts of its own on the run's one Chromium (tests/support/portal.ts), so two files run at once.
      // A journey's limit is generous: its assertions are its waits (30 s each, tests/support/portal.ts WAIT), not
      // its length — the longest took 88 s of a 90 s limit on a machine half as fast as CI's.
      {
        test: {
          name: 'e2e',
          isolate: false,
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/support/template-setup.ts', 'tests/support/browser-setup.ts'],
          setupFiles: ['tests/support/e2e-journal.ts'],
          testTimeout: 180_000,
          hookTimeout: 300_000,
          maxWorkers: 2,
        },
      },
    ],
  },
})
