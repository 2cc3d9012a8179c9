import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseDocument } from 'yaml'
import { checkProject, generateProject } from '../generator/pipeline.ts'

const ROOT = new URL('..', import.meta.url).pathname

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] as number
}

async function time(runs: number, work: () => unknown): Promise<number> {
  const samples: number[] = []
  for (let i = 0; i < runs; i++) {
    const started = performance.now()
    await work()
    samples.push(performance.now() - started)
  }
  return median(samples)
}

/** The least any generator must do: read and parse every configuration file. */
function parseAllYaml() {
  for (const dir of ['schemas', 'screens']) {
    for (const name of readdirSync(join(ROOT, dir))) {
      if (name.endsWith('.yaml')) parseDocument(readFileSync(join(ROOT, dir, name), 'utf8'))
    }
  }
}

function cliMs(args: string[], runs = 3): number {
  const samples: number[] = []
  for (let i = 0; i < runs; i++) {
    const started = performance.now()
    const result = spawnSync(process.execPath, ['generator/bin/waybill.js', ...args], { cwd: ROOT, encoding: 'utf8' })
    if (result.status !== 0) throw new Error(`waybill ${args.join(' ')} failed:\n${result.stderr}`)
    samples.push(performance.now() - started)
  }
  return median(samples)
}

export async function benchGenerator(): Promise<string[]> {
  const out = join(tmpdir(), `waybill-bench-${process.pid}`)
  await generateProject(ROOT, out) // warm-up: module loading, JIT
  const baseline = await time(7, parseAllYaml)
  const check = await time(7, () => checkProject(ROOT))
  const generate = await time(5, () => generateProject(ROOT, `${out}-${Math.random()}`))
  const checkCli = cliMs(['check'])
  const generateCli = cliMs(['generate', '-o', out])
  const row = (name: string, ms: number, budget?: number) =>
    `| ${name} | ${ms.toFixed(0)} ms | ${(ms / baseline).toFixed(1)}× | ${budget ? `${budget} ms ${ms <= budget ? 'met' : `missed by ${(ms - budget).toFixed(0)} ms`}` : ''} |`
  return [
    '## Generator',
    '',
    'Median of repeated runs over the full configuration, in one process after a warm-up; the baseline',
    'is parsing every YAML file and nothing else. "CLI" rows are whole commands, Node start-up included.',
    '',
    '| what | time | ratio to baseline | budget |',
    '| --- | --- | --- | --- |',
    `| baseline: parse all YAML | ${baseline.toFixed(1)} ms | 1.0× | |`,
    row('check (in process)', check, 1000),
    row('generate (in process)', generate, 2000),
    row('`waybill check` (CLI)', checkCli, 1000),
    row('`waybill generate` (CLI, up to date)', generateCli, 2000),
  ]
}
