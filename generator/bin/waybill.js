#!/usr/bin/env node
// The `waybill` command: runs the TypeScript generator through tsx, so there is no build step to forget.
import { register } from 'tsx/esm/api'

register()
await import('../cli.ts')
