/**
 * The stored article (sanitised HTML of the rich-text editor, server/http/sanitize.ts) as blocks of
 * plain text for the PDF: headings, paragraphs, list items and quotes, in order. The sanitiser has already
 * cut the HTML down to the editor's tags, so a small scan is enough; no markup reaches the PDF.
 */

export interface TextBlock {
  kind: 'heading' | 'paragraph' | 'item' | 'quote'
  text: string
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" }

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z0-9]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1))
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : whole
    }
    return ENTITIES[name.toLowerCase()] ?? whole
  })
}

/** Inline markup to text: line breaks kept, other tags dropped, whitespace runs folded. */
function inlineText(html: string): string {
  const withBreaks = html.replace(/<br\s*\/?>/gi, '\n')
  const bare = withBreaks.replace(/<[^>]*>/g, '')
  return decodeEntities(bare)
    .split('\n')
    .map((line) => line.replace(/[ \t\r\f\v]+/g, ' ').trim())
    .join('\n')
    .trim()
}

const BLOCK = /<(h[1-4]|p|li|blockquote|pre)\b[^>]*>([\s\S]*?)<\/\1>/gi

export function articleBlocks(html: string): TextBlock[] {
  const blocks: TextBlock[] = []
  let matched = false
  for (const match of html.matchAll(BLOCK)) {
    matched = true
    const tag = (match[1] ?? '').toLowerCase()
    // A quote or list item holding paragraphs gives their text once, as itself.
    const text = inlineText((match[2] ?? '').replace(/<\/p>\s*<p[^>]*>/gi, '\n'))
    if (!text) continue
    const kind = tag.startsWith('h') ? 'heading' : tag === 'li' ? 'item' : tag === 'blockquote' ? 'quote' : 'paragraph'
    blocks.push({ kind, text })
  }
  if (!matched) {
    const text = inlineText(html)
    if (text) blocks.push({ kind: 'paragraph', text })
  }
  return blocks
}
