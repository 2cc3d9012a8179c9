import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

/**
 * The faces every PDF the server draws embeds (pdfkit subsets them): Noto Sans Hans covers GB2312 —
 * simplified Chinese, Latin and the kana — and Japanese gets the Japanese forms of Noto Sans JP. From the npm
 * font packages, read once per process. Registered by ./document.ts for every PDF the server draws.
 */

const require = createRequire(import.meta.url)

function fontFile(pkg: string, file: string): string {
  return join(dirname(require.resolve(pkg)), '..', 'fonts', file)
}

const FONTS = {
  zh: {
    regular: fontFile('@embedpdf/fonts-sc', 'NotoSansHans-Regular.otf'),
    bold: fontFile('@embedpdf/fonts-sc', 'NotoSansHans-Bold.otf'),
  },
  ja: {
    regular: fontFile('@embedpdf/fonts-jp', 'NotoSansJP-Regular.otf'),
    bold: fontFile('@embedpdf/fonts-jp', 'NotoSansJP-Bold.otf'),
  },
} as const

const loaded = new Map<string, Buffer>()
function font(path: string): Buffer {
  let bytes = loaded.get(path)
  if (!bytes) {
    bytes = readFileSync(path)
    loaded.set(path, bytes)
  }
  return bytes
}

/** The regular and bold face for a text in this language (Japanese its own, every other the Chinese set). */
export function pdfFaces(language: string): { regular: Buffer; bold: Buffer } {
  const files = language === 'ja' ? FONTS.ja : FONTS.zh
  return { regular: font(files.regular), bold: font(files.bold) }
}
