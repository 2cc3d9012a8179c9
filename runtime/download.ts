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
 * Downloads the file a `response: binary` endpoint sends (a record's PDF or DCSA JSON) with the session cookie
 * and the portal's headers, and hands it to the user. A refusal comes back as the usual envelope, rejected as a
 * RequestError with its message and field errors, so the screen can say why.
 */
export async function downloadFrom(path: string, query: object, fallbackName: string): Promise<void> {
  const response = await fetch(buildUrl(path, query), {
    credentials: 'same-origin',
    headers: { Language: languageHeader(), ...RESOURCE_HEADER },
  })
  await refusedUnlessFile(response)
  downloadFile(fileNameOf(response.headers.get('content-disposition'), fallbackName), await response.blob())
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

/** A list's export endpoint, as a screen binds it. */
export interface ExportEndpoint {
  method: string
  path: string
}

/**
 * Downloads a list's .xlsx export (the server streams it, server/engine/index.ts): the list request goes as the
 * body (as the query of a GET), the file is handed to the user once complete. Answers the row count the server
 * announced (`X-Export-Rows`); a refusal (over the export limit, say) rejects as a RequestError.
 */
export async function exportFrom(endpoint: ExportEndpoint, request: object, fallbackName: string): Promise<number> {
  const query = endpoint.method === 'GET' || endpoint.method === 'DELETE'
  const response = await fetch(buildUrl(endpoint.path, query ? request : undefined), {
    method: endpoint.method,
    credentials: 'same-origin',
    headers: {
      Language: languageHeader(),
      ...RESOURCE_HEADER,
      ...(query ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(query ? {} : { body: JSON.stringify(request) }),
  })
  await refusedUnlessFile(response)
  const rows = Number(response.headers.get('x-export-rows') ?? 0)
  downloadFile(fileNameOf(response.headers.get('content-disposition'), fallbackName), await response.blob())
  return Number.isFinite(rows) ? rows : 0
}

/** Why the server refused a file, in the reader's language: its message and the fields the request lacks. */
export function refusalText(error: unknown): string {
  const fields = error instanceof RequestError ? error.fieldErrors.map((f) => `${f.field}: ${f.message}`) : []
  return [error instanceof Error ? error.message : String(error), ...fields].join('\n')
}
