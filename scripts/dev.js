#!/usr/bin/env node
// `npm run dev`: the generator in watch mode, the API restarting on change (port 3001), and Vite's
// dev server with hot reload on http://localhost:5173 proxying /api to it.
import { spawn, spawnSync } from 'node:child_process'

const apiPort = process.env.API_PORT ?? '3001'
const first = spawnSync(process.execPath, ['generator/bin/waybill.js', 'generate'], { stdio: 'inherit' })
if (first.status !== 0) process.exit(first.status ?? 1)

const children = [
  spawn(process.execPath, ['generator/bin/waybill.js', 'generate', '--watch'], { stdio: 'inherit' }),
  spawn(
    process.execPath,
    ['--watch-path=server', '--watch-path=generated', '--watch-path=rules', '--import', 'tsx', 'server/main.ts'],
    { stdio: 'inherit', env: { ...process.env, PORT: apiPort, STATIC_DIR: 'no-portal-in-dev' } },
  ),
  spawn('npx', ['vite'], { stdio: 'inherit', env: { ...process.env, API_PORT: apiPort } }),
]

const stop = () => {
  for (const child of children) child.kill('SIGTERM')
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
for (const child of children) child.on('exit', (code) => code && code !== 0 && stop())
