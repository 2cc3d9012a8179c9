import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { pgliteTemplate } from './template.ts'

export interface RunningServer {
  url: string
  port: number
  dataDir: string
  process: ChildProcess
  output: () => string
  stop(signal?: NodeJS.Signals): Promise<number | null>
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      )
    })
  })
}

/**
 * A data directory holding a copy of the seeded template (tests/support/template.ts), for a server process that
 * needs its own data but not to watch it being seeded (issue #20: seeding one took most of such a file's minute).
 */
export async function seededDataDir(dataDir = mkdtempSync(join(tmpdir(), 'waybill-seeded-'))): Promise<string> {
  const pglite = new PGlite(join(dataDir, 'pglite'), { loadDataDir: await pgliteTemplate() })
  await pglite.waitReady
  await pglite.close()
  return dataDir
}

/**
 * How long a server may take to answer its first health check: tsx compiling the server, migrations and the seed
 * on an empty database. About 20 s on CI's machine; a slower machine running the e2e leg beside it took over 90.
 * Waiting is not what these tests assert, so the limit is generous; a server that never starts still fails.
 */
export const STARTUP_MS = 240_000

/**
 * Starts the real server the way `npm start` does (without rebuilding), on a free port and a
 * data directory of its own, and waits for /api/health.
 */
export async function startServer(
  options: { dataDir?: string; env?: Record<string, string> } = {},
): Promise<RunningServer> {
  const port = await freePort()
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'waybill-e2e-'))
  let log = ''
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: '', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout?.on('data', (chunk) => {
    log += chunk
  })
  child.stderr?.on('data', (chunk) => {
    log += chunk
  })
  const url = `http://localhost:${port}`
  const deadline = Date.now() + STARTUP_MS
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${log}`)
    try {
      const response = await fetch(`${url}/api/health`)
      if (response.ok) break
    } catch {}
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`server did not answer /api/health within ${STARTUP_MS / 1000} s:\n${log}`)
    }
    await new Promise((r) => setTimeout(r, 250))
  }
  return {
    url,
    port,
    dataDir,
    process: child,
    output: () => log,
    stop(signal = 'SIGTERM') {
      return new Promise((resolve) => {
        // A process killed by a signal has no exit code, only a signal code: it has exited all the same.
        if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode)
        child.once('exit', (code) => {
          if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true })
          resolve(code)
        })
        child.kill(signal)
      })
    },
  }
}
