// The Node build by its own path: the typecheck resolves like a bundler, without the `node` condition.
import bwipjs from 'bwip-js/node'
import { sql, type Transaction } from 'kysely'
import type { DB } from '../../db/schema.ts'
import type { EngineApi } from '../../engine/index.ts'
import type { HandlerContext } from '../../http/context.ts'
import type { Handlers } from '../../http/endpoints.ts'
import { ApiError, type Language, messageFor } from '../../http/errors.ts'
import { parseId } from '../../http/ids.ts'
import { openPdf } from '../../pdf/document.ts'

/**
 * The carton labels of an FBA order (issue #26, screens/fba.yaml `fbaOrderLabels`): one 4 × 6 in page per box,
 * with the box number as a Code 128 barcode (drawn by bwip-js, so a warehouse scanner reads it), the order
 * number, the fulfilment centre's code and address, "box i of n", the box's weight and size and Amazon's
 * shipment id. The order is read through the engine's detail, so who may have it is the engine's answer: the
 * order's enterprise within its data scope, and the forwarder's operators; anyone else gets 404.
 */

export interface CartonBox {
  boxNo: string
  quantity?: number
  weight?: number
  length?: number
  width?: number
  height?: number
}

export interface CartonOrder {
  orderNo: string
  shipmentId: string | null
  centre: { code: string; addressLine1: string; city: string; state: string; zipCode: string; country: string } | null
  boxes: CartonBox[]
}

/** Points per millimetre, and the label page: 4 × 6 in, the size warehouse label printers take. */
const MM = 72 / 25.4
const PAGE: [number, number] = [288, 432]
const MARGIN = 18

/** The box number as a Code 128 barcode, a PNG at 3 px per module with a white quiet zone. */
export function boxBarcode(boxNo: string): Promise<Buffer> {
  return bwipjs.toBuffer({
    bcid: 'code128',
    text: boxNo,
    scale: 3,
    height: 15,
    paddingwidth: 10,
    paddingheight: 4,
    backgroundcolor: 'FFFFFF',
    includetext: false,
  })
}

const number = (value: number | undefined, places: number) =>
  typeof value === 'number' && Number.isFinite(value) ? value.toFixed(places).replace(/\.?0+$/, '') : '—'

/** The labels, one page per box in the order's box order; the texts in the reader's language. */
export async function cartonLabelsPdf(order: CartonOrder, language: Language): Promise<Buffer> {
  const t = (key: string, params?: Record<string, unknown>) => messageFor(key, language, params)
  const { doc, finish } = openPdf({
    language,
    size: PAGE,
    margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
    info: {
      Title: `${order.orderNo} — ${t('fba.cartonLabels')}`,
      Author: order.orderNo,
      Subject: t('fba.cartonLabels'),
      Creator: 'Waybill',
    },
  })
  const width = PAGE[0] - 2 * MARGIN
  const count = order.boxes.length
  for (const [i, box] of order.boxes.entries()) {
    if (i > 0) doc.addPage({ size: PAGE, margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN } })
    doc.font('bold').fontSize(11).text(t('fba.warehouseCode'), MARGIN, MARGIN, { width })
    doc.fontSize(30).text(order.centre?.code ?? '—', { width })
    if (order.centre) {
      const c = order.centre
      doc
        .font('body')
        .fontSize(9)
        .text(`${c.addressLine1}, ${c.city}, ${c.state} ${c.zipCode}, ${c.country}`, { width })
    }
    doc.moveDown(0.6)
    const barcodeTop = doc.y
    doc.image(await boxBarcode(box.boxNo), MARGIN, barcodeTop, { fit: [width, 28 * MM], align: 'center' })
    doc
      .font('bold')
      .fontSize(14)
      .text(box.boxNo, MARGIN, barcodeTop + 28 * MM + 4, { width, align: 'center' })
    doc.moveDown(0.4)
    doc
      .font('bold')
      .fontSize(18)
      .text(t('fba.labelBoxOf', { index: i + 1, count }), { width, align: 'center' })
    doc.moveDown(0.6)
    const line = (label: string, value: string) => {
      doc.font('body').fontSize(9).text(`${label}: `, { continued: true, width })
      doc.font('bold').text(value)
    }
    line(t('fba.orderNo'), order.orderNo)
    line(t('fba.shipmentId'), order.shipmentId ?? '—')
    line(t('fba.boxWeight'), number(box.weight, 3))
    line(t('fba.labelDimensions'), `${number(box.length, 1)} × ${number(box.width, 1)} × ${number(box.height, 1)}`)
  }
  return finish()
}

/** File names from the order number: letters, digits and dashes, so no header needs escaping. */
const fileName = (orderNo: string, id: number) =>
  `${orderNo.replace(/[^A-Za-z0-9-]/g, '') || `fba-order-${id}`}-carton-labels.pdf`

/** The order as the engine lets the caller read it (404 otherwise), and its fulfilment centre. */
async function cartonOrder(ctx: HandlerContext, engine: EngineApi, id: number): Promise<CartonOrder> {
  const session = ctx.request.session
  if (!session) throw new ApiError('401')
  const tenantId = ctx.request.tenant.id
  return ctx.inTenant(async (trx: Transaction<DB>) => {
    const order = await engine.detail(
      trx,
      { entity: 'fbaOrder' },
      { tenantId, session, language: ctx.request.language },
      { id },
    )
    const code = typeof order.warehouseCode === 'string' ? order.warehouseCode : null
    const { rows } = code
      ? await sql<{
          code: string
          address_line1: string
          city: string
          state: string
          zip_code: string
          country: string
        }>`select code, address_line1, city, state, zip_code, country from ref_amazon_fc where code = ${code}`.execute(
          trx,
        )
      : { rows: [] }
    const centre = rows[0]
    return {
      orderNo: String(order.orderNo ?? ''),
      shipmentId: typeof order.shipmentId === 'string' ? order.shipmentId : null,
      centre: centre
        ? {
            code: centre.code,
            addressLine1: centre.address_line1,
            city: centre.city,
            state: centre.state,
            zipCode: centre.zip_code,
            country: centre.country,
          }
        : code
          ? { code, addressLine1: '', city: '', state: '', zipCode: '', country: '' }
          : null,
      boxes: (Array.isArray(order.boxes) ? order.boxes : []) as CartonBox[],
    }
  })
}

export function fbaLabelHandlers(engine: EngineApi) {
  return {
    async fbaOrderLabels(ctx) {
      const id = parseId((ctx.input as { id: unknown }).id)
      const order = await cartonOrder(ctx, engine, id)
      const bytes = await cartonLabelsPdf(order, ctx.request.language)
      await ctx.reply
        .header('content-type', 'application/pdf')
        .header('content-length', String(bytes.length))
        .header('content-disposition', `attachment; filename="${fileName(order.orderNo, id)}"`)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'no-store')
        .send(bytes)
      return null
    },
  } satisfies Handlers
}
