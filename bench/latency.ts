/**
 * Latency figures for the benches that time single deliveries (bench/chat.ts): nearest-rank percentiles and the
 * ratio of one path's figure to its baseline's. Pure, so tests/unit/bench-latency.test.ts holds them.
 */

/** The nearest-rank percentile (p in 0..100) of the values: the smallest value at least p % of them do not exceed. */
export function percentile(values: readonly number[], p: number): number {
  if (!values.length) return Number.NaN
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile ${p} is not within 0..100`)
  const sorted = [...values].sort((a, b) => a - b)
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length))
  return sorted[rank - 1] as number
}

export interface LatencySummary {
  count: number
  p50: number
  p99: number
  max: number
}

export function summarise(values: readonly number[]): LatencySummary {
  return {
    count: values.length,
    p50: percentile(values, 50),
    p99: percentile(values, 99),
    max: values.length ? Math.max(...values) : Number.NaN,
  }
}

/** A figure as a multiple of its baseline's, "3.40×"; a baseline of zero or nothing measured answers "–". */
export function ratio(value: number, baseline: number): string {
  if (!Number.isFinite(value) || !Number.isFinite(baseline) || baseline <= 0) return '–'
  return `${(value / baseline).toFixed(2)}×`
}

/** Milliseconds for a table: two decimals below 10 ms, one above. */
export function ms(value: number): string {
  if (!Number.isFinite(value)) return '–'
  return `${value.toFixed(value < 10 ? 2 : 1)} ms`
}
