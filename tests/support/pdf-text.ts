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

/**
 * Every object of the PDF by its number. A stream's bytes are taken by its /Length (pdfkit writes it as a
 * number), never by searching for `endstream` or `endobj`: compressed bytes may hold those words by chance,
 * and the draft's compressed bytes change with its date.
 */
function objectsOf(pdf: Buffer): Map<number, PdfObject> {
  const source = pdf.toString('latin1')
  const objects = new Map<number, PdfObject>()
  const header = /(\d+) 0 obj\s*/g
  for (let match = header.exec(source); match; match = header.exec(source)) {
    const start = match.index + match[0].length
    const endAt = source.indexOf('endobj', start)
    const streamAt = source.indexOf('stream', start)
    if (endAt < 0) break
    if (streamAt < 0 || endAt < streamAt) {
      objects.set(Number(match[1]), { dictionary: source.slice(start, endAt), stream: null })
      header.lastIndex = endAt + 'endobj'.length
      continue
    }
    const dictionary = source.slice(start, streamAt)
    let from = streamAt + 'stream'.length
    if (source[from] === '\r') from++
    if (source[from] === '\n') from++
    const length = dictionary.match(/\/Length\s+(\d+)\b(?!\s+\d+\s+R)/)
    const raw = length
      ? source.slice(from, from + Number(length[1]))
      : source.slice(from, source.indexOf('endstream', from)).replace(/\r?\n$/, '')
    let bytes = Buffer.from(raw, 'latin1')
    if (dictionary.includes('/FlateDecode')) bytes = inflateSync(bytes)
    objects.set(Number(match[1]), { dictionary, stream: bytes })
    const after = source.indexOf('endobj', from + raw.length)
    if (after < 0) break
    header.lastIndex = after + 'endobj'.length
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
