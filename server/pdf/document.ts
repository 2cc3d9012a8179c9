import PDFDocument from 'pdfkit'
import { pdfFaces } from './fonts.ts'

/** What a PDF says about itself (its title, author, subject, the program that made it). */
export interface PdfInfo {
  Title: string
  Author: string
  Subject?: string
  Creator: string
}

export interface PdfOptions {
  /** The reader's language: the faces (./fonts.ts) and the document's language tag. */
  language: string
  margins: { top: number; bottom: number; left: number; right: number }
  info: PdfInfo
  layout?: 'portrait' | 'landscape'
  /** The page in points, [width, height]; A4 when left out (a carton label is 4 × 6 in, [288, 432]). */
  size?: [number, number]
}

/**
 * An A4 document (or one of `size`) with the shared faces registered as `body` and `bold`, and `finish()`, which ends it and
 * answers its bytes. Every PDF the server draws (news, draft B/L, bill, statement) starts here.
 */
export function openPdf(options: PdfOptions): { doc: PDFKit.PDFDocument; finish(): Promise<Buffer> } {
  const faces = pdfFaces(options.language)
  const doc = new PDFDocument({
    size: options.size ?? 'A4',
    ...(options.layout ? { layout: options.layout } : {}),
    margins: options.margins,
    info: options.info,
    lang: options.language === 'zh' ? 'zh-CN' : options.language,
  })
  const chunks: Buffer[] = []
  doc.on('data', (chunk: Buffer) => chunks.push(chunk))
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', () => resolve())
    doc.on('error', reject)
  })
  doc.registerFont('body', faces.regular)
  doc.registerFont('bold', faces.bold)
  return {
    doc,
    async finish() {
      doc.end()
      await done
      return Buffer.concat(chunks)
    },
  }
}
