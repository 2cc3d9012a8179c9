import { describe, expect, it } from 'vitest'
import { addressAllowed, guardedLookup, urlRefusal } from '../../server/domain/webhooks/address.ts'
import { signatureHeader, verifyWebhook } from '../../server/domain/webhooks/signature.ts'

/** Where webhooks may go (SSRF, issue #29) and the receiver's signature check, without a network. */
describe('webhook addresses', () => {
  it('admits public addresses only, loopback only where allowed', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111'])
      expect(addressAllowed(address, false)).toBe(true)
    for (const address of [
      '127.0.0.1',
      '10.0.0.8',
      '172.20.1.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '::1',
      '::',
      'fd12::1',
      'fe80::1',
      '::ffff:7f00:1',
      '64:ff9b::a00:1',
      'not-an-address',
    ])
      expect(addressAllowed(address, false), address).toBe(false)
    expect(addressAllowed('127.0.0.1', true)).toBe(true)
    expect(addressAllowed('::1', true)).toBe(true)
    // Allowing loopback opens loopback, not the private network.
    expect(addressAllowed('10.0.0.8', true)).toBe(false)
    expect(addressAllowed('169.254.169.254', true)).toBe(false)
  })

  it('refuses at registration what could never be delivered to', () => {
    expect(urlRefusal('https://erp.example.com/hooks', false)).toBeNull()
    expect(urlRefusal('http://erp.example.com/hooks', false)).toBe('webhook.urlInsecure')
    expect(urlRefusal('ftp://erp.example.com/', false)).toBe('webhook.urlFormat')
    expect(urlRefusal('not a url', false)).toBe('webhook.urlFormat')
    expect(urlRefusal('https://u:p@erp.example.com/', false)).toBe('webhook.urlFormat')
    expect(urlRefusal('https://192.168.0.10/', false)).toBe('webhook.urlRefused')
    expect(urlRefusal('https://[::ffff:10.0.0.1]/', false)).toBe('webhook.urlRefused')
    expect(urlRefusal('http://localhost:8080/', false)).toBe('webhook.urlRefused')
    expect(urlRefusal('http://localhost:8080/', true)).toBeNull()
    expect(urlRefusal('http://127.0.0.1:8080/', true)).toBeNull()
    expect(urlRefusal('http://10.0.0.1/', true)).toBe('webhook.urlRefused')
  })

  it('fails the connection when a name resolves to a loopback address, unless allowed', async () => {
    const resolve = (allow: boolean) =>
      new Promise<{ error: NodeJS.ErrnoException | null; address: unknown }>((done) =>
        guardedLookup(allow)('localhost', {}, (error, address) => done({ error, address })),
      )
    const refused = await resolve(false)
    expect(refused.error?.code).toBe('EWEBHOOKADDRESS')
    const allowed = await resolve(true)
    expect(allowed.error).toBeNull()
    expect(['127.0.0.1', '::1']).toContain(allowed.address)
  })
})

describe('the receiver’s check', () => {
  const secret = 'whsec_test'
  const body = '{"id":"e1","type":"orderState","data":{"id":7}}'
  it('accepts a fresh, untouched request and refuses a tampered, stale or malformed one', () => {
    const header = signatureHeader(secret, 1_800_000_000, body)
    expect(verifyWebhook(header, body, secret, { nowS: 1_800_000_100 })).toEqual({ ok: true, timestamp: 1_800_000_000 })
    expect(verifyWebhook(header, body.replace('7', '8'), secret, { nowS: 1_800_000_100 })).toEqual({
      ok: false,
      reason: 'mismatch',
    })
    expect(verifyWebhook(header, body, secret, { nowS: 1_800_000_301 })).toEqual({ ok: false, reason: 'stale' })
    expect(verifyWebhook(header, body, secret, { nowS: 1_799_999_699 })).toEqual({ ok: false, reason: 'stale' })
    expect(verifyWebhook('v1=abc', body, secret, { nowS: 1_800_000_000 })).toEqual({ ok: false, reason: 'malformed' })
    expect(verifyWebhook(undefined, body, secret, { nowS: 1_800_000_000 })).toEqual({ ok: false, reason: 'malformed' })
    // A second signature (a secret being replaced) is accepted when one of them matches.
    const rotated = `${header},v1=${'0'.repeat(64)}`
    expect(verifyWebhook(rotated, body, secret, { nowS: 1_800_000_000 }).ok).toBe(true)
  })
})
