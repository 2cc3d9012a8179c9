/**
 * The tenant's chat filter (/ChatFilterList, issue #27): words and patterns a message may not carry, each
 * masked (every matched character becomes `*`) or refused. Case-insensitive, character by character (a code
 * point, so Chinese and emoji count as one character each).
 *
 * A pattern is not a regular expression — a tenant's text is never compiled into one, so no pattern can make
 * a message take exponential time. Its syntax is three things: a literal character, `?` (exactly one
 * character) and `*` (at most STAR_SPAN characters, none included). It starts and ends with a literal
 * character and has at most MAX_STARS stars (patternProblem). Matching simulates the pattern as a set of text
 * positions, one token at a time, so a start costs at most the pattern's length × (STAR_SPAN + 1) steps.
 */

export type ChatFilterKind = 'word' | 'pattern'
export type ChatFilterAction = 'mask' | 'refuse'

export interface ChatFilter {
  kind: ChatFilterKind
  text: string
  action: ChatFilterAction
  enabled?: boolean
}

/** A message as the filter leaves it: its text masked (or untouched), or refused with the catalogue's code. */
export type FilterOutcome = { text: string } | { refused: string }

/** The code a refused message answers (locales/<lang>/error.json). */
export const MESSAGE_REFUSED = '381003'

/** How many characters one `*` stands for at most. */
export const STAR_SPAN = 8
/** How many `*` a pattern may hold. */
export const MAX_STARS = 3

type Token = { literal: string } | { one: true } | { star: true }

const fold = (character: string) => character.toLocaleLowerCase('und')

/** A filter's text as the matcher compares it (whatever the case): two entries with the same are one. */
export const foldFilterText = (text: string): string => Array.from(text.trim()).map(fold).join('')

/** Why a pattern is refused (a validation message key), or null when it is one the matcher takes. */
export function patternProblem(pattern: string): string | null {
  const characters = Array.from(pattern.trim())
  if (!characters.length) return 'validation.required'
  const stars = characters.filter((c) => c === '*').length
  const first = characters[0] as string
  const last = characters[characters.length - 1] as string
  if (stars > MAX_STARS || first === '*' || first === '?' || last === '*' || last === '?')
    return 'imAdmin.chatFilterPattern'
  if (characters.some((c, i) => c === '*' && characters[i + 1] === '*')) return 'imAdmin.chatFilterPattern'
  return null
}

function tokensOf(filter: ChatFilter): Token[] {
  const characters = Array.from(filter.text.trim())
  if (filter.kind === 'word') return characters.map((c) => ({ literal: fold(c) }))
  return characters.map((c) => (c === '*' ? { star: true } : c === '?' ? { one: true } : { literal: fold(c) }))
}

/** The end (exclusive) of the longest match of the tokens starting at `start`, or -1. */
function longestMatch(tokens: Token[], text: string[], start: number): number {
  let positions = new Set([start])
  for (const token of tokens) {
    const next = new Set<number>()
    for (const p of positions) {
      if ('literal' in token) {
        if (text[p] === token.literal) next.add(p + 1)
      } else if ('one' in token) {
        if (p < text.length) next.add(p + 1)
      } else {
        for (let k = 0; k <= STAR_SPAN && p + k <= text.length; k++) next.add(p + k)
      }
    }
    if (!next.size) return -1
    positions = next
  }
  return Math.max(...positions)
}

/**
 * The message after the tenant's filters: refused if an enabled refusing filter matches anywhere, else every
 * character an enabled masking filter matches replaced by `*` (overlapping matches mask their union).
 */
export function applyChatFilters(text: string, filters: readonly ChatFilter[]): FilterOutcome {
  const original = Array.from(text)
  const folded = original.map(fold)
  const active = filters
    .filter((f) => f.enabled !== false && (f.kind === 'word' || !patternProblem(f.text)))
    .map((f) => ({ action: f.action, tokens: tokensOf(f) }))
    .filter((f) => f.tokens.length > 0)
  const masked = new Array<boolean>(original.length).fill(false)
  for (const refusing of [true, false]) {
    for (const { action, tokens } of active) {
      if ((action === 'refuse') !== refusing) continue
      const head = tokens[0] as { literal: string }
      for (let start = 0; start < folded.length; start++) {
        if (folded[start] !== head.literal) continue
        const end = longestMatch(tokens, folded, start)
        if (end < 0) continue
        if (refusing) return { refused: MESSAGE_REFUSED }
        for (let i = start; i < end; i++) masked[i] = true
      }
    }
  }
  return { text: original.map((c, i) => (masked[i] ? '*' : c)).join('') }
}
