import { groupDigits } from '../../../rules/decimal.ts'
import { type Language, messageFor } from '../../http/errors.ts'
import { openPdf } from '../../pdf/document.ts'
import type { Branding } from '../blDraft/branding.ts'
import type { BillLine, BillTotal } from './figures.ts'
import { bucketOf, type Conversion, type StatementBalance, type StatementBill } from './statement.ts'

/**
 * A bill as the customer keeps it (issue #24): the tenant's name, logo and colour at the top, the bill's
 * references, its charge lines each in its own currency, and the totals per currency with what is paid and
 * open — labelled in the reader's language. Drawn with pdfkit and the shared Noto faces (server/pdf/fonts.ts),
 * as the draft B/L is (server/domain/blDraft/pdf.ts).
 */

export interface BillDocument {
  billingNo: string
  billingType: string
  state: string
  customer: string
  orderNo: string
  mbl: string
  hbl: string
  jobNo: string
  port: string
  inputDate: string
  remarks: string
  lines: BillLine[]
  totals: BillTotal[]
}

const INK = '#111827'
const MUTED = '#6b7280'
const LINE = '#d1d5db'
const MARGIN = 36

interface TableColumn {
  share: number
  align: 'left' | 'right'
}

/**
 * One row of a table across the page at `at.y`, each value cut to its column, ruled below; a row that starts
 * below `at.bottom` starts a new page. Answers where the next row starts.
 */
function tableRow(
  doc: PDFKit.PDFDocument,
  at: { left: number; width: number; y: number; bottom: number; height: number },
  columns: readonly TableColumn[],
  values: readonly string[],
  font: 'body' | 'bold',
  color: string,
): number {
  let y = at.y
  if (y > at.bottom) {
    doc.addPage()
    y = MARGIN
  }
  let x = at.left
  columns.forEach((column, i) => {
    const w = column.share * at.width
    doc
      .font(font)
      .fontSize(8.5)
      .fillColor(color)
      .text(values[i] ?? '', x + 3, y + 4, { width: w - 6, align: column.align, lineBreak: false, ellipsis: true })
    x += w
  })
  y += at.height
  doc
    .moveTo(at.left, y)
    .lineTo(at.left + at.width, y)
    .lineWidth(0.5)
    .strokeColor(LINE)
    .stroke()
  return y
}

export async function billPdf(bill: BillDocument, branding: Branding, language: Language): Promise<Buffer> {
  const t = (key: string) => messageFor(key, language)
  const title = bill.billingType === 'payable' ? t('bill.payable') : t('bill.receivable')
  const { doc, finish } = openPdf({
    language,
    margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
    info: { Title: `${t('bill.entity')} ${bill.billingNo}`, Author: branding.name, Creator: branding.name },
  })
  const left = MARGIN
  const width = doc.page.width - 2 * MARGIN
  const bottom = doc.page.height - MARGIN

  // Header: logo and the tenant's name in its colour; the document's title and number on the right.
  let y = MARGIN
  let nameX = left
  if (branding.logo) {
    try {
      doc.image(Buffer.from(branding.logo), left, y, { fit: [120, 36] })
      nameX = left + 128
    } catch {
      // A logo pdfkit cannot read leaves the name alone rather than failing the bill.
    }
  }
  doc.font('bold').fontSize(14).fillColor(branding.color)
  doc.text(branding.name, nameX, y + 4, { width: width / 2, lineBreak: false, ellipsis: true })
  doc.font('bold').fontSize(15).fillColor(INK)
  doc.text(`${t('bill.entity')} · ${title}`, left + width / 2, y, { width: width / 2, align: 'right' })
  doc.font('body').fontSize(9).fillColor(MUTED)
  doc.text(`${t('bill.billingNo')} ${bill.billingNo}`, left + width / 2, y + 20, { width: width / 2, align: 'right' })
  y += 44
  doc.rect(left, y, width, 2).fillColor(branding.color).fill()
  y += 10

  // References: two columns of label and value.
  const references: [string, string][] = [
    [t('field.customerCompany'), bill.customer],
    [t('field.orderNo'), bill.orderNo],
    [t('field.mbl'), bill.mbl],
    [t('field.hbl'), bill.hbl],
    [t('field.jobNo'), bill.jobNo],
    [t('bill.port'), bill.port],
    [t('bill.inputDate'), bill.inputDate],
    [t('field.state'), t(`bill.${bill.state}`)],
  ]
  const half = width / 2
  references.forEach(([name, value], i) => {
    const x = left + (i % 2) * half
    const rowY = y + Math.floor(i / 2) * 16
    doc.font('body').fontSize(8).fillColor(MUTED).text(name, x, rowY, { width: 90, lineBreak: false })
    doc
      .font('body')
      .fontSize(9)
      .fillColor(INK)
      .text(value || '—', x + 92, rowY - 1, { width: half - 96, lineBreak: false, ellipsis: true })
  })
  y += Math.ceil(references.length / 2) * 16 + 10

  // The lines: name, unit, quantity, unit price, currency, tax rate, tax, amount.
  const columns: { key: string; label: string; share: number; align: 'left' | 'right' }[] = [
    { key: 'chargeName', label: t('field.chargeName'), share: 0.26, align: 'left' },
    { key: 'unit', label: t('field.chargeUnit'), share: 0.09, align: 'left' },
    { key: 'quantity', label: t('field.quantity'), share: 0.09, align: 'right' },
    { key: 'unitPrice', label: t('field.unitPrice'), share: 0.13, align: 'right' },
    { key: 'currency', label: t('field.currency'), share: 0.08, align: 'left' },
    { key: 'taxRate', label: t('bill.taxRate'), share: 0.1, align: 'right' },
    { key: 'tax', label: t('bill.tax'), share: 0.11, align: 'right' },
    { key: 'amount', label: t('field.amount'), share: 0.14, align: 'right' },
  ]
  const row = (values: string[], font: 'body' | 'bold', color: string) => {
    y = tableRow(doc, { left, width, y, bottom: bottom - 40, height: 18 }, columns, values, font, color)
  }
  doc.rect(left, y, width, 18).fillColor(branding.color).fillOpacity(0.12).fill().fillOpacity(1)
  row(
    columns.map((c) => c.label),
    'bold',
    INK,
  )
  for (const line of bill.lines)
    row(
      [
        line.chargeName,
        line.unit,
        String(line.quantity),
        groupDigits(line.unitPrice),
        line.currency,
        line.taxRate === null || line.taxRate === undefined ? '' : String(line.taxRate),
        groupDigits(line.tax ?? ''),
        groupDigits(line.amount ?? ''),
      ],
      'body',
      INK,
    )

  // Totals per currency, never added across currencies.
  y += 10
  doc.font('bold').fontSize(10).fillColor(INK).text(t('bill.totals'), left, y)
  y += 16
  for (const total of bill.totals) {
    const text = `${total.currency}  ${t('field.amount')} ${groupDigits(total.amount)}   ${t('bill.paid')} ${groupDigits(total.paid)}   ${t('bill.open')} ${groupDigits(total.open)}`
    doc.font('body').fontSize(9.5).fillColor(INK).text(text, left, y, { width, align: 'right' })
    y += 15
  }
  if (bill.remarks) {
    y += 8
    doc
      .font('body')
      .fontSize(8.5)
      .fillColor(MUTED)
      .text(`${t('field.remarks')}: ${bill.remarks}`, left, y, { width })
  }
  return finish()
}

export interface StatementDocument {
  customer: string
  date: string
  bills: StatementBill[]
  balances: StatementBalance[]
  conversion: Conversion | null
}

/** A customer's statement: every confirmed bill, the balance per currency, and a conversion only when one was asked. */
export async function statementPdf(
  statement: StatementDocument,
  branding: Branding,
  language: Language,
): Promise<Buffer> {
  const t = (key: string, params?: Record<string, unknown>) => messageFor(key, language, params)
  const { doc, finish } = openPdf({
    language,
    layout: 'landscape',
    margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
    info: { Title: `${t('finance.statement')} ${statement.customer}`, Author: branding.name, Creator: branding.name },
  })
  const left = MARGIN
  const width = doc.page.width - 2 * MARGIN
  const bottom = doc.page.height - MARGIN
  let y = MARGIN
  doc
    .font('bold')
    .fontSize(14)
    .fillColor(branding.color)
    .text(branding.name, left, y, { width: width / 2, lineBreak: false })
  doc
    .font('bold')
    .fontSize(15)
    .fillColor(INK)
    .text(t('finance.statement'), left + width / 2, y, { width: width / 2, align: 'right' })
  y += 22
  doc.font('body').fontSize(9).fillColor(MUTED)
  doc.text(`${t('field.customerCompany')}: ${statement.customer}`, left, y, { width: width / 2 })
  doc.text(`${t('finance.statementDate')}: ${statement.date}`, left + width / 2, y, {
    width: width / 2,
    align: 'right',
  })
  y += 16
  doc.rect(left, y, width, 2).fillColor(branding.color).fill()
  y += 8

  const table = (columns: { label: string; share: number; align: 'left' | 'right' }[], rows: string[][]) => {
    const draw = (values: string[], font: 'body' | 'bold') => {
      y = tableRow(doc, { left, width, y, bottom: bottom - 30, height: 17 }, columns, values, font, INK)
    }
    draw(
      columns.map((c) => c.label),
      'bold',
    )
    for (const row of rows) draw(row, 'body')
    y += 10
  }
  table(
    [
      { label: t('bill.billingNo'), share: 0.16, align: 'left' },
      { label: t('bill.billingType'), share: 0.1, align: 'left' },
      { label: t('bill.inputDate'), share: 0.1, align: 'left' },
      { label: t('finance.ageing'), share: 0.12, align: 'left' },
      { label: t('field.currency'), share: 0.08, align: 'left' },
      { label: t('field.amount'), share: 0.15, align: 'right' },
      { label: t('bill.paid'), share: 0.14, align: 'right' },
      { label: t('bill.open'), share: 0.15, align: 'right' },
    ],
    statement.bills.map((bill) => [
      bill.billingNo,
      t(`bill.${bill.billingType}`),
      bill.inputDate,
      t(`finance.${bucketOf(bill.age)}`),
      bill.currency,
      groupDigits(bill.amount),
      groupDigits(bill.paid),
      groupDigits(bill.open),
    ]),
  )
  doc.font('bold').fontSize(10).fillColor(INK).text(t('finance.balance'), left, y)
  y += 14
  table(
    [
      { label: t('field.currency'), share: 0.25, align: 'left' },
      { label: t('field.amount'), share: 0.25, align: 'right' },
      { label: t('bill.paid'), share: 0.25, align: 'right' },
      { label: t('finance.balance'), share: 0.25, align: 'right' },
    ],
    statement.balances.map((b) => [b.currency, ...[b.billed, b.paid, b.open].map(groupDigits)]),
  )
  const conversion = statement.conversion
  if (conversion) {
    doc
      .font('bold')
      .fontSize(10)
      .fillColor(INK)
      .text(
        `${t('finance.converted')} → ${conversion.target} (${t('finance.rateDate')} ${conversion.rateDate})`,
        left,
        y,
      )
    y += 14
    table(
      [
        { label: t('field.currency'), share: 0.2, align: 'left' },
        { label: `${t('finance.rate')} (CNY)`, share: 0.2, align: 'right' },
        { label: t('finance.balance'), share: 0.3, align: 'right' },
        { label: conversion.target, share: 0.3, align: 'right' },
      ],
      [
        ...conversion.lines.map((line) => [
          line.currency,
          conversion.rates.find((r) => r.currency === line.currency)?.rateToCny ?? '',
          groupDigits(line.open),
          groupDigits(line.converted),
        ]),
        [
          conversion.target,
          conversion.rates.find((r) => r.currency === conversion.target)?.rateToCny ?? '',
          '',
          groupDigits(conversion.total),
        ],
      ],
    )
  }
  return finish()
}
