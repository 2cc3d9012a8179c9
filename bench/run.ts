import { writeFileSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'
import { benchAnalytics } from './analytics.ts'
import { benchAnalyticsRecord } from './analytics-record.ts'
import { benchBundle } from './bundle.ts'
import { benchChat } from './chat.ts'
import { benchExport } from './export.ts'
import { benchGenerator } from './generator.ts'
import { benchLetterDelay } from './letter-delay.ts'
import { benchLighthouse } from './lighthouse.ts'
import { benchMail } from './mail.ts'
import { benchOrders } from './orders.ts'
import { benchRates } from './rates.ts'

/** `npm run bench`: every benchmark, written to bench/results/latest.md. Numbers, never pass/fail. */
const sections = [
  await benchGenerator(),
  await benchBundle(),
  await benchLighthouse(),
  await benchRates(),
  await benchOrders(),
  await benchExport(),
  await benchMail(),
  await benchLetterDelay(),
  await benchChat(),
  await benchAnalytics(),
  await benchAnalyticsRecord(),
]
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`
const report = [
  `# Benchmarks — ${new Date().toISOString().slice(0, 10)}`,
  '',
  `Machine: ${machine}`,
  '',
  ...sections.flatMap((s) => [...s, '']),
].join('\n')
writeFileSync(new URL('./results/latest.md', import.meta.url), report)
console.log(report)
