import { describe, expect, it } from 'vitest'
import { entryKey, scrollAction } from '../../runtime/routing/scroll.tsx'

/** Where a navigation leaves the window (runtime/routing/scroll.tsx, issue #16). */
describe('scrollAction', () => {
  const list = { pathname: '/orderList', hash: '' }
  it('opens another page at its top, by push or by replace', () => {
    expect(scrollAction(list, { pathname: '/orderDetailsOperator', hash: '' }, 'PUSH')).toBe('top')
    expect(scrollAction(list, { pathname: '/login', hash: '' }, 'REPLACE')).toBe('top')
    expect(scrollAction(null, { pathname: '/orderList', hash: '' }, 'PUSH')).toBe('top')
  })
  it('restores on Back and Forward, and on the first render of a reload', () => {
    expect(scrollAction(list, { pathname: '/orderDetailsOperator', hash: '' }, 'POP')).toBe('restore')
    expect(scrollAction(null, list, 'POP')).toBe('restore')
  })
  it('keeps the position when only the query changes, and goes to a new #anchor', () => {
    expect(scrollAction(list, { pathname: '/orderList', hash: '' }, 'PUSH')).toBe('keep')
    expect(scrollAction(list, { pathname: '/orderList', hash: '' }, 'REPLACE')).toBe('keep')
    expect(scrollAction(list, { pathname: '/orderList', hash: '#rates' }, 'PUSH')).toBe('hash')
    expect(scrollAction(list, { pathname: '/news', hash: '#top' }, 'PUSH')).toBe('hash')
  })
  it('keys a position by history entry and address (a fresh load is always "default")', () => {
    expect(entryKey({ key: 'default', pathname: '/orderList', search: '?pageSize=50' })).toBe(
      'default|/orderList?pageSize=50',
    )
  })
})
