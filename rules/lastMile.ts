/**
 * The last-mile carriers of an FBA order (schemas/fbaOrder.yaml lastMileCarrier) and the shape of each one's
 * tracking number, as the carrier prints it: checked by the server when the operator records the carrier
 * (server/domain/fba/tracking.ts) and importable by the portal. Upper case, no spaces.
 */
export const LAST_MILE_NUMBER: Record<string, RegExp> = {
  // 1Z, the shipper account (6) and service and package digits (10): 1Z999AA10123456784.
  ups: /^1Z[0-9A-Z]{16}$/,
  // Express and Ground: 12, 15, 20 or 22 digits.
  fedex: /^(\d{12}|\d{15}|\d{20}|\d{22})$/,
  // DHL Express waybill: 10 digits.
  dhl: /^\d{10}$/,
  // USPS domestic (20 to 22 digits) or international (two letters, nine digits, US).
  usps: /^(\d{20,22}|[A-Z]{2}\d{9}US)$/,
  // Amazon Logistics: TBA and 12 digits.
  amazon: /^TBA\d{12}$/,
}

/** Whether `number` is a tracking number of `carrier` (an unknown carrier has none). */
export function lastMileNumberValid(carrier: string, number: string): boolean {
  return LAST_MILE_NUMBER[carrier]?.test(number) ?? false
}
