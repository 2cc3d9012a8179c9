import { describe, expect, it } from 'vitest'
import { recordSent, revealedText } from '../../runtime/screens/list/actions.ts'

/** A detail toolbar's call on its record and what it reveals (issue #29: Share an order's tracking). */
describe('what a record call sends', () => {
  it("sends the record's id in the action's param, else its id and version", () => {
    expect(recordSent({ param: 'order' }, { id: 40, version: 3 })).toEqual({ order: 40 })
    expect(recordSent({}, { id: 40, version: 3 })).toEqual({ id: 40, version: 3 })
  })

  it("keeps fixed values, but never lets one replace the record's id", () => {
    expect(recordSent({ param: 'order', values: { order: 1, days: 7 } }, { id: 40 })).toEqual({ order: 40, days: 7 })
  })
})

describe('what a call reveals', () => {
  const origin = 'https://acme.example.com'
  it('shows a path as the full address on this host with revealAs: address', () => {
    expect(
      revealedText(
        { reveals: 'path', revealAs: 'address' },
        { path: '/sharedTracking/abc_-1', token: 'abc_-1' },
        origin,
      ),
    ).toBe('https://acme.example.com/sharedTracking/abc_-1')
  })

  it('shows text as it is, and an address of another host never as one of this', () => {
    expect(revealedText({ reveals: 'secret' }, { secret: 'wb_123' }, origin)).toBe('wb_123')
    expect(revealedText({ reveals: 'path', revealAs: 'address' }, { path: '//evil.example/x' }, origin)).toBe(
      '//evil.example/x',
    )
  })

  it('reveals nothing when the field is missing or not text', () => {
    expect(revealedText({ reveals: 'path' }, { other: 'x' }, origin)).toBeUndefined()
    expect(revealedText({ reveals: 'path' }, { path: 3 }, origin)).toBeUndefined()
    expect(revealedText({ reveals: 'path' }, null, origin)).toBeUndefined()
    expect(revealedText({}, { path: '/x' }, origin)).toBeUndefined()
  })
})
