/** A configuration error: where it is, what was found, what was expected, and a likely fix. */
export interface ConfigError {
  file: string
  line: number
  col: number
  /** The YAML path, e.g. screens[2].columns[0].field */
  path: string
  message: string
  expected?: string
  fix?: string
}

export function formatPath(path: (string | number)[]): string {
  return path.reduce<string>(
    (out, step) => (typeof step === 'number' ? `${out}[${step}]` : out ? `${out}.${step}` : String(step)),
    '',
  )
}

export function formatError(error: ConfigError): string {
  const where = `${error.file}:${error.line}:${error.col}`
  const lines = [`${where} ${error.path ? `${error.path}: ` : ''}${error.message}`]
  if (error.expected) lines.push(`    expected: ${error.expected}`)
  if (error.fix) lines.push(`    fix: ${error.fix}`)
  return lines.join('\n')
}

/** Edit distance, for "did you mean". */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0] as number
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const current = row[j] as number
      row[j] = Math.min(
        (row[j] as number) + 1,
        (row[j - 1] as number) + 1,
        previous + (a[i - 1]?.toLowerCase() === b[j - 1]?.toLowerCase() ? 0 : 1),
      )
      previous = current
    }
  }
  return row[b.length] as number
}

export function didYouMean(word: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined
  let bestDistance = Math.max(2, Math.floor(word.length / 3)) + 1
  for (const candidate of candidates) {
    const d = distance(word, candidate)
    if (d < bestDistance) {
      best = candidate
      bestDistance = d
    }
  }
  if (best) return best
  // No near spelling: a shared beginning of four or more letters (portPicker → portSelect).
  let longest = 3
  for (const candidate of candidates) {
    let n = 0
    while (n < word.length && n < candidate.length && word[n]?.toLowerCase() === candidate[n]?.toLowerCase()) n++
    if (n > longest) {
      best = candidate
      longest = n
    }
  }
  return best
}

export function listOf(values: Iterable<string>, max = 12): string {
  const all = [...values]
  return all.length > max ? `${all.slice(0, max).join(', ')} … (${all.length} in all)` : all.join(', ')
}
