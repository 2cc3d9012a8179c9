import { describe, expect, it } from 'vitest'
import { dimensionsRefusal, imageSize } from '../../rules/imageSize.ts'
import { ico, png } from '../support/images.ts'

/** A baseline JPEG's header up to its start of frame: SOI, an APP0 (JFIF) segment, then SOF0 with the size. */
function jpeg(width: number, height: number): Uint8Array {
  const app0 = [0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0, 0]
  const sof0 = [0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 255, width >> 8, width & 255, 3, 1, 0x22, 0]
  return Uint8Array.from([0xff, 0xd8, ...app0, ...sof0, 2, 0x11, 1, 3, 0x11, 1, 0xff, 0xd9])
}

describe('image sizes read from the bytes (rules/imageSize.ts)', () => {
  it('reads a PNG, a JPEG past its APP0 segment, a GIF and every image of an ICO', () => {
    expect(imageSize(png(105, 45))).toEqual({ format: 'png', sizes: [{ width: 105, height: 45 }] })
    expect(imageSize(jpeg(1920, 1080))).toEqual({ format: 'jpeg', sizes: [{ width: 1920, height: 1080 }] })
    const gif = Uint8Array.from([...Buffer.from('GIF89a'), 32, 0, 16, 0, 0, 0, 0])
    expect(imageSize(gif)).toEqual({ format: 'gif', sizes: [{ width: 32, height: 16 }] })
    expect(imageSize(ico([16, 32, 256]))?.sizes).toEqual([
      { width: 16, height: 16 },
      { width: 32, height: 32 },
      { width: 256, height: 256 },
    ])
  })

  it('answers null for what is not an image or is cut short', () => {
    expect(imageSize(Buffer.from('%PDF-1.7'))).toBeNull()
    expect(imageSize(png(10, 10).subarray(0, 20))).toBeNull()
    expect(imageSize(jpeg(10, 10).subarray(0, 12))).toBeNull()
  })

  it('refuses a size other than the one asked, naming what the file holds; an icon needs every image right', () => {
    expect(dimensionsRefusal(png(105, 45), { width: 105, height: 45 })).toBeNull()
    expect(dimensionsRefusal(png(200, 80), { width: 105, height: 45 })).toEqual({ actual: '200×80' })
    expect(dimensionsRefusal(ico([32]), { width: 32, height: 32 })).toBeNull()
    expect(dimensionsRefusal(ico([16, 32]), { width: 32, height: 32 })).toEqual({ actual: '16×16, 32×32' })
    expect(dimensionsRefusal(Buffer.from('not an image'), { width: 32, height: 32 })).toEqual({ actual: '?' })
  })
})
