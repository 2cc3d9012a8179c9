import type { Envelope, Transport } from '../generated/client.ts'

/** SPEC §7: every answer is `{ code, message, content }`; this code is success. */
export const SUCCESS = '0000'
/** SPEC §8: codes that mean the session is gone and open the "Confirm logout" box. */
export const LOGOUT_CODES: readonly string[] = ['401', '50012', '50014']
/**
 * SPEC §7: the portal's calls carry `resource: 1`. The server needs it on any call the session cookie
 * authorises that changes something, on logout and on sign-in (server/http/csrf.ts): another site can make
 * a browser send the cookie, never this header.
 */
export const RESOURCE_HEADER = { Resource: '1' } as const
/** SPEC §9: one reading of the request timeout. */
export const TIMEOUT_MS = 20_000

/** One field the server refused: `key` is the locale key (rules/messages.ts), `message` already translated. */
export interface ServerFieldError {
  field: string
  key: string
  message: string
}

const isFieldError = (item: unknown): item is ServerFieldError =>
  !!item &&
  typeof item === 'object' &&
  'field' in item &&
  typeof item.field === 'string' &&
  'message' in item &&
  typeof item.message === 'string'

/** A call that did not end in code "0000": what the server said, or what the network did. */
export class RequestError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly content: unknown = null,
  ) {
    super(message)
    this.name = 'RequestError'
  }

  /** The per-field refusals of a `validation` answer (empty for any other failure). */
  get fieldErrors(): ServerFieldError[] {
    const content = this.content
    const list = content && typeof content === 'object' && 'fieldErrors' in content ? content.fieldErrors : undefined
    return Array.isArray(list) ? list.filter(isFieldError) : []
  }
}

/**
 * What the portal does with an answer (SPEC §8): HTTP 401 resets the session and goes to /login; the codes
 * '401', 50012 and 50014 ask whether to log in again; any other code, or no envelope at all, is toasted.
 */
export type Outcome = 'ok' | 'unauthorized' | 'confirmLogout' | 'toast'

export function classify(status: number, envelope: Pick<Envelope<unknown>, 'code'> | null): Outcome {
  if (status === 401) return 'unauthorized'
  if (!envelope) return 'toast'
  if (envelope.code === SUCCESS) return 'ok'
  if (LOGOUT_CODES.includes(String(envelope.code))) return 'confirmLogout'
  return 'toast'
}

/** `/api` + path + the query string (arrays repeat the key; empty values are left out). */
export function buildUrl(path: string, query?: object): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null || item === '') continue
      params.append(key, String(item))
    }
  }
  const search = params.toString()
  return `/api${path}${search ? `?${search}` : ''}`
}

export interface TransportOptions {
  /** The Language header value (zh_CN, en_US, ja_JP, es_ES), read at call time. */
  language: () => string
  /** Told about every failure before the call rejects: the one place SPEC §8's behaviour hangs off. */
  onFailure?: (outcome: Exclude<Outcome, 'ok'>, error: RequestError) => void
  fetch?: typeof fetch
  timeoutMs?: number
}

/**
 * The one way the portal reaches the server: the generated client (`createClient(transport)`) calls this
 * with method, path, query and body; it adds the gateway prefix, the Language and Resource headers, sends the session
 * cookie, unwraps the envelope and rejects with a RequestError on anything but code "0000".
 */
export function createTransport(options: TransportOptions): Transport {
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args))
  return async <C>(call: Parameters<Transport>[0]): Promise<Envelope<C>> => {
    const timeout = AbortSignal.timeout(options.timeoutMs ?? TIMEOUT_MS)
    const signal = call.signal ? AbortSignal.any([call.signal, timeout]) : timeout
    let response: Response
    try {
      response = await doFetch(buildUrl(call.path, call.query), {
        method: call.method,
        signal,
        credentials: 'same-origin',
        headers: {
          Language: options.language(),
          Accept: 'application/json',
          ...RESOURCE_HEADER,
          ...(call.body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
      })
    } catch (cause) {
      // An abort the caller asked for (a query cancelled by navigation) is not a failure to report.
      if (call.signal?.aborted) throw cause
      const error = new RequestError('network', (cause as Error).message || 'Network Error', 0)
      options.onFailure?.('toast', error)
      throw error
    }
    const envelope = (await response.json().catch(() => null)) as Envelope<C> | null
    // Cancelled while the body was read (a query whose key moved on): no answer to report, whatever the status.
    if (call.signal?.aborted) throw call.signal.reason
    const outcome = classify(response.status, envelope)
    if (outcome === 'ok' && envelope) return envelope
    const error = new RequestError(
      envelope ? String(envelope.code) : String(response.status),
      envelope?.message || response.statusText || 'Error',
      response.status,
      envelope?.content ?? null,
    )
    if (outcome !== 'ok') options.onFailure?.(outcome, error)
    throw error
  }
}
