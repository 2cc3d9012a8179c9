import { describe, expect, it } from 'vitest'
import {
  brandRamp,
  contrastRatio,
  DEFAULT_THEME_COLOR,
  readableShade,
  TEXT_CONTRAST,
  tenantTheme,
} from '../../runtime/theme.ts'

/** Issue #18: any tenant colour gives a theme whose text reads at WCAG 2.1 AA (4.5:1). */

const TENANT_COLOURS = {
  'the default (SPEC §3)': DEFAULT_THEME_COLOR,
  light: '#ffeb3b',
  'light pastel': '#b3e5fc',
  white: '#ffffff',
  dark: '#0b2545',
  black: '#000000',
  'saturated red': '#ff0000',
  'saturated green': '#00ff00',
  'saturated magenta': '#ff00ff',
  orange: '#ff9800',
  teal: '#00bcd4',
  purple: '#9c27b0',
  'short form': '#f80',
} as const

const WHITE = '#ffffff'
const PAGE_GREY = '#f5f5f5'

describe('the tenant theme', () => {
  for (const [name, colour] of Object.entries(TENANT_COLOURS)) {
    it(`reads at 4.5:1 with ${name} (${colour})`, () => {
      const theme = tenantTheme(colour)
      const tint = theme.colorBrandBackground2
      // Text on colour: white on every brand background a label sits on.
      expect(theme.colorNeutralForegroundOnBrand).toBe(WHITE)
      for (const token of [
        'colorBrandBackground',
        'colorBrandBackgroundHover',
        'colorBrandBackgroundPressed',
        'colorBrandBackgroundSelected',
        'colorBrandBackgroundStatic',
        'colorCompoundBrandBackground',
        'colorCompoundBrandBackgroundHover',
        'colorCompoundBrandBackgroundPressed',
      ] as const) {
        expect(contrastRatio(WHITE, theme[token]), `white on ${token} ${theme[token]}`).toBeGreaterThanOrEqual(
          TEXT_CONTRAST,
        )
      }
      // Colour as text: on white, on the page grey and on the brand tint (badges, selected menu items).
      for (const token of [
        'colorBrandForeground1',
        'colorBrandForeground2',
        'colorBrandForeground2Hover',
        'colorBrandForegroundLink',
        'colorBrandForegroundLinkHover',
        'colorBrandForegroundLinkPressed',
        'colorCompoundBrandForeground1',
        'colorBrandForegroundOnLight',
        'colorNeutralForeground2BrandHover',
        'colorNeutralForeground2BrandSelected',
        'colorNeutralForeground3BrandSelected',
      ] as const) {
        for (const surface of [WHITE, PAGE_GREY, tint, theme.colorBrandBackground2Hover])
          expect(contrastRatio(theme[token], surface), `${token} ${theme[token]} on ${surface}`).toBeGreaterThanOrEqual(
            TEXT_CONTRAST,
          )
      }
    })
  }

  it('keeps the tenant colour itself as the brand: the ramp, its strokes and its tints', () => {
    for (const colour of [DEFAULT_THEME_COLOR, '#ffeb3b', '#0b2545']) {
      const theme = tenantTheme(colour)
      expect(theme.colorBrandStroke1).toBe(colour)
      expect(theme.colorBrandBackground2).toBe(brandRamp(colour)[160])
    }
    // SPEC's 409eff stays the brand; only what carries text is darkened (2.78:1 → at least 4.5:1).
    expect(contrastRatio(DEFAULT_THEME_COLOR, WHITE)).toBeLessThan(3)
    expect(tenantTheme(DEFAULT_THEME_COLOR).colorBrandBackground).not.toBe(DEFAULT_THEME_COLOR)
  })

  it('leaves a colour that already reads as it is, and darkens one that does not only as far as it must', () => {
    expect(readableShade('#0b2545', [WHITE])).toBe('#0b2545')
    const shade = readableShade(DEFAULT_THEME_COLOR, [WHITE])
    expect(contrastRatio(shade, WHITE)).toBeGreaterThanOrEqual(TEXT_CONTRAST)
    // No darker than it must be: the button keeps as much of the tenant's colour as it can.
    expect(contrastRatio(shade, WHITE)).toBeLessThan(4.7)
  })

  it('computes WCAG contrast ratios', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5)
    expect(contrastRatio('#ffffff', '#ffffff')).toBe(1)
    expect(contrastRatio('#409eff', '#ffffff')).toBeCloseTo(2.78, 2)
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2)
  })
})
