import { inDays } from './clock.ts'

/**
 * Request bodies the API and browser tests of the commercial flow (issue #8) share: a sea inquiry that the
 * inquiry rules accept, and an operator's quote on it, varied only where a test needs it.
 */
export function seaInquiry(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    transportModes: [1],
    origin: 'CNSHA',
    destination: 'USLAX',
    tradeTerm: 'FCA',
    tradeRole: 'seller',
    goodsReady: 'ready',
    containers: [
      { containerType: '45G1', quantity: 2 },
      { containerType: '22G1', quantity: 1 },
    ],
    packages: [
      {
        description: 'Porcelain floor tiles',
        packageCount: 40,
        grossWeight: 18000,
        goodsCount: 400,
        length: 120,
        width: 100,
        height: 90,
      },
    ],
    ...overrides,
  }
}

/** The ocean freight of two 40' containers, the line every sea quote has. */
export const OCEAN_FREIGHT = {
  chargeType: 'freight',
  name: 'Ocean freight',
  quantity: 2,
  unit: 'container',
  unitPrice: '2150.00',
  currency: 'USD',
}

/** A formal sea quote on an inquiry (its id), in USD by Maersk, valid for 20 days: what an operator adds. */
export function seaQuote(inquiry: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    inquiry,
    transportMode: 1,
    clientType: 'formal',
    lowFeeConfirmed: true,
    contactName: 'Li Wei',
    validUntil: inDays(20),
    currency: 'USD',
    carrier: 'MAEU',
    charges: [OCEAN_FREIGHT],
    ...overrides,
  }
}
