/**
 * What a file is, read from its first bytes — never from the name or the Content-Type the client sent.
 * Formats that are containers (ZIP for xlsx/docx, OLE for xls/doc) or have no signature (csv, txt) also
 * need the name's extension to say which member of the family they are, and it must agree with the bytes.
 */

export interface Sniffed {
  /** The extensions this content may carry (jpg and jpeg are one format). */
  extensions: string[]
  contentType: string
  /** Images are shown inline; everything else downloads as an attachment. */
  image: boolean
}

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b)

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0))

const OOXML: Record<string, { marker: string; contentType: string }> = {
  xlsx: { marker: 'xl/', contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
  docx: { marker: 'word/', contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
  pptx: { marker: 'ppt/', contentType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation' },
}
const OLE: Record<string, string> = {
  xls: 'application/vnd.ms-excel',
  doc: 'application/msword',
  ppt: 'application/vnd.ms-powerpoint',
}
const TEXT: Record<string, string> = { csv: 'text/csv', txt: 'text/plain' }

/** The lower-case extension of a file name ('' when it has none). */
export function extensionOf(name: string): string {
  const match = /\.([A-Za-z0-9]{1,10})$/.exec(name)
  return match?.[1]?.toLowerCase() ?? ''
}

/** Whether the bytes are text: valid UTF-8 with no NUL and few control characters. */
function isText(bytes: Uint8Array): boolean {
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return false
  }
  // Tabs, line and form feeds are text; other control characters are not.
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x20 && (code < 0x09 || code > 0x0d)) return false
  }
  return true
}

/** The format of `bytes` given the file's name, or null when the bytes are not a format we store. */
export function sniff(bytes: Uint8Array, name: string): Sniffed | null {
  const ext = extensionOf(name)
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    return { extensions: ['png'], contentType: 'image/png', image: true }
  if (startsWith(bytes, [0xff, 0xd8, 0xff]))
    return { extensions: ['jpg', 'jpeg'], contentType: 'image/jpeg', image: true }
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a')))
    return { extensions: ['gif'], contentType: 'image/gif', image: true }
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8))
    return { extensions: ['webp'], contentType: 'image/webp', image: true }
  if (startsWith(bytes, [0x00, 0x00, 0x01, 0x00]) && bytes.length > 6)
    return { extensions: ['ico'], contentType: 'image/x-icon', image: true }
  if (startsWith(bytes, ascii('%PDF-'))) return { extensions: ['pdf'], contentType: 'application/pdf', image: false }
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) {
    const office = OOXML[ext]
    if (office) {
      const head = Buffer.from(bytes.subarray(0, Math.min(bytes.length, 64 * 1024))).toString('latin1')
      if (head.includes('[Content_Types].xml') && head.includes(office.marker))
        return { extensions: [ext], contentType: office.contentType, image: false }
      return null
    }
    return { extensions: ['zip'], contentType: 'application/zip', image: false }
  }
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) {
    const type = OLE[ext]
    return type ? { extensions: [ext], contentType: type, image: false } : null
  }
  const text = TEXT[ext]
  if (text && bytes.length > 0 && isText(bytes)) return { extensions: [ext], contentType: text, image: false }
  return null
}

/** A name safe to store and to send back: no folders, no control characters, at most 255 characters. */
export function cleanName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? ''
  const clean = [...base]
    .filter((c) => c.charCodeAt(0) >= 0x20 && c !== '\u007f' && c !== '"')
    .join('')
    .trim()
    .slice(-255)
  return clean || 'file'
}
