#!/usr/bin/env node
// The `waybill` command. It runs the generator compiled to JavaScript (bundled on first use and whenever
// its sources change: generator/bin/compiled.js), else through tsx — as `waybill migrate` does, which loads
// the server, and as WAYBILL_TSX=1 asks. Either way there is no build step to forget.
import { compiledCli } from './compiled.js'

const compiled = process.argv.includes('migrate') ? undefined : await compiledCli()
if (compiled) await import(compiled)
else {
  const { register } = await import('tsx/esm/api')
  register()
  await import('../cli.ts')
}
