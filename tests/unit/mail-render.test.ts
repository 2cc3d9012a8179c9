import { describe, expect, it } from 'vitest'
import type { ChannelTenant, OutboxMessage } from '../../server/jobs/channels.ts'
import { absoluteUrl, renderMail } from '../../server/jobs/mail/templates.ts'

/** Issue #22: a letter's mail carries the page it speaks of as an address a mail reader can open. */

const tenant: ChannelTenant = {
  id: 2,
  code: 'acme',
  nameZh: '艾克美物流',
  nameEn: 'Acme Logistics',
  host: 'acme.localhost',
  settings: { themeColor: '#0f7b6c' },
}

const message = (payload: Record<string, unknown>): OutboxMessage => ({
  id: 7,
  tenantId: 2,
  kind: 'mail',
  to: 'buyer@example.com',
  payload,
  attempt: 1,
  maxAttempts: 8,
  createdAt: new Date(0),
})

describe('a letter mail', () => {
  it('ends its text with the letter’s page on the tenant’s host, and links it in the HTML', () => {
    const mail = renderMail(
      message({
        subject: 'Order 1 confirmed',
        text: 'Your order 1 has been confirmed.',
        link: '/orderDetails?id=42',
        language: 'en',
      }),
      tenant,
    )
    expect(
      mail.text.startsWith('Your order 1 has been confirmed.\n\nhttps://acme.localhost/orderDetails?id=42\n'),
    ).toBe(true)
    expect(mail.html).toContain(
      '<a href="https://acme.localhost/orderDetails?id=42" style="color:#0f7b6c">https://acme.localhost/orderDetails?id=42</a>',
    )
  })

  it('keeps an absolute link and adds none to a mail without one', () => {
    expect(absoluteUrl(tenant, 'https://example.com/x')).toBe('https://example.com/x')
    expect(absoluteUrl(tenant, 'logo.png')).toBe('https://acme.localhost/logo.png')
    const plain = renderMail(message({ subject: 'Hello', text: 'No page here.', language: 'en' }), tenant)
    expect(plain.text).not.toContain('https://')
    expect(plain.html).not.toContain('<a ')
  })
})
