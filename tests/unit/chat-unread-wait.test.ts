import { describe, expect, it } from 'vitest'
import { DEFAULT_UNREAD_LETTER_MINUTES, unreadLetterWaitMs } from '../../server/domain/im/unreadLetter.ts'

/** How long an operator's message may stay unread before the customer hears of it (CHAT_UNREAD_LETTER_MINUTES). */
describe('the unread letter’s wait', () => {
  it('is 15 minutes unless configured, in minutes, at most a week; 0 turns it off', () => {
    expect(DEFAULT_UNREAD_LETTER_MINUTES).toBe(15)
    expect(unreadLetterWaitMs({})).toBe(15 * 60_000)
    expect(unreadLetterWaitMs({ CHAT_UNREAD_LETTER_MINUTES: '' })).toBe(15 * 60_000)
    expect(unreadLetterWaitMs({ CHAT_UNREAD_LETTER_MINUTES: '30' })).toBe(30 * 60_000)
    expect(unreadLetterWaitMs({ CHAT_UNREAD_LETTER_MINUTES: '0.5' })).toBe(30_000)
    expect(unreadLetterWaitMs({ CHAT_UNREAD_LETTER_MINUTES: '0' })).toBeNull()
    expect(unreadLetterWaitMs({ CHAT_UNREAD_LETTER_MINUTES: '99999' })).toBe(7 * 24 * 60 * 60_000)
  })

  it('keeps the default for a value that is no number of minutes', () => {
    for (const value of ['soon', '-5', 'Infinity'])
      expect(unreadLetterWaitMs({ CHAT_UNREAD_LETTER_MINUTES: value })).toBe(15 * 60_000)
  })
})
