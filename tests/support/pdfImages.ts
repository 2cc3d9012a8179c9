import { createRequire } from 'node:module'
import { inflateSync } from 'node:zlib'

// A CommonJS package whose names Node's ESM loader cannot see: required, typed from its declarations.
const { BarcodeFormat, BinaryBitmap, DecodeHintType, HybridBinarizer, MultiFormatReader, RGBLuminanceSource } =
  createRequire(import.meta.url)('@zxing/library') as typeof import('@zxing/library')

/**
 * The images of a PDF the server drew, read back as a scanner would: each image XObject's pixels (pdfkit writes
 * them Flate-compressed, RGB or grey, with the PNG's alpha as a soft mask), laid over white, then decoded with
 * ZXing. Enough of PDF for pdfkit's output: uncompressed object syntax, images without predictors.
 */

export interface PdfImage {
  object: number
  width: number
  height: number
  /** One byte per pixel, 0 black to 255 white, soft mask applied over a white page. */
  grey: Uint8Array
}

interface PdfObject {
  dictionary: string
  stream: Buffer | null
}

function objectsOf(pdf: Buffer): Map<number, PdfObject> {
  const text = pdf.toString('latin1')
  const out = new Map<number, PdfObject>()
  const head = /(\d+) 0 obj\s*<<([\s\S]*?)>>\s*(stream\r?\n|endobj)/g
  for (let m = head.exec(text); m; m = head.exec(text)) {
    const [, id, dictionary = '', after = ''] = m
    let stream: Buffer | null = null
    if (after.startsWith('stream')) {
      const length = Number(/\/Length (\d+)/.exec(dictionary)?.[1])
      const start = m.index + m[0].length
      stream = pdf.subarray(start, start + length)
      head.lastIndex = start + length
    }
    out.set(Number(id), { dictionary, stream })
  }
  return out
}

const numberIn = (dictionary: string, key: string) => Number(new RegExp(`/${key} (\\d+)`).exec(dictionary)?.[1])

function pixels(object: PdfObject): Buffer {
  if (!object.stream) throw new Error('An image without a stream')
  if (/\/DecodeParms/.test(object.dictionary)) throw new Error('Images with predictors are not read here')
  return /\/Filter \/FlateDecode/.test(object.dictionary) ? inflateSync(object.stream) : object.stream
}

/** Every image of the PDF that is not another's soft mask, in the order of its objects. */
export function pdfImages(pdf: Buffer): PdfImage[] {
  const objects = objectsOf(pdf)
  const images = [...objects.entries()].filter(([, o]) => /\/Subtype \/Image/.test(o.dictionary))
  const masks = new Set(images.map(([, o]) => Number(/\/SMask (\d+) 0 R/.exec(o.dictionary)?.[1])))
  return images
    .filter(([id]) => !masks.has(id))
    .map(([id, object]) => {
      const width = numberIn(object.dictionary, 'Width')
      const height = numberIn(object.dictionary, 'Height')
      if (numberIn(object.dictionary, 'BitsPerComponent') !== 8) throw new Error('Only 8-bit images are read here')
      const channels = /\/DeviceRGB/.test(object.dictionary) ? 3 : 1
      const data = pixels(object)
      const maskId = Number(/\/SMask (\d+) 0 R/.exec(object.dictionary)?.[1])
      const mask = Number.isNaN(maskId) ? null : pixels(objects.get(maskId) as PdfObject)
      const grey = new Uint8Array(width * height)
      for (let i = 0; i < width * height; i++) {
        const r = data[i * channels] as number
        const value =
          channels === 3 ? (r * 299 + (data[i * 3 + 1] as number) * 587 + (data[i * 3 + 2] as number) * 114) / 1000 : r
        const alpha = mask ? (mask[i] as number) / 255 : 1
        grey[i] = Math.round(value * alpha + 255 * (1 - alpha))
      }
      return { object: id, width, height, grey }
    })
}

/** The text of the Code 128 barcode in the image, read by ZXing (throws when none can be read). */
export function decodeCode128(image: PdfImage): string {
  const reader = new MultiFormatReader()
  const hints = new Map<import('@zxing/library').DecodeHintType, unknown>([
    [DecodeHintType.POSSIBLE_FORMATS, [BarcodeFormat.CODE_128]],
    [DecodeHintType.TRY_HARDER, true],
  ])
  const luminance = new RGBLuminanceSource(
    Int32Array.from(image.grey, (v) => (0xff << 24) | (v << 16) | (v << 8) | v),
    image.width,
    image.height,
  )
  return reader.decode(new BinaryBitmap(new HybridBinarizer(luminance)), hints).getText()
}
