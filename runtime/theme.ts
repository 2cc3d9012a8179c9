import type { BrandVariants } from '@fluentui/react-components'

/** SPEC §9: the theme colour when a tenant sets none. */
export const DEFAULT_THEME_COLOR = '#409eff'

const SHADES = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 160] as const
/** Fluent's light theme paints primary buttons and links with shade 80: the tenant's colour goes there. */
const BASE_INDEX = SHADES.indexOf(80)

type Rgb = [number, number, number]

/** `#rgb` or `#rrggbb` (any case) as numbers, or null. */
export function parseHex(input: string | null | undefined): Rgb | null {
  const match = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec((input ?? '').trim())
  if (!match?.[1]) return null
  const hex = match[1].length === 3 ? [...match[1]].map((c) => c + c).join('') : match[1]
  return [0, 2, 4].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as Rgb
}

const toHex = (rgb: Rgb) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`
const mix = (from: Rgb, to: Rgb, amount: number): Rgb => from.map((c, i) => c + ((to[i] as number) - c) * amount) as Rgb

/**
 * The 16-step brand ramp Fluent UI v9 themes are made from, for one tenant colour: darker shades mix the
 * colour towards black (at most 80 %), lighter ones towards white (at most 90 %), the colour itself at 80.
 * An unreadable colour falls back to the default.
 */
export function brandRamp(color: string | null | undefined): BrandVariants {
  const base = parseHex(color) ?? (parseHex(DEFAULT_THEME_COLOR) as Rgb)
  const ramp: Record<number, string> = {}
  SHADES.forEach((shade, index) => {
    if (index < BASE_INDEX) ramp[shade] = toHex(mix(base, [0, 0, 0], ((BASE_INDEX - index) / BASE_INDEX) * 0.8))
    else if (index > BASE_INDEX) {
      const steps = SHADES.length - 1 - BASE_INDEX
      ramp[shade] = toHex(mix(base, [255, 255, 255], ((index - BASE_INDEX) / steps) * 0.9))
    } else ramp[shade] = toHex(base)
  })
  return ramp as BrandVariants
}
