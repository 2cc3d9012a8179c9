import { openPdf } from '../../pdf/document.ts'
import { articleBlocks } from './articleText.ts'
import type { NewsArticle } from './queries.ts'

/**
 * An article as a PDF (SPEC §1 "news centre … PDF download"), drawn on the server with pdfkit. Chinese
 * and Japanese need a CJK font inside the PDF: Noto Sans (OFL) comes from npm packages
 * (@embedpdf/fonts-sc, @embedpdf/fonts-jp), so a fresh machine has it after `npm install` whatever fonts
 * its OS has; only the glyphs used are embedded (docs/DECISIONS.md).
 */

export interface PdfLabels {
  /** The tenant's site name, printed above the title. */
  site: string
  /** "Published 2026-03-02" in the article's language. */
  published: string
  source: string
  author: string
  /** Where the article lives on the site, printed at the end. */
  link: string
}

const INK = '#1f2937'
const MUTED = '#6b7280'

/** The PDF bytes of one article; `cover` is the cover image (PNG or JPEG) when it has one. */
export async function articlePdf(article: NewsArticle, labels: PdfLabels, cover: Uint8Array | null): Promise<Buffer> {
  const { doc, finish } = openPdf({
    language: article.language,
    margins: { top: 56, bottom: 56, left: 60, right: 60 },
    info: {
      Title: article.title,
      Author: article.author || labels.site,
      Subject: article.summary,
      Creator: labels.site,
    },
  })
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right

  doc.font('body').fontSize(9).fillColor(MUTED).text(labels.site, { width })
  doc.moveDown(0.6)
  doc.font('bold').fontSize(20).fillColor(INK).text(article.title, { width, lineGap: 4 })
  doc.moveDown(0.4)
  const meta = [labels.published, labels.source, labels.author].filter(Boolean).join('    ')
  doc.font('body').fontSize(9.5).fillColor(MUTED).text(meta, { width })
  doc.moveDown(0.6)
  const ruleY = doc.y
  doc
    .moveTo(doc.page.margins.left, ruleY)
    .lineTo(doc.page.margins.left + width, ruleY)
    .lineWidth(0.6)
    .strokeColor('#d1d5db')
    .stroke()
  doc.moveDown(0.8)

  if (cover) {
    try {
      doc.image(Buffer.from(cover), { fit: [width, 240], align: 'center' })
      doc.moveDown(0.8)
    } catch {
      // A cover pdfkit cannot read (not PNG or JPEG) is left out rather than failing the download.
    }
  }
  if (article.summary) {
    doc.font('body').fontSize(11).fillColor(MUTED).text(article.summary, { width, lineGap: 3 })
    doc.moveDown(0.8)
  }
  for (const block of articleBlocks(article.content)) {
    switch (block.kind) {
      case 'heading':
        doc.moveDown(0.3).font('bold').fontSize(13.5).fillColor(INK).text(block.text, { width, lineGap: 3 })
        break
      case 'item':
        doc.font('body').fontSize(11).fillColor(INK).text(`•  ${block.text}`, { width, indent: 0, lineGap: 3 })
        break
      case 'quote':
        doc
          .font('body')
          .fontSize(11)
          .fillColor(MUTED)
          .text(block.text, doc.page.margins.left + 14, undefined, { width: width - 14, lineGap: 3 })
        doc.x = doc.page.margins.left
        break
      default:
        doc.font('body').fontSize(11).fillColor(INK).text(block.text, { width, lineGap: 4 })
    }
    doc.moveDown(0.5)
  }
  doc.moveDown(1)
  doc.font('body').fontSize(8.5).fillColor(MUTED).text(labels.link, { width, link: labels.link })
  return finish()
}
