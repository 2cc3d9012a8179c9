/**
 * How a provider's refusal is told to the delivery worker: `retryable` (the network, a 5xx, a rate limit, an
 * expired token — the same message may go through later) or final (a bad number, a user who unsubscribed, a
 * template the provider does not know — sending it again cannot help). `reason` is what the outbox row keeps
 * and the push list shows: the provider's own code and message, never a secret.
 */
export class DeliveryFailure extends Error {
  readonly retryable: boolean
  readonly reason: string
  constructor(retryable: boolean, reason: string) {
    super(reason)
    this.name = 'DeliveryFailure'
    this.retryable = retryable
    this.reason = reason
  }
}

export function retryable(reason: string): DeliveryFailure {
  return new DeliveryFailure(true, reason)
}

export function final(reason: string): DeliveryFailure {
  return new DeliveryFailure(false, reason)
}

/** A bounded HTTP exchange: a refused connection or a timeout is retryable, a 5xx too. */
export async function exchange(
  provider: string,
  url: string,
  init: RequestInit,
  timeoutMs = 10_000,
): Promise<{ status: number; body: unknown }> {
  let response: Response
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) })
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name
    throw retryable(`${provider}: network ${cause}`)
  }
  const text = (await response.text()).slice(0, 64 * 1024)
  if (response.status >= 500) throw retryable(`${provider}: HTTP ${response.status}`)
  if (response.status === 429) throw retryable(`${provider}: HTTP 429 rate limited`)
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw retryable(`${provider}: HTTP ${response.status}, not JSON`)
  }
  return { status: response.status, body }
}
