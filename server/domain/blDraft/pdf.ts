import { type Language, messageFor } from '../../http/errors.ts'
import { openPdf } from '../../pdf/document.ts'
import type { BlContainer, BlInstruction, BlPlace } from '../dcsa/instruction.ts'
import type { Branding } from './branding.ts'

/**
 * The draft bill of lading the customer reviews before the B/L is issued (issue #23): the classic layout —
 * shipper, consignee and notify boxes on the left, the document's numbers and terms on the right, vessel,
 * voyage and the four places, the containers, marks and description — in the tenant's name, logo and colour,
 * with DRAFT across every page. Drawn with pdfkit like the news PDF (server/domain/news/pdf.ts); Noto Sans
 * from the npm font packages covers the Chinese goods name and labels, embedded as a subset.
 */

const INK = '#111827'
const MUTED = '#6b7280'
const LINE = '#9ca3af'
const MARGIN = 32
const PAD = 4

const WOOD_KEYS = {
  none: 'woodNone',
  notTreated: 'woodNotTreated',
  processed: 'woodProcessed',
  treated: 'woodTreated',
} as const

const placeText = (place: BlPlace | null) => (place ? [place.name, place.code].filter(Boolean).join(' / ') : '')
const amount = (value: number, decimals: number) => (value > 0 ? value.toFixed(decimals) : '')

/** The PDF bytes of one instruction's draft B/L, labelled in `language`. */
export async function blDraftPdf(instruction: BlInstruction, branding: Branding, language: Language): Promise<Buffer> {
  const label = (key: string) => messageFor(`blDraft.${key}`, language)
  const { doc, finish } = openPdf({
    language,
    margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
    info: {
      Title: `${label('title')} ${instruction.blNo}`.trim(),
      Author: branding.name,
      Subject: label('watermark'),
      Creator: branding.name,
    },
  })
  const left = MARGIN
  const width = doc.page.width - 2 * MARGIN
  const bottom = doc.page.height - MARGIN

  const watermark = () => {
    doc.save()
    const text = label('watermark')
    doc.font('bold').fontSize(120)
    const w = doc.widthOfString(text)
    const cx = doc.page.width / 2
    const cy = doc.page.height / 2
    doc.rotate(-35, { origin: [cx, cy] })
    doc
      .fillColor(branding.color)
      .fillOpacity(0.1)
      .text(text, cx - w / 2, cy - 70, { lineBreak: false })
    doc.restore()
  }

  /** A labelled box: the label small and muted, the value below it. */
  const box = (x: number, y: number, w: number, h: number, name: string, value: string, size = 8.5) => {
    doc.rect(x, y, w, h).lineWidth(0.6).strokeColor(LINE).stroke()
    doc
      .font('body')
      .fontSize(6.5)
      .fillColor(MUTED)
      .text(name, x + PAD, y + PAD - 1, { width: w - 2 * PAD, lineBreak: false })
    doc
      .font('body')
      .fontSize(size)
      .fillColor(INK)
      .text(value, x + PAD, y + PAD + 8, { width: w - 2 * PAD, height: h - PAD - 10, lineGap: 0.5, ellipsis: true })
  }

  watermark()

  // Header: the tenant's logo and name in its colour; the document's title and DRAFT on the right.
  let y = MARGIN
  let nameX = left
  if (branding.logo) {
    try {
      doc.image(Buffer.from(branding.logo), left, y, { fit: [120, 36] })
      nameX = left + 128
    } catch {
      // A logo pdfkit cannot read leaves the name alone rather than failing the draft.
    }
  }
  doc
    .font('bold')
    .fontSize(14)
    .fillColor(branding.color)
    .text(branding.name, nameX, y + 4, { width: width / 2, lineBreak: false, ellipsis: true })
  doc
    .font('bold')
    .fontSize(15)
    .fillColor(INK)
    .text(label('title'), left + width / 2, y, { width: width / 2, align: 'right' })
  doc
    .font('bold')
    .fontSize(9)
    .fillColor(branding.color)
    .text(label('draftNote'), left + width / 2, y + 20, { width: width / 2, align: 'right' })
  y += 44
  doc
    .rect(left, y - 6, width, 2)
    .fillColor(branding.color)
    .fill()

  // Parties on the left; numbers and terms on the right.
  const half = width / 2
  // A party is 7 lines of 35 characters (SPEC §5): 7.5 pt lines fit in a box 92 pt high.
  const partyHeight = 92
  box(left, y, half, partyHeight, label('shipper'), instruction.shipper, 7.5)
  box(left, y + partyHeight, half, partyHeight, label('consignee'), instruction.consignee, 7.5)
  box(left, y + 2 * partyHeight, half, partyHeight, label('notifyParty'), instruction.notifyParty, 7.5)
  const right = left + half
  const quarter = half / 2
  const cell = 36
  const freight = instruction.freightTerm === 'collect' ? label('freightCollect') : label('freightPrepaid')
  const blWay = instruction.blWay === 'split' ? label('blWaySplit') : label('blWayGeneral')
  const terms: [string, string][] = [
    [label('blNo'), instruction.blNo],
    [label('bookingNo'), instruction.bookingNo],
    [label('bizNo'), instruction.bizNo],
    [label('carrier'), [instruction.carrierName, instruction.carrier].filter(Boolean).join(' / ')],
    [label('originals'), instruction.originalCount ? String(instruction.originalCount) : ''],
    [label('copies'), instruction.copyCount ? String(instruction.copyCount) : ''],
    [label('freight'), freight],
    [label('transportClause'), instruction.transportClause],
    [label('blWay'), blWay],
    [label('etd'), instruction.etd ?? ''],
  ]
  terms.forEach(([name, value], i) => {
    const row = Math.floor(i / 2)
    box(right + (i % 2) * quarter, y + row * cell, quarter, cell, name, value)
  })
  // The remarks fill the right column down to the parties' height.
  box(right, y + 5 * cell, half, 3 * partyHeight - 5 * cell, label('remarks'), instruction.remarks, 7.5)
  y += 3 * partyHeight

  // Vessel, voyage and the four places.
  const placeHeight = 32
  const sixth = width / 3
  box(
    left,
    y,
    sixth,
    placeHeight,
    label('vesselVoyage'),
    [instruction.vessel, instruction.voyage].filter(Boolean).join(' / '),
  )
  box(left + sixth, y, sixth, placeHeight, label('placeOfReceipt'), placeText(instruction.placeOfReceipt))
  box(left + 2 * sixth, y, sixth, placeHeight, label('portOfLoading'), placeText(instruction.portOfLoading))
  y += placeHeight
  box(left, y, sixth, placeHeight, label('portOfDischarge'), placeText(instruction.portOfDischarge))
  box(left + sixth, y, sixth, placeHeight, label('placeOfDelivery'), placeText(instruction.placeOfDelivery))
  box(left + 2 * sixth, y, sixth, placeHeight, label('hsCode'), instruction.hsCode)
  y += placeHeight + 8

  // Containers.
  const columns: { key: string; share: number; value: (c: BlContainer) => string; align?: 'right' }[] = [
    { key: 'containerNo', share: 0.2, value: (c) => c.number },
    { key: 'seal', share: 0.17, value: (c) => c.seal },
    { key: 'sizeType', share: 0.12, value: (c) => c.sizeType },
    { key: 'packages', share: 0.15, value: (c) => (c.quantity ? String(c.quantity) : ''), align: 'right' },
    { key: 'grossWeight', share: 0.18, value: (c) => amount(c.grossWeight, 3), align: 'right' },
    { key: 'volume', share: 0.18, value: (c) => amount(c.volume, 3), align: 'right' },
  ]
  const rowHeight = 14
  const tableRow = (cells: string[], bold: boolean) => {
    let x = left
    columns.forEach((column, i) => {
      const w = column.share * width
      doc
        .font(bold ? 'bold' : 'body')
        .fontSize(8)
        .fillColor(bold ? branding.color : INK)
        .text(cells[i] ?? '', x + PAD, y + 3, {
          width: w - 2 * PAD,
          align: column.align ?? 'left',
          lineBreak: false,
          ellipsis: true,
        })
      x += w
    })
    doc
      .moveTo(left, y + rowHeight)
      .lineTo(left + width, y + rowHeight)
      .lineWidth(0.4)
      .strokeColor(LINE)
      .stroke()
    y += rowHeight
  }
  const newPageIfNeeded = (height: number) => {
    if (y + height <= bottom - 30) return
    doc.addPage()
    watermark()
    y = MARGIN
  }
  doc.font('bold').fontSize(8.5).fillColor(INK).text(label('containers'), left, y)
  y += 12
  tableRow(
    columns.map((c) => label(c.key)),
    true,
  )
  for (const container of instruction.containers) {
    newPageIfNeeded(rowHeight)
    tableRow(
      columns.map((c) => c.value(container)),
      false,
    )
  }
  const sum = (pick: (c: BlContainer) => number) => instruction.containers.reduce((total, c) => total + pick(c), 0)
  tableRow(
    [
      label('total'),
      '',
      String(instruction.containers.length),
      sum((c) => c.quantity) ? `${sum((c) => c.quantity)} ${instruction.packageType}`.trim() : instruction.packageType,
      amount(
        sum((c) => c.grossWeight),
        3,
      ),
      amount(
        sum((c) => c.volume),
        3,
      ),
    ],
    true,
  )
  y += 8

  // Marks and numbers beside the description of goods.
  const marks = instruction.containers
    .map((c) => c.marks)
    .filter(Boolean)
    .join('\n')
  const description = [
    instruction.goodsNameEn,
    instruction.goodsNameCn,
    ...instruction.containers.map((c) => c.description).filter((d) => d && d !== instruction.goodsNameEn),
    `${label('woodPackaging')}: ${label(WOOD_KEYS[instruction.woodPackaging])}`,
    instruction.unNo
      ? `${label('dangerous')}: ${[instruction.dangerousClass, `UN ${instruction.unNo}`].filter(Boolean).join(' / ')}`
      : '',
  ]
    .filter(Boolean)
    .join('\n')
  doc.font('body').fontSize(8.5)
  const textHeight = Math.max(
    doc.heightOfString(marks || ' ', { width: width * 0.3 - 2 * PAD }),
    doc.heightOfString(description, { width: width * 0.7 - 2 * PAD }),
  )
  const goodsHeight = Math.max(80, textHeight + 20)
  newPageIfNeeded(goodsHeight)
  box(left, y, width * 0.3, goodsHeight, label('marks'), marks)
  box(left + width * 0.3, y, width * 0.7, goodsHeight, label('description'), description)
  y += goodsHeight + 10

  newPageIfNeeded(30)
  doc.font('body').fontSize(7.5).fillColor(MUTED).text(label('review'), left, y, { width })
  return finish()
}
