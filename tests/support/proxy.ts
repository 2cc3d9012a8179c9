import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from './server.ts'

/** Debian's haproxy (scripts/ensure-haproxy.js installs it for the PostgreSQL leg). */
const HAPROXY = process.env.HAPROXY_PATH ?? '/usr/sbin/haproxy'

/**
 * HAProxy from Debian's package in front of server replicas (issue #29's scale-out test): round robin, health
 * checks on /api/health, a connection refused retried on the other replica (`retry-on conn-failure` with
 * `option redispatch`), the Host header passed on (the tenant comes from it) and X-Forwarded-For added. Each
 * answer says which replica served it in `X-Replica`.
 */
export interface RunningProxy {
  url: string
  port: number
  stop(): Promise<void>
}

export async function startHaproxy(replicas: { name: string; port: number }[]): Promise<RunningProxy> {
  const port = await freePort()
  const dir = mkdtempSync(join(tmpdir(), 'waybill-haproxy-'))
  const config = join(dir, 'haproxy.cfg')
  writeFileSync(
    config,
    `global
  maxconn 512
defaults
  mode http
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  retries 3
  option redispatch
  retry-on conn-failure empty-response
frontend web
  bind 127.0.0.1:${port}
  option forwardfor
  default_backend replicas
backend replicas
  balance roundrobin
  option httpchk GET /api/health
  default-server inter 300ms fall 2 rise 2
  http-response set-header X-Replica %[srv_name]
${replicas.map((r) => `  server ${r.name} 127.0.0.1:${r.port} check`).join('\n')}
`,
  )
  let log = ''
  const child: ChildProcess = spawn(HAPROXY, ['-f', config, '-db'], { stdio: ['ignore', 'pipe', 'pipe'] })
  child.stdout?.on('data', (chunk) => {
    log += chunk
  })
  child.stderr?.on('data', (chunk) => {
    log += chunk
  })
  const url = `http://localhost:${port}`
  const deadline = Date.now() + 20_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`haproxy exited with ${child.exitCode}:\n${log}`)
    try {
      if ((await fetch(`${url}/api/health`)).ok) break
    } catch {}
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`haproxy did not pass /api/health within 20 s:\n${log}`)
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  return {
    url,
    port,
    stop: () =>
      new Promise((resolve) => {
        const done = () => {
          rmSync(dir, { recursive: true, force: true })
          resolve()
        }
        if (child.exitCode !== null || child.signalCode !== null) return done()
        child.once('exit', done)
        child.kill('SIGTERM')
      }),
  }
}
