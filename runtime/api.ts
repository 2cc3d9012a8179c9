import { LANGUAGE_HEADER, type Language } from './i18n.ts'

export interface Envelope<C> {
  code: string
  message: string
  content: C
}

/** The one way the portal calls the server: the gateway prefix, the language header and the envelope. */
export async function call<C>(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  { language, body, signal }: { language: Language; body?: unknown; signal?: AbortSignal },
): Promise<Envelope<C>> {
  const response = await fetch(`/api${path}`, {
    method,
    signal,
    credentials: 'same-origin',
    headers: {
      Language: LANGUAGE_HEADER[language],
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const envelope = (await response.json().catch(() => null)) as Envelope<C> | null
  if (!envelope) throw new Error(`${response.status} ${response.statusText}`)
  return envelope
}
