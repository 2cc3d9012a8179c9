#!/usr/bin/env node
// The scale-out test (issue #29, tests/api/scale-out.test.ts) puts two server replicas behind a real HAProxy,
// Debian's package. It runs with the PostgreSQL leg only (DATABASE_URL), so that is when this installs it.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export const HAPROXY = process.env.HAPROXY_PATH ?? '/usr/sbin/haproxy'

function ensure() {
  if (existsSync(HAPROXY)) return 0
  if (process.getuid?.() !== 0) {
    console.error(
      `HAProxy is missing (${HAPROXY}). The scale-out test on PostgreSQL needs it:\n` +
        '  sudo apt-get install -y haproxy\n' +
        'or point HAPROXY_PATH at an haproxy binary.',
    )
    return 1
  }
  console.log('Installing Debian haproxy for the scale-out test (apt-get install -y haproxy)…')
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  let install = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'haproxy'], { stdio: 'inherit', env })
  if (install.status !== 0) {
    spawnSync('apt-get', ['update'], { stdio: 'inherit', env })
    install = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'haproxy'], { stdio: 'inherit', env })
  }
  if (install.status !== 0 || !existsSync(HAPROXY)) {
    console.error('Could not install haproxy with apt-get; install it by hand: apt-get install -y haproxy')
    return 1
  }
  return 0
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exit(ensure())
