import { readFile as readDiskFile } from 'node:fs/promises'
import { extname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { readFile } from '../../files/store.ts'
import type { HandlerContext } from '../../http/context.ts'

/**
 * The tenant's look on its documents (SPEC §3 site settings): the site name, the first logo and the theme
 * colour. A logo is drawn when it is a PNG or JPEG — a stored upload (its uuid) or a file of the portal's
 * `public/` folder; anything else (the shipped SVG) leaves the name alone at the top.
 */
export interface Branding {
  /** The site name in the reader's language, else the company's name. */
  name: string
  /** #rrggbb */
  color: string
  logo: Uint8Array | null
}

const PUBLIC = fileURLToPath(new URL('../../../public/', import.meta.url))
const DEFAULT_COLOR = '#409eff'

const isImage = (bytes: Uint8Array) =>
  (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) || // PNG
  (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) // JPEG

async function logoBytes(ctx: HandlerContext, url: string): Promise<Uint8Array | null> {
  if (/^[0-9a-f-]{36}$/i.test(url)) {
    const file = await ctx.inTenant((trx) => readFile(trx, ctx.request.tenant.id, url))
    return file && isImage(file.bytes) ? file.bytes : null
  }
  if (url.startsWith('/') && !url.startsWith('//') && ['.png', '.jpg', '.jpeg'].includes(extname(url).toLowerCase())) {
    const path = resolve(PUBLIC, `.${url}`)
    if (!path.startsWith(PUBLIC)) return null
    const bytes = await readDiskFile(path).catch(() => null)
    return bytes && isImage(bytes) ? bytes : null
  }
  return null
}

export async function tenantBranding(ctx: HandlerContext): Promise<Branding> {
  const { tenant, language } = ctx.request
  const settings = tenant.settings
  const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '')
  const name =
    language === 'zh'
      ? text(settings.websiteName) || tenant.nameZh
      : text(settings.websiteNameEn) || tenant.nameEn || text(settings.websiteName) || tenant.nameZh
  const color = /^#[0-9a-f]{6}$/i.test(text(settings.themeColor)) ? text(settings.themeColor) : DEFAULT_COLOR
  const first = Array.isArray(settings.logoList) ? settings.logoList[0] : undefined
  const url = first && typeof first === 'object' && 'url' in first ? text(first.url) : ''
  return { name, color, logo: url ? await logoBytes(ctx, url) : null }
}
