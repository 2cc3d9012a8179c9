import { describe, expect, it } from 'vitest'
import { RequestError } from '../../runtime/api.ts'
import { LINK_TOKEN, linkRefusal } from '../../runtime/site/tracking/sharedLink.ts'

/** What a shared tracking link's page says when the link does not open its shipment (issue #29). */
describe('a refused tracking link', () => {
  const refused = (key: string, field = 'token') =>
    new RequestError('100001', 'no', 400, { fieldErrors: [{ field, key, message: 'translated' }] })

  it('tells expired from revoked from unknown', () => {
    expect(linkRefusal(refused('tracking.linkExpired'))).toBe('expired')
    expect(linkRefusal(refused('tracking.linkRevoked'))).toBe('revoked')
    expect(linkRefusal(new RequestError('404', 'Not found', 404))).toBe('unknown')
    // A token the server's pattern refuses was made by nobody.
    expect(linkRefusal(refused('validation.pattern'))).toBe('unknown')
  })

  it('says nothing about the link for a failure that is not about it', () => {
    expect(linkRefusal(new RequestError('500', 'down', 500))).toBeNull()
    expect(linkRefusal(refused('validation.required', 'other'))).toBeNull()
    expect(linkRefusal(new TypeError('Failed to fetch'))).toBeNull()
  })

  it('takes tokens shaped as the server makes them only', () => {
    expect(LINK_TOKEN.test('3q2-7wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).toBe(true)
    expect(LINK_TOKEN.test('3q2-7wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).toBe(false)
    expect(LINK_TOKEN.test('3q2-7wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/A')).toBe(false)
  })
})
