import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * Issue #19: the generated client types every call, so the portal casts no API data. `as never` silences
 * a call's input type and `.content as` overrides its answer's; either means the YAML (a `body:`, a
 * `response:`) or the generated types say something the portal does not believe — fix that, not the call.
 */
const ROOT = new URL('../../', import.meta.url).pathname
const CAST = /\bas never\b|\.content\)?\s*as\b/

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sources(path)
    return /\.tsx?$/.test(entry.name) ? [path] : []
  })
}

/** Every line of the portal's code that casts, as `file:line: text`. */
function casts(files: string[], read: (file: string) => string = (f) => readFileSync(f, 'utf8')): string[] {
  return files.flatMap((file) =>
    read(file)
      .split('\n')
      .flatMap((line, i) =>
        CAST.test(line) && !line.trim().startsWith('//') && !line.trim().startsWith('*')
          ? [`${relative(ROOT, file)}:${i + 1}: ${line.trim()}`]
          : [],
      ),
  )
}

describe('the portal casts no API data', () => {
  it('finds no `as never` and no `.content as` in runtime/', () => {
    // The booking calls' bodies were the last (schemas/orderBooking.yaml, orderTemplateEdit.yaml: extends:).
    expect(casts(sources(join(ROOT, 'runtime')))).toEqual([])
  })

  it('would find either cast, in a call or on its answer', () => {
    const files: Record<string, string> = {
      '/a.ts': 'await client.booking.orderAdd(body as never)\n// a comment saying as never is fine',
      '/b.ts': 'const row = (await call(request)).content as Row\nconst ok = (await call(request)).content',
      '/c.ts': 'const rows = answer.content as Row[]',
    }
    const found = casts(Object.keys(files), (file) => files[file] ?? '')
    expect(found.map((line) => line.replace(/^.*?:(\d+):/, '$1:'))).toEqual([
      '1: await client.booking.orderAdd(body as never)',
      '1: const row = (await call(request)).content as Row',
      '1: const rows = answer.content as Row[]',
    ])
  })
})
