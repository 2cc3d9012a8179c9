import { openMessage, sealMessage } from '../../jobs/sealed.ts'

/**
 * DCSA subscription secrets (issue #29), kept as webhook secrets are (../webhooks/secrets.ts): the server must
 * read a secret to sign each notification with it, so it cannot keep a hash. It is sealed (AES-256-GCM under
 * WAYBILL_AUTH_SECRET) and bound to its tenant and subscription, so a copy of the database holds no usable secret
 * and one subscription's sealed value does not open as another's. The standard never answers it back.
 */
const sealedFor = (tenantId: number, subscription: string) => `${tenantId}:${subscription}`

export function sealSubscriptionSecret(tenantId: number, subscription: string, secret: string): string {
  return sealMessage('dcsa-subscription', sealedFor(tenantId, subscription), { text: secret })
}

export function openSubscriptionSecret(tenantId: number, subscription: string, sealed: string): string {
  return openMessage('dcsa-subscription', sealedFor(tenantId, subscription), sealed).text
}
