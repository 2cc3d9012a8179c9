#!/usr/bin/env node
// The browser tests drive Debian's Chromium; Playwright's own browser download does not work here.
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

// Chinese and Japanese pages need CJK fonts, or screenshots show empty boxes.
const hasCjkFonts = () => spawnSync('fc-list', [':lang=zh'], { encoding: 'utf8' }).stdout?.trim().length > 0

if (existsSync(CHROMIUM) && hasCjkFonts()) process.exit(0)
if (process.getuid?.() !== 0) {
  console.error(
    `Chromium or CJK fonts are missing (${CHROMIUM}). The end-to-end tests need them:\n` +
      '  sudo apt-get update && sudo apt-get install -y chromium fonts-noto-cjk\n' +
      'or point CHROMIUM_PATH at a Chromium or Chrome binary.',
  )
  process.exit(1)
}
// The fonts too: the tests see the pages as a reader with Chinese fonts does (most of ours), text widths included.
const packages = ['chromium', 'fonts-noto-cjk']
console.log(
  `Installing Debian's ${packages.join(' and ')} for the browser tests (apt-get install -y ${packages.join(' ')})…`,
)
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
spawnSync('apt-get', ['update'], { stdio: 'inherit', env })
const install = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', ...packages], {
  stdio: 'inherit',
  env,
})
if (install.status !== 0 || !existsSync(CHROMIUM) || !hasCjkFonts()) {
  console.error(`Could not install them with apt-get; install them by hand: apt-get install -y ${packages.join(' ')}`)
  process.exit(1)
}
console.log(execFileSync(CHROMIUM, ['--version']).toString().trim())
