import { execFileSync } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir, userInfo } from 'node:os'
import { join } from 'node:path'
import { freePort } from './server.ts'

/**
 * A PostgreSQL server of a test's own (issue #29's faults): a fresh cluster (initdb) in a temporary directory on a
 * loopback port, which the test may restart or stop without disturbing the machine's server that the other test
 * files share. Debian's binaries (/usr/lib/postgresql/<version>/bin, or PG_BIN); as root the cluster runs as the
 * `postgres` user, since PostgreSQL refuses to run as root.
 */
export interface PostgresCluster {
  url: string
  port: number
  /** `pg_ctl restart -m fast`: every connection is cut, the server is back when it returns. */
  restart(): Promise<void>
  stop(): Promise<void>
}

function binDir(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN
  const root = '/usr/lib/postgresql'
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : []
  if (!versions[0]) throw new Error('No PostgreSQL server binaries (initdb) under /usr/lib/postgresql; set PG_BIN')
  return join(root, versions[0], 'bin')
}

export async function startPostgresCluster(): Promise<PostgresCluster> {
  const bin = binDir()
  const port = await freePort()
  const dir = mkdtempSync(join(tmpdir(), 'waybill-pg-'))
  const asRoot = userInfo().uid === 0
  if (asRoot)
    chownSync(
      dir,
      Number(execFileSync('id', ['-u', 'postgres']).toString()),
      Number(execFileSync('id', ['-g', 'postgres']).toString()),
    )
  const run = (tool: string, args: string[]) =>
    execFileSync(
      asRoot ? 'runuser' : join(bin, tool),
      asRoot ? ['-u', 'postgres', '--', join(bin, tool), ...args] : args,
      {
        stdio: 'pipe',
        timeout: 60_000,
      },
    )
  const data = join(dir, 'data')
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8'])
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200`
  const ctl = (...args: string[]) => run('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-w', '-o', options, ...args])
  ctl('start')
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async restart() {
      ctl('restart', '-m', 'fast')
    },
    async stop() {
      try {
        ctl('stop', '-m', 'immediate')
      } catch {}
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
