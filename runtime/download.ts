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
  const type = response.headers.get('content-type') ?? ''
  if (!response.ok || (type.startsWith('application/json') && !response.headers.get('content-disposition'))) {
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
  downloadFile(fileNameOf(response.headers.get('content-disposition'), fallbackName), await response.blob())
}
