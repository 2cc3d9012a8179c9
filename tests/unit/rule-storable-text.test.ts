import { describe, expect, it } from 'vitest'
import { storableText } from '../../rules/keywords.ts'

describe('storableText (wbText): what PostgreSQL can store and every client can read', () => {
  it('accepts any well-formed text, astral characters and right-to-left marks included', () => {
    for (const text of ['', 'Shanghai 上海', '😀 emoji pair', '\u202eRTL', 'line\nbreak\ttab'])
      expect(storableText(text)).toBe(true)
  })
  it('refuses a NUL character and unpaired surrogates, wherever they are', () => {
    for (const text of ['A\u0000B', '\uD800', 'ok\uDFFFok', 'end\uDBFF', '\uDC00start'])
      expect(storableText(text)).toBe(false)
  })
  it('leaves values that are not text to their own type checks', () => {
    expect(storableText(42)).toBe(true)
  })
})
