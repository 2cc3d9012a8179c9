import type { LookupAddress } from 'node:dns'
import { lookup } from 'node:dns'
import { BlockList, isIP } from 'node:net'

/**
 * Where a webhook may be sent (issue #29; docs/SECURITY.md "Webhooks and SSRF"). A webhook makes the server send
 * requests to a URL a customer typed, so that URL must never reach what only the server can reach: its own
 * loopback, the private network, link-local cloud metadata (169.254.169.254) and the like.
 * - At registration: https only, no credentials in the URL, and a host written as an address must be public.
 * - At every attempt: the host's name is resolved by `guardedLookup`, which refuses the request when any of its
 *   addresses is not public, and the connection is made to the address so checked (no second lookup a DNS
 *   rebinding could answer differently). Redirects are not followed.
 * WEBHOOK_ALLOW_LOOPBACK=1 (development and tests only) also admits http:// and loopback hosts (127.0.0.0/8,
 * ::1, localhost) — never any other private range.
 */

// One list per family: node's BlockList matches an IPv4 address against IPv4-mapped IPv6 rules too, so one list
// holding ::ffff:0:0/96 would refuse every IPv4 address.
const notPublicV4 = new BlockList()
const notPublicV6 = new BlockList()
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  notPublicV4.addSubnet(network, prefix, 'ipv4')
for (const [network, prefix] of [
  ['::', 127], // unspecified and loopback
  ['::ffff:0:0', 96], // IPv4-mapped: the IPv4 address decides, and a webhook never needs this form
  ['64:ff9b::', 96], // NAT64
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  notPublicV6.addSubnet(network, prefix, 'ipv6')

const loopback = new BlockList()
loopback.addSubnet('127.0.0.0', 8, 'ipv4')
loopback.addAddress('::1', 'ipv6')

/** Whether the process admits loopback receivers (development and tests). */
export function loopbackAllowed(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.WEBHOOK_ALLOW_LOOPBACK === '1'
}

function family(address: string): 'ipv4' | 'ipv6' | undefined {
  const kind = isIP(address)
  return kind === 4 ? 'ipv4' : kind === 6 ? 'ipv6' : undefined
}

/** Whether a request may go to this address: a public one, or a loopback one where allowed. */
export function addressAllowed(address: string, allowLoopback: boolean): boolean {
  const kind = family(address)
  if (!kind) return false
  if (allowLoopback && loopback.check(address, kind)) return true
  return !(kind === 'ipv4' ? notPublicV4 : notPublicV6).check(address, kind)
}

const isLoopbackName = (host: string) => host === 'localhost' || host.endsWith('.localhost')

/**
 * Why a URL cannot be registered (a locale key of webhook.*), or null when it can. Names other than loopback
 * ones are checked again, resolved, at every attempt.
 */
export function urlRefusal(
  value: string,
  allowLoopback: boolean,
): 'webhook.urlFormat' | 'webhook.urlInsecure' | 'webhook.urlRefused' | null {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return 'webhook.urlFormat'
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'webhook.urlFormat'
  if (url.username || url.password || !url.hostname) return 'webhook.urlFormat'
  const host = url.hostname.replace(/^\[|\]$/g, '')
  const literal = family(host) !== undefined
  const local = isLoopbackName(host.toLowerCase()) || (literal && loopback.check(host, family(host) as 'ipv4'))
  if (local) return allowLoopback ? null : 'webhook.urlRefused'
  if (literal && !addressAllowed(host, false)) return 'webhook.urlRefused'
  if (url.protocol !== 'https:') return 'webhook.urlInsecure'
  return null
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void

/**
 * A `lookup` for node:http(s) requests: resolves the name, and fails the connection unless every address it
 * answered may be reached (a name with one private address among public ones is refused as a whole).
 */
export function guardedLookup(allowLoopback: boolean) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    lookup(hostname, { all: true }, (error, addresses) => {
      if (error) return callback(error, '')
      const refused = addresses.find((a) => !addressAllowed(a.address, allowLoopback))
      if (refused || !addresses.length) {
        const denial: NodeJS.ErrnoException = new Error(
          `webhook address refused: ${hostname} resolves to ${refused?.address ?? 'nothing'}, which is not public`,
        )
        denial.code = 'EWEBHOOKADDRESS'
        return callback(denial, '')
      }
      if (options.all) return callback(null, addresses)
      const first = addresses[0] as LookupAddress
      callback(null, first.address, first.family)
    })
  }
}
