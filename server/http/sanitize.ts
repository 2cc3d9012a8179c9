import sanitizeHtml from 'sanitize-html'
import type { FieldDef } from '../../model/definitions.ts'
import { paragraphs } from '../../model/siteMeta.ts'
import { storableText } from '../../rules/keywords.ts'

/**
 * Rich text (fields of type richText) is HTML a user typed in the portal's editor; whatever reaches the
 * server is cut down to the formatting that editor makes — paragraphs, headings, emphasis, lists, quotes,
 * links — before it is validated and stored. Scripts, event handlers, styles beyond underline and
 * strike-through, images, frames and `javascript:` links are dropped, so a stored field can be shown as
 * HTML anywhere without another pass.
 */

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'h1',
    'h2',
    'h3',
    'h4',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'span',
    'ul',
    'ol',
    'li',
    'blockquote',
    'code',
    'pre',
    'a',
  ],
  allowedAttributes: { a: ['href', 'target', 'rel'], span: ['style'], ol: ['start'] },
  allowedStyles: { span: { 'text-decoration': [/^(underline|line-through)( (underline|line-through))?$/] } },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // A link opens in a new tab without handing it this window.
  transformTags: {
    a: (tagName, attribs) => ({
      tagName,
      attribs: {
        ...(attribs.href ? { href: attribs.href } : {}),
        target: '_blank',
        rel: 'noopener noreferrer nofollow',
      },
    }),
  },
}

export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, OPTIONS)
}

/**
 * A stored text of a rich-text field as safe HTML: rich text sanitised again (it was when saved; this holds for
 * rows written by other paths too), a text stored before the field was rich — not opening with a tag — as its paragraphs
 * (blank lines between them), escaped, its single line breaks kept.
 */
export function richTextHtml(content: string): string {
  // The editor's HTML opens with a block tag; a text that does not is a text (its `<` and `&` are characters).
  if (/^\s*</.test(content)) return sanitizeRichText(content)
  const escaped = (text: string) =>
    text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
  return paragraphs(content)
    .map((paragraph) => `<p>${escaped(paragraph).replace(/\n/g, '<br>')}</p>`)
    .join('')
}

/**
 * A body with every rich-text field (also inside array rows) sanitised; anything else is left as it is,
 * including values of the wrong type, which validation then refuses.
 */
export function sanitizeRichTextFields(fields: Record<string, FieldDef>, body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body
  let out: Record<string, unknown> | undefined
  for (const [name, field] of Object.entries(fields)) {
    const value = (body as Record<string, unknown>)[name]
    let next = value
    // Text no database can store (a NUL, a lone surrogate) is left as sent, for the validator to refuse:
    // cleaning it first could drop the very character that makes it unstorable and accept the rest.
    if (field.type === 'richText' && typeof value === 'string' && storableText(value)) next = sanitizeRichText(value)
    else if (field.type === 'array' && field.items && Array.isArray(value))
      next = value.map((row) => sanitizeRichTextFields(field.items as Record<string, FieldDef>, row))
    if (next !== value) {
      out ??= { ...(body as Record<string, unknown>) }
      out[name] = next
    }
  }
  return out ?? body
}

/** Whether an entity has a rich-text field anywhere (most do not: their bodies are passed through untouched). */
export function hasRichText(fields: Record<string, FieldDef>): boolean {
  return Object.values(fields).some((f) => f.type === 'richText' || (f.items !== undefined && hasRichText(f.items)))
}
