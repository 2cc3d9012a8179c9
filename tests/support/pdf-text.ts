import { inflateSync } from 'node:zlib'

/**
 * The text a PDF shows, for tests: enough of PDF to read what pdfkit writes (no text library is installed).
 * pdfkit draws an embedded font's text as glyph ids in hex strings (`[<0012> 30 <0034>] TJ`) and gives each
 * font a ToUnicode map; this inflates the streams, maps each font's resource name to its ToUnicode map, and
 * turns every text-showing operator back into characters. One line per text operator.
 */

interface PdfObject {
  dictionary: string
  stream: Buffer | null
}

function objectsOf(pdf: Buffer): Map<number, PdfObject> {
  const source = pdf.toString('latin1')
  const objects = new Map<number, PdfObject>()
  for (const match of source.matchAll(/(\d+) 0 obj\s*([\s\S]*?)endobj/g)) {
    const body = match[2] ?? ''
    const streamAt = body.indexOf('stream')
    if (streamAt < 0) {
      objects.set(Number(match[1]), { dictionary: body, stream: null })
      continue
    }
    const dictionary = body.slice(0, streamAt)
    let start = streamAt + 'stream'.length
    if (body[start] === '\r') start++
    if (body[start] === '\n') start++
    const end = body.lastIndexOf('endstream')
    let bytes = Buffer.from(body.slice(start, end).replace(/\r?\n$/, ''), 'latin1')
    if (dictionary.includes('/FlateDecode')) bytes = inflateSync(bytes)
    objects.set(Number(match[1]), { dictionary, stream: bytes })
  }
  return objects
}

type CMap = Map<number, string>

function hexText(spaced: string): string {
  // A ligature maps to several characters, written with spaces: <0066 0069> is "fi".
  const hex = spaced.replace(/\s+/g, '')
  const units: number[] = []
  for (let i = 0; i + 4 <= hex.length; i += 4) units.push(Number.parseInt(hex.slice(i, i + 4), 16))
  return String.fromCharCode(...units)
}

function cmapOf(text: string): CMap {
  const map: CMap = new Map()
  for (const block of text.matchAll(/beginbfchar([\s\S]*?)endbfchar/g))
    for (const [, code, target] of (block[1] ?? '').matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g))
      map.set(Number.parseInt(code as string, 16), hexText(target as string))
  for (const block of text.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const [, low, high, rest] of (block[1] ?? '').matchAll(
      /<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(\[[^\]]*\]|<[0-9a-fA-F]+>)/g,
    )) {
      const from = Number.parseInt(low as string, 16)
      const to = Number.parseInt(high as string, 16)
      if ((rest as string).startsWith('[')) {
        const targets = [...(rest as string).matchAll(/<([0-9a-fA-F\s]*)>/g)].map((m) => hexText(m[1] as string))
        targets.forEach((target, i) => map.set(from + i, target))
      } else {
        const first = hexText((rest as string).slice(1, -1))
        for (let code = from; code <= to; code++)
          map.set(code, first.slice(0, -1) + String.fromCharCode(first.charCodeAt(first.length - 1) + code - from))
      }
    }
  }
  return map
}

/** Every text operator's characters, one per line, in drawing order. */
export function pdfText(pdf: Buffer): string {
  const objects = objectsOf(pdf)
  // Font resource names (/F1) → the font object → its ToUnicode map.
  const fonts = new Map<string, CMap | null>()
  for (const { dictionary } of objects.values()) {
    for (const [, name, id] of dictionary.matchAll(/\/(F\d+)\s+(\d+) 0 R/g)) {
      const font = objects.get(Number(id))
      const toUnicode = font?.dictionary.match(/\/ToUnicode\s+(\d+) 0 R/)
      const cmap = toUnicode ? objects.get(Number(toUnicode[1]))?.stream : null
      fonts.set(name as string, cmap ? cmapOf(cmap.toString('latin1')) : null)
    }
  }
  const lines: string[] = []
  for (const { dictionary, stream } of objects.values()) {
    if (!stream || /\/(Subtype|Type)\s*\/(Image|XObject|FontFile|CIDFontType0C|OpenType)/.test(dictionary)) continue
    const content = stream.toString('latin1')
    if (!/\bTf\b/.test(content) || content.includes('begincmap')) continue
    let cmap: CMap | null = null
    for (const op of content.matchAll(/\/(F\d+)\s+[\d.]+\s+Tf|(\[(?:[^\]]*)\]\s*TJ|<[0-9a-fA-F]*>\s*Tj)/g)) {
      if (op[1]) {
        cmap = fonts.get(op[1]) ?? null
        continue
      }
      let line = ''
      for (const [, hex] of (op[2] ?? '').matchAll(/<([0-9a-fA-F]*)>/g)) {
        for (let i = 0; i + 4 <= (hex as string).length; i += 4) {
          const code = Number.parseInt((hex as string).slice(i, i + 4), 16)
          line += cmap?.get(code) ?? ''
        }
      }
      lines.push(line)
    }
  }
  return lines.join('\n')
}
