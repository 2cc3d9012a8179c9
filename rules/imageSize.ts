/**
 * An image's pixel size read from its own bytes (issue #25: a site's icon 32×32, logo 105×45, backgrounds
 * 1920×1080), the same on both sides: the portal reads the chosen file before sending it, the server the bytes
 * it received. PNG, JPEG, GIF and ICO headers are small and documented, so no library: PNG's IHDR chunk, JPEG's
 * first start-of-frame marker, GIF's logical screen, and every entry of an ICO's directory.
 */

export interface ImageSize {
  format: 'png' | 'jpeg' | 'gif' | 'ico'
  /** Every image the file holds: one, or an icon's several. */
  sizes: { width: number; height: number }[]
}

const u16be = (b: Uint8Array, at: number) => ((b[at] ?? 0) << 8) | (b[at + 1] ?? 0)
const u16le = (b: Uint8Array, at: number) => (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8)
const u32be = (b: Uint8Array, at: number) => u16be(b, at) * 0x10000 + u16be(b, at + 2)
const starts = (b: Uint8Array, signature: readonly number[]) =>
  b.length >= signature.length && signature.every((v, i) => b[i] === v)

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
/** JPEG start-of-frame markers: C0–CF but C4 (Huffman tables), C8 (reserved) and CC (arithmetic coding). */
const isStartOfFrame = (marker: number) =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc

function jpegSize(b: Uint8Array): ImageSize | null {
  let at = 2
  while (at + 9 < b.length) {
    if (b[at] !== 0xff) return null
    const marker = b[at + 1] ?? 0
    // Fill bytes, and markers without a length (RSTn, TEM).
    if (marker === 0xff) {
      at += 1
      continue
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2
      continue
    }
    if (isStartOfFrame(marker)) {
      const height = u16be(b, at + 5)
      const width = u16be(b, at + 7)
      return width && height ? { format: 'jpeg', sizes: [{ width, height }] } : null
    }
    if (marker === 0xd9 || marker === 0xda) return null
    at += 2 + u16be(b, at + 2)
  }
  return null
}

function icoSize(b: Uint8Array): ImageSize | null {
  const count = u16le(b, 4)
  if (count < 1 || b.length < 6 + count * 16) return null
  const sizes = Array.from({ length: count }, (_, i) => ({
    // 0 stands for 256 in an icon directory.
    width: b[6 + i * 16] || 256,
    height: b[7 + i * 16] || 256,
  }))
  return { format: 'ico', sizes }
}

/** The format and pixel size of an image, or null when the bytes are none of PNG, JPEG, GIF, ICO or are cut short. */
export function imageSize(bytes: Uint8Array): ImageSize | null {
  if (starts(bytes, PNG)) {
    // The first chunk is IHDR: length (4), type (4), width (4), height (4).
    if (bytes.length < 24 || String.fromCharCode(...bytes.subarray(12, 16)) !== 'IHDR') return null
    return { format: 'png', sizes: [{ width: u32be(bytes, 16), height: u32be(bytes, 20) }] }
  }
  if (starts(bytes, [0xff, 0xd8, 0xff])) return jpegSize(bytes)
  if (starts(bytes, [0x47, 0x49, 0x46, 0x38]) && bytes.length >= 10)
    return { format: 'gif', sizes: [{ width: u16le(bytes, 6), height: u16le(bytes, 8) }] }
  if (starts(bytes, [0x00, 0x00, 0x01, 0x00])) return icoSize(bytes)
  return null
}

/** "105×45": how a size reads in a message. */
export const formatDimensions = (size: { width: number; height: number }) => `${size.width}×${size.height}`

/**
 * Why an image does not have the exact size a field asks for, or null when it does: every image of an icon must
 * have it (the stricter reading of SPEC §5's "icons 32x32"). `actual` names what the file holds.
 */
export function dimensionsRefusal(
  bytes: Uint8Array,
  wanted: { width: number; height: number },
): { actual: string } | null {
  const size = imageSize(bytes)
  if (!size) return { actual: '?' }
  const wrong = size.sizes.filter((s) => s.width !== wanted.width || s.height !== wanted.height)
  return wrong.length ? { actual: size.sizes.map(formatDimensions).join(', ') } : null
}
