import { describe, expect, it } from 'vitest'
import { articleHtml } from '../../server/db/seed/news.ts'
import { articleBlocks, decodeEntities } from '../../server/domain/news/articleText.ts'
import { coverId, newsLanguage, splitTags } from '../../server/domain/news/queries.ts'

describe('article text for the PDF', () => {
  it('keeps headings, paragraphs, list items and quotes in order, without markup', () => {
    const html =
      '<h2>ICS2 &amp; ENS</h2><p>File <strong>before</strong> loading.<br>Line two</p>' +
      '<ul><li><p>HS code</p></li><li>Consignee</li></ul><blockquote>Vague text is refused.</blockquote>'
    expect(articleBlocks(html)).toEqual([
      { kind: 'heading', text: 'ICS2 & ENS' },
      { kind: 'paragraph', text: 'File before loading.\nLine two' },
      { kind: 'item', text: 'HS code' },
      { kind: 'item', text: 'Consignee' },
      { kind: 'quote', text: 'Vague text is refused.' },
    ])
  })

  it('reads text with no block element as one paragraph, and skips empty blocks', () => {
    expect(articleBlocks('上海港 <em>拥堵</em>')).toEqual([{ kind: 'paragraph', text: '上海港 拥堵' }])
    expect(articleBlocks('<p> </p><p>x</p>')).toEqual([{ kind: 'paragraph', text: 'x' }])
  })

  it('decodes named and numeric entities, leaving unknown ones', () => {
    expect(decodeEntities('&lt;a&gt; &#x4E0A;&#28023; &nbsp;&bogus;')).toBe('<a> 上海 \u0020&bogus;')
  })

  it('round-trips the seed articles', () => {
    const html = articleHtml(['## Heading <b>', 'Body & more'])
    expect(html).toBe('<h2>Heading &lt;b&gt;</h2><p>Body &amp; more</p>')
    expect(articleBlocks(html).map((b) => b.text)).toEqual(['Heading <b>', 'Body & more'])
  })
})

describe('news values', () => {
  it('splits tags on western, Chinese and Japanese separators, once each', () => {
    expect(splitTags('港口，海关、ICS2; ICS2 ,')).toEqual(['港口', '海关', 'ICS2'])
    expect(splitTags(null)).toEqual([])
  })

  it('serves Spanish and unknown readers the English news', () => {
    expect(newsLanguage('ja')).toBe('ja')
    expect(newsLanguage('es')).toBe('en')
    expect(newsLanguage(undefined)).toBe('en')
  })

  it('reads the cover id from one uuid or a list of one', () => {
    expect(coverId('abc')).toBe('abc')
    expect(coverId(['abc'])).toBe('abc')
    expect(coverId('')).toBeNull()
    expect(coverId(null)).toBeNull()
  })
})
