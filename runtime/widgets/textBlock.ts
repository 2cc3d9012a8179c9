/** SPEC §5 free-text blocks: where the cursor is and whether the text keeps to its limits. */
export interface TextBlockStatus {
  /** 1-based line of the cursor */
  line: number
  /** characters on that line */
  chars: number
  lines: number
  lineTooLong: boolean
  tooManyLines: boolean
}

export function textBlockStatus(
  text: string,
  cursor: number,
  limits: { lineLength: number; maxLines: number },
): TextBlockStatus {
  const lines = text.split(/\r?\n/)
  const before = text.slice(0, Math.max(0, Math.min(cursor, text.length))).split(/\r?\n/)
  const line = before.length
  // Code points, not UTF-16 units, as the server's ucs2length counts them.
  const length = (s: string) => [...s].length
  return {
    line,
    chars: length(lines[line - 1] ?? ''),
    lines: text === '' ? 0 : lines.length,
    lineTooLong: lines.some((l) => length(l) > limits.lineLength),
    tooManyLines: lines.length > limits.maxLines,
  }
}
