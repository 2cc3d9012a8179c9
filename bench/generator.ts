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

/** CPU time (user + system) of this process's finished children, in ms; undefined off Linux. */
function childrenCpuMs(): number | undefined {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? []
    return (Number(fields[13]) + Number(fields[14])) * 10
  } catch {
    return undefined
  }
}

/** A whole command, Node start-up included: median wall time, and median CPU time (less moved by other load). */
function commandMs(args: string[], runs = 5): { wall: number; cpu?: number } {
  const wall: number[] = []
  const cpu: number[] = []
  spawnSync(process.execPath, args, { cwd: ROOT }) // warm-up: the compiled CLI is built if its sources changed
  for (let i = 0; i < runs; i++) {
    const cpuBefore = childrenCpuMs()
    const started = performance.now()
    const result = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' })
    if (result.status !== 0) throw new Error(`${args.join(' ')} failed:\n${result.stderr}`)
    wall.push(performance.now() - started)
    const cpuAfter = childrenCpuMs()
    if (cpuBefore !== undefined && cpuAfter !== undefined) cpu.push(cpuAfter - cpuBefore)
  }
  return { wall: median(wall), cpu: cpu.length ? median(cpu) : undefined }
}

export async function benchGenerator(): Promise<string[]> {
  const out = join(tmpdir(), `waybill-bench-${process.pid}`)
  await generateProject(ROOT, out) // warm-up: module loading, JIT
  const baseline = await time(7, parseAllYaml)
  const check = await time(7, () => checkProject(ROOT))
  const generate = await time(5, () => generateProject(ROOT, `${out}-${Math.random()}`))
  const node = commandMs(['-e', ''])
  const checkCli = commandMs(['generator/bin/waybill.js', 'check'])
  const generateCli = commandMs(['generator/bin/waybill.js', 'generate', '-o', out])
  const row = (name: string, ms: number, budget?: number, cpu?: number) =>
    `| ${name} | ${ms.toFixed(0)} ms | ${cpu === undefined ? '' : `${cpu.toFixed(0)} ms`} | ${(ms / baseline).toFixed(1)}× | ${budget ? `${budget} ms ${ms <= budget ? 'met' : `missed by ${(ms - budget).toFixed(0)} ms`}` : ''} |`
  return [
    '## Generator',
    '',
    'Median of repeated runs over the full configuration, in one process after a warm-up; the baseline',
    'is parsing every YAML file and nothing else. Commands are whole processes, Node start-up included',
    '(CPU: user + system time of the process, less moved than wall time by other work on the machine).',
    '',
    '| what | time | CPU | ratio to baseline | budget |',
    '| --- | --- | --- | --- | --- |',
    `| baseline: parse all YAML | ${baseline.toFixed(1)} ms | | 1.0× | |`,
    row('check (in process)', check, 1000),
    row('generate (in process)', generate, 2000),
    row("Node start-up (`node -e ''`)", node.wall, undefined, node.cpu),
    row('`waybill check` (command)', checkCli.wall, 1000, checkCli.cpu),
    row('`waybill generate` (command, up to date)', generateCli.wall, 2000, generateCli.cpu),
  ]
}
