import { type BrandVariants, createLightTheme, type Theme } from '@fluentui/react-components'

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

/** WCAG 2.1 relative luminance of an sRGB colour. */
export function luminance(rgb: Rgb): number {
  const [r, g, b] = rgb.map((c) => {
    const s = c / 255
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
  }) as Rgb
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

/** WCAG 2.1 contrast ratio of two `#rrggbb` colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [x, y] = [a, b].map((hex) => luminance(parseHex(hex) ?? [0, 0, 0])) as [number, number]
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05)
}

/** WCAG 2.1 AA (1.4.3) for normal text. */
export const TEXT_CONTRAST = 4.5
const WHITE = '#ffffff'
/** The lightest grey a workbench or site page puts brand-coloured text on (Fluent's colorNeutralBackground3). */
const PAGE_GREY = '#f5f5f5'

/**
 * The colour itself if it already reads at 4.5:1 on every surface, else the lightest shade of it, mixed
 * towards black in 1 % steps, that does: the same hue, only as dark as it must be.
 */
export function readableShade(color: string, surfaces: readonly string[]): string {
  const base = parseHex(color) ?? (parseHex(DEFAULT_THEME_COLOR) as Rgb)
  for (let step = 0; step <= 100; step++) {
    const shade = toHex(mix(base, [0, 0, 0], step / 100))
    if (surfaces.every((surface) => contrastRatio(shade, surface) >= TEXT_CONTRAST)) return shade
  }
  return '#000000'
}

/**
 * Fluent's light theme for a tenant colour, readable whatever the colour (WCAG 2.1 AA, issue #18). The ramp
 * keeps the tenant's colour at 80, where the brand strokes, tints and accents read it; the two uses that
 * carry text get a derived shade instead:
 * - text on colour: white on the brand background (primary buttons, selected and checked controls), the
 *   shade that gives white 4.5:1;
 * - colour as text: brand foregrounds and links, the shade that gives 4.5:1 on white, on the page grey and
 *   on the brand tint (colorBrandBackground2) that badges and selected menu items put it on.
 * Hover and pressed states are darker still, so they read at least as well.
 */
export function tenantTheme(color: string | null | undefined): Theme {
  const ramp = brandRamp(color)
  const darker = (shade: string, amount: number) => toHex(mix(parseHex(shade) as Rgb, [0, 0, 0], amount))
  const onColor = readableShade(ramp[80], [WHITE])
  const asText = readableShade(ramp[80], [WHITE, PAGE_GREY, ramp[160], ramp[150]])
  const behindWhite: Partial<Theme> = {
    colorBrandBackground: onColor,
    colorBrandBackgroundHover: darker(onColor, 0.12),
    colorBrandBackgroundPressed: darker(onColor, 0.3),
    colorBrandBackgroundSelected: darker(onColor, 0.2),
    colorBrandBackgroundStatic: onColor,
    colorBrandBackground3Static: darker(onColor, 0.2),
    colorBrandBackground4Static: darker(onColor, 0.3),
    colorCompoundBrandBackground: onColor,
    colorCompoundBrandBackgroundHover: darker(onColor, 0.12),
    colorCompoundBrandBackgroundPressed: darker(onColor, 0.2),
  }
  const foreground: Partial<Theme> = {
    colorBrandForeground1: asText,
    colorBrandForeground2: asText,
    colorBrandForeground2Hover: darker(asText, 0.12),
    colorBrandForeground2Pressed: darker(asText, 0.3),
    colorBrandForegroundLink: asText,
    colorBrandForegroundLinkHover: darker(asText, 0.12),
    colorBrandForegroundLinkPressed: darker(asText, 0.3),
    colorBrandForegroundLinkSelected: asText,
    colorCompoundBrandForeground1: asText,
    colorCompoundBrandForeground1Hover: darker(asText, 0.12),
    colorCompoundBrandForeground1Pressed: darker(asText, 0.2),
    colorBrandForegroundOnLight: asText,
    colorBrandForegroundOnLightHover: darker(asText, 0.12),
    colorBrandForegroundOnLightPressed: darker(asText, 0.3),
    colorBrandForegroundOnLightSelected: darker(asText, 0.2),
    colorNeutralForeground2BrandHover: asText,
    colorNeutralForeground2BrandPressed: darker(asText, 0.12),
    colorNeutralForeground2BrandSelected: asText,
    colorNeutralForeground3BrandHover: asText,
    colorNeutralForeground3BrandPressed: darker(asText, 0.12),
    colorNeutralForeground3BrandSelected: asText,
  }
  return { ...createLightTheme(ramp), ...behindWhite, ...foreground }
}
