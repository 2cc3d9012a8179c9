import type { FileCall } from '../generated/client.ts'
import { buildUrl, RESOURCE_HEADER, RequestError } from './api.ts'
import { languageHeader } from './i18n.ts'

/** Hands the user a file (an export, say) as the browser's download. */
export function downloadFile(fileName: string, content: string | Blob, type = 'application/octet-stream'): void {
  const blob = content instanceof Blob ? content : new Blob([content], { type: `${type};charset=utf-8` })
  const link = document.createElement('a')
  link.href = URL.createObjectURL(blob)
  link.download = fileName
  link.click()
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000)
}

/** The file name a download's Content-Disposition gives (its UTF-8 form first), else `fallback`. */
export function fileNameOf(disposition: string | null, fallback: string): string {
  const encoded = disposition?.match(/filename\*=UTF-8''([^;]+)/i)?.[1]
  if (encoded) {
    try {
      return decodeURIComponent(encoded)
    } catch {
      // a broken encoding: the plain name below
    }
  }
  return disposition?.match(/filename="([^"]+)"/i)?.[1] ?? fallback
}

/**
 * Fetches a file call (generated/client.ts `downloads`, FileCall) with the session cookie and the portal's headers:
 * a GET's input in the address, a POST's as its JSON body. A refusal comes back as the usual envelope, rejected as a
 * RequestError with its message and field errors, so the screen can say why.
 */
export async function fetchFile(call: FileCall): Promise<Response> {
  const posted = call.method === 'POST'
  const response = await fetch(buildUrl(call.path, posted ? undefined : call.query), {
    method: call.method,
    credentials: 'same-origin',
    headers: {
      Language: languageHeader(),
      ...RESOURCE_HEADER,
      ...(posted ? { 'Content-Type': 'application/json' } : {}),
    },
    ...(posted ? { body: JSON.stringify(call.body) } : {}),
  })
  await refusedUnlessFile(response)
  return response
}

/** Fetches a file call and hands the file to the user under the name the server gives (else `fallbackName`). */
export async function saveFile(call: FileCall, fallbackName: string): Promise<Response> {
  const response = await fetchFile(call)
  downloadFile(fileNameOf(response.headers.get('content-disposition'), fallbackName), await response.blob())
  return response
}

/** Downloads the file a GET `response: binary` endpoint sends (a record's PDF or DCSA JSON) and hands it to the user. */
export async function downloadFrom(path: string, query: object, fallbackName: string): Promise<void> {
  await saveFile({ method: 'GET', path, query }, fallbackName)
}

/** A refusal answers the usual envelope, not a file: rejected as a RequestError with its message and fields. */
async function refusedUnlessFile(response: Response): Promise<void> {
  const type = response.headers.get('content-type') ?? ''
  if (response.ok && !(type.startsWith('application/json') && !response.headers.get('content-disposition'))) return
  const envelope = (await response.json().catch(() => null)) as {
    code?: unknown
    message?: unknown
    content?: unknown
  } | null
  throw new RequestError(
    String(envelope?.code ?? response.status),
    typeof envelope?.message === 'string' ? envelope.message : response.statusText,
    response.status,
    envelope?.content ?? null,
  )
}

/** An export endpoint as the manifest has it: a list's (kind export) or a chart's (`chart.export`, exportPvList). */
export interface ExportEndpoint {
  method: string
  path: string
}

/** The call of an export endpoint with its input: a GET's query, anything else's body (SPEC §7's POST exports). */
export function exportCall(endpoint: ExportEndpoint, input: object): FileCall {
  return endpoint.method === 'GET'
    ? { method: 'GET', path: endpoint.path, query: input }
    : { method: 'POST', path: endpoint.path, body: input }
}

/**
 * Downloads an export's .xlsx (a list's streams, server/engine/index.ts; a chart's table): the request goes as
 * the body of a POST (as the query of a GET), the file is handed to the user once complete. Answers the row count
 * the server announced (`X-Export-Rows`, a list's); a refusal (over the export limit, say) rejects as a RequestError.
 */
export async function exportFrom(endpoint: ExportEndpoint, request: object, fallbackName: string): Promise<number> {
  const response = await saveFile(exportCall(endpoint, request), fallbackName)
  const rows = Number(response.headers.get('x-export-rows') ?? 0)
  return Number.isFinite(rows) ? rows : 0
}

/** Why the server refused a file, in the reader's language: its message and the fields the request lacks. */
export function refusalText(error: unknown): string {
  const fields = error instanceof RequestError ? error.fieldErrors.map((f) => `${f.field}: ${f.message}`) : []
  return [error instanceof Error ? error.message : String(error), ...fields].join('\n')
}
