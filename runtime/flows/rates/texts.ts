import { use } from 'react'
import { groupDigits } from '../../../rules/decimal.ts'
import { hasTexts, textsReady } from '../../i18n.ts'
import type { TextBundle } from '../../shell/texts.ts'

/**
 * The rate screens' texts (rate, spa, state, enum namespaces) are in the `screens` bundle. /productService
 * is a public site page, which loads only the site's texts up front: ask for the rest before drawing, so
 * no key ever shows (suspends inside the route's Suspense).
 */
const BUNDLES: readonly TextBundle[] = ['site', 'screens']

export function useRateTexts(): void {
  if (!hasTexts(BUNDLES)) use(textsReady(BUNDLES))
}

/** Container size-type codes as a forwarder writes them (ISO 6346 codes; the same in every language). */
export const CONTAINER_LABELS: Record<string, string> = {
  '22G1': "20'GP",
  '42G1': "40'GP",
  '45G1': "40'HQ",
  L5G1: "45'HQ",
}

/** A money amount with its currency code: "USD 2,150.00". */
export const money = (amount: string | null | undefined, currency: string | null | undefined): string =>
  amount === null || amount === undefined ? '—' : `${currency ?? ''} ${groupDigits(amount)}`.trim()

/**
 * A quote's amount: in its currency's places, so a stored third decimal that is zero is not shown
 * ("8108.150" → "USD 8,108.15"); one that is not stays ("333.333"). Rates keep their three (issue #7).
 */
export const quoteMoney = (amount: string | null | undefined, currency: string | null | undefined): string =>
  money(amount?.replace(/(\.\d\d)0$/, '$1'), currency)
