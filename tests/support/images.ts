import { crc32, deflateSync } from 'node:zlib'

/**
 * Real image files of a chosen pixel size for the upload tests (issue #25): a PNG of one colour, optionally
 * padded with a text chunk to pass a size limit, and an ICO holding PNG images. Every byte is valid: a browser
 * shows them and the server's header reading has nothing to forgive.
 */

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body) >>> 0)
  return Buffer.concat([length, body, crc])
}

/** A width×height PNG filled with `rgb`; `padKb` adds a text chunk of that many KB (a file too large, still valid). */
export function png(width: number, height: number, rgb: [number, number, number] = [64, 158, 255], padKb = 0): Buffer {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([8, 2, 0, 0, 0], 8)
  const row = Buffer.alloc(1 + width * 3)
  for (let x = 0; x < width; x++) row.set(rgb, 1 + x * 3)
  const raw = Buffer.concat(Array.from({ length: height }, () => row))
  const padding = padKb ? [chunk('tEXt', Buffer.from(`Comment\0${'x'.repeat(padKb * 1024)}`, 'latin1'))] : []
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    ...padding,
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

/** An ICO whose images are PNGs of these sizes. */
export function ico(sizes: readonly number[]): Buffer {
  const images = sizes.map((size) => png(size, size))
  const head = Buffer.alloc(6 + 16 * sizes.length)
  head.writeUInt16LE(0, 0)
  head.writeUInt16LE(1, 2)
  head.writeUInt16LE(sizes.length, 4)
  let offset = head.length
  sizes.forEach((size, i) => {
    const at = 6 + i * 16
    head[at] = size >= 256 ? 0 : size
    head[at + 1] = size >= 256 ? 0 : size
    head.writeUInt16LE(1, at + 4)
    head.writeUInt16LE(32, at + 6)
    head.writeUInt32LE(images[i]?.length ?? 0, at + 8)
    head.writeUInt32LE(offset, at + 12)
    offset += images[i]?.length ?? 0
  })
  return Buffer.concat([head, ...images])
}
