/**
 * Request bodies the API and browser tests of the commercial flow (issue #8) share: a sea inquiry that the
 * inquiry rules accept, varied only where a test needs it.
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
