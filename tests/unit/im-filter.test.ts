import { describe, expect, it } from 'vitest'
import {
  applyChatFilters,
  type ChatFilter,
  MESSAGE_REFUSED,
  patternProblem,
  STAR_SPAN,
} from '../../server/domain/im/filter.ts'

const mask = (text: string, kind: ChatFilter['kind'] = 'word'): ChatFilter => ({ kind, text, action: 'mask' })
const refuse = (text: string, kind: ChatFilter['kind'] = 'word'): ChatFilter => ({ kind, text, action: 'refuse' })

describe('chat filter', () => {
  it('masks each character of a word, whatever its case, and leaves the rest', () => {
    expect(applyChatFilters('Call me on WeChat, wechat is faster', [mask('wechat')])).toEqual({
      text: 'Call me on ******, ****** is faster',
    })
  })

  it('masks Chinese words character by character, and counts an emoji as one character', () => {
    expect(applyChatFilters('我们给你返点，返点多 😀返点', [mask('返点')])).toEqual({ text: '我们给你**，**多 😀**' })
  })

  it('masks the union of overlapping matches', () => {
    expect(applyChatFilters('abcde', [mask('abc'), mask('cde')])).toEqual({ text: '*****' })
  })

  it('refuses a message a refusing filter matches, even when a masking one matches first', () => {
    expect(applyChatFilters('私下转账给我', [mask('私下'), refuse('转账')])).toEqual({ refused: MESSAGE_REFUSED })
    expect(applyChatFilters('TRANSFER now', [refuse('transfer')])).toEqual({ refused: MESSAGE_REFUSED })
  })

  it('ignores disabled filters', () => {
    expect(applyChatFilters('cash rebate', [{ ...refuse('cash'), enabled: false }])).toEqual({ text: 'cash rebate' })
  })

  it('matches patterns: ? is one character, * a bounded run', () => {
    expect(applyChatFilters('qq 12345 or q-q', [mask('q?q', 'pattern')])).toEqual({ text: 'qq 12345 or ***' })
    expect(applyChatFilters('wei xin: abc', [mask('w*n', 'pattern')])).toEqual({ text: '*******: abc' })
    // A star spans at most STAR_SPAN characters.
    const far = `w${'x'.repeat(STAR_SPAN + 1)}n`
    expect(applyChatFilters(far, [mask('w*n', 'pattern')])).toEqual({ text: far })
    expect(applyChatFilters('加我微 信号', [mask('微*信', 'pattern')])).toEqual({ text: '加我***号' })
  })

  it('refuses unsafe or unbounded patterns and ignores any stored before', () => {
    expect(patternProblem('*abc')).toBe('imAdmin.chatFilterPattern')
    expect(patternProblem('abc*')).toBe('imAdmin.chatFilterPattern')
    expect(patternProblem('a**b')).toBe('imAdmin.chatFilterPattern')
    expect(patternProblem('a*b*c*d*e')).toBe('imAdmin.chatFilterPattern')
    expect(patternProblem('  ')).toBe('validation.required')
    expect(patternProblem('a*b?c')).toBeNull()
    expect(applyChatFilters('abc', [mask('*b', 'pattern')])).toEqual({ text: 'abc' })
  })

  it('takes linear time on text built to make a backtracking matcher blow up', () => {
    const text = 'a'.repeat(5_000)
    const started = performance.now()
    const outcome = applyChatFilters(text, [mask('a*a*a*b', 'pattern')])
    expect(outcome).toEqual({ text })
    // A backtracking matcher would take (STAR_SPAN+1)^3 steps per start; the set simulation takes far fewer.
    expect(performance.now() - started).toBeLessThan(2_000)
  })
})
