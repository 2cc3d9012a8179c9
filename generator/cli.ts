import { watch } from 'node:fs'
import { join, resolve } from 'node:path'
import { Command } from 'commander'
import { coverageReport } from './coverage.ts'
import { formatError } from './errors.ts'
import { checkProject, generateProject } from './pipeline.ts'

const program = new Command()
program
  .name('waybill')
  .description(
    'Validates the Waybill configuration (schemas/, screens/, locales/) and generates what the portal and server run on.',
  )
  .option('-C, --root <dir>', 'project root', process.cwd())

const rootOf = () => resolve(program.opts<{ root: string }>().root)

function printErrors(errors: ReturnType<typeof checkProject>['errors']) {
  for (const error of errors) console.error(formatError(error))
  console.error(`\n${errors.length} configuration error${errors.length === 1 ? '' : 's'}.`)
}

program
  .command('check')
  .description('validate every file and cross-reference; exit 1 on any error')
  .action(() => {
    const { errors, manifest } = checkProject(rootOf())
    if (errors.length) {
      printErrors(errors)
      process.exitCode = 1
      return
    }
    const m = manifest as NonNullable<typeof manifest>
    console.log(
      `waybill check: ok — ${Object.keys(m.entities).length} entities, ${m.screens.length} screens, ${m.endpoints.length} endpoints, ${Object.keys(m.permissions).length} permissions`,
    )
  })

program
  .command('generate')
  .description('write generated/: manifest, types, client, routes, validators, OpenAPI, permissions, locales')
  .option('-o, --out <dir>', 'output folder', 'generated')
  .option('-w, --watch', 'regenerate when schemas/, screens/, locales/ or templates/ change')
  .action(async (options: { out: string; watch?: boolean }) => {
    const root = rootOf()
    const out = resolve(root, options.out)
    const run = async () => {
      const started = performance.now()
      const { errors, written } = await generateProject(root, out)
      if (errors.length) {
        printErrors(errors)
        return false
      }
      const ms = Math.round(performance.now() - started)
      console.log(`waybill generate: ${written.length ? `wrote ${written.join(', ')}` : 'up to date'} (${ms} ms)`)
      return true
    }
    const ok = await run()
    if (!options.watch) {
      if (!ok) process.exitCode = 1
      return
    }
    let timer: NodeJS.Timeout | undefined
    for (const dir of ['schemas', 'screens', 'locales', 'templates']) {
      watch(join(root, dir), { recursive: true }, () => {
        clearTimeout(timer)
        timer = setTimeout(() => void run(), 100)
      })
    }
    console.log('waybill generate: watching schemas/, screens/, locales/, templates/')
  })

program
  .command('coverage')
  .description('how many routes of SPEC §2 are built and how many planned, overall and per area')
  .action(() => {
    const { errors, manifest } = checkProject(rootOf())
    if (!manifest) {
      printErrors(errors)
      process.exitCode = 1
      return
    }
    console.log(coverageReport(manifest))
  })

program
  .command('migrate')
  .description('apply the database migrations (DATABASE_URL, else the embedded database in DATA_DIR)')
  .action(async () => {
    // The database is the server's: the CLI goes through its one entry point.
    const { migrate } = await import('../server/db/migrate-cli.ts')
    const { migrations, tables } = await migrate()
    console.log(
      migrations.length
        ? `waybill migrate: applied ${migrations.join(', ')}`
        : 'waybill migrate: migrations up to date',
    )
    if (tables.length) console.log(`waybill migrate: entity tables ${tables.join(', ')}`)
  })

await program.parseAsync()
