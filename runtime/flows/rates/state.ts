import { compareRates, type RateSort, scaled, sum } from '../../../rules/pricing.ts'
import type { ChargeLine, PricedRate, RateMode } from './types.ts'

/**
 * The pure parts of the rate screens: the search as URL parameters (Back and a shared link restore it),
 * the comparison selection, how a result reads under the chosen charge display and all-in / freight-only,
 * and which cells of the comparison table stand out. No React, no network: unit-tested on their own.
 */

export const SORTS: readonly RateSort[] = ['cheapest', 'quickest', 'earliest']
export const DISPLAYS = ['all', 'major', 'none'] as const
export type ChargeDisplay = (typeof DISPLAYS)[number]

/** ISO size-type codes a forwarder's customer picks from (the containerType list), 40'HQ first. */
export const CONTAINER_TYPES = ['45G1', '42G1', '22G1', 'L5G1'] as const
export const DEFAULT_CONTAINER_TYPE = '45G1'

/** SPEC §9's nine currencies. */
export const CURRENCIES = ['CNY', 'USD', 'EUR', 'GBP', 'JPY', 'KRW', 'HKD', 'AUD', 'CAD'] as const

/** At most this many rates side by side (issue 7). */
export const COMPARE_LIMIT = 4

export const SEARCH_PATHS: Record<RateMode, string> = {
  FCL: '/productService',
  LCL: '/lclProductService',
  AIR: '/airProductService',
}
export const COMPARE_PATHS: Record<RateMode, string> = {
  FCL: '/fclFreightRatesContrastTable',
  LCL: '/lclFreightRatesContrastTable',
  AIR: '/airFreightRatesContrastTable',
}
export const APPLY_PATHS: Record<RateMode, string> = {
  FCL: '/fclSpecialPriceApplication',
  LCL: '/lclSpecialPriceApplication',
  AIR: '/airSpecialPriceApplication',
}
export const BOOK_PATHS: Record<RateMode, string> = {
  FCL: '/fclCreateOrder',
  LCL: '/lclCreateOrder',
  AIR: '/airCreateOrder',
}

/** Which mode a route of screens/*.yaml draws, from its name. */
export function modeOfRoute(name: string): RateMode {
  const lower = name.toLowerCase()
  if (lower.startsWith('lcl')) return 'LCL'
  if (lower.startsWith('air')) return 'AIR'
  return 'FCL'
}

export interface SearchState {
  origin: string
  destination: string
  date: string
  containerType: string
  containers: number
  cbm: string
  weightKg: string
  carriers: string[]
  sort: RateSort
  display: ChargeDisplay
  allIn: boolean
  /** Empty: the user's own individuationCurrency (the server's default), else each rate's own. */
  currency: string
  page: number
}

const CODE = /^[A-Z0-9]{3,5}$/
const DECIMAL = /^\d{1,7}(\.\d{1,3})?$/

const code = (value: string | null): string => {
  const upper = (value ?? '').trim().toUpperCase()
  return CODE.test(upper) ? upper : ''
}
const decimal = (value: string | null, fallback: string): string => {
  const text = (value ?? '').trim()
  return DECIMAL.test(text) && Number(text) > 0 ? text : fallback
}
const oneOf = <T extends string>(value: string | null, list: readonly T[], fallback: T): T =>
  (list as readonly string[]).includes(value ?? '') ? (value as T) : fallback

/** Default cargo per mode: one 40'HQ; 2 CBM / 500 kg of LCL; 100 kg / 0.5 CBM of air. */
export function defaultCargo(mode: RateMode): Pick<SearchState, 'cbm' | 'weightKg'> {
  if (mode === 'LCL') return { cbm: '2', weightKg: '500' }
  if (mode === 'AIR') return { cbm: '0.5', weightKg: '100' }
  return { cbm: '', weightKg: '' }
}

/**
 * The search a URL holds. The home page's quick search and older links say `pol`/`pod`; anything that is
 * not a lane code, a number or one of the listed values falls back to the default rather than being sent.
 */
export function parseSearch(params: URLSearchParams, mode: RateMode): SearchState {
  const cargo = defaultCargo(mode)
  const containers = Number(params.get('containers'))
  const page = Number(params.get('page'))
  const date = params.get('date') ?? ''
  const currency = params.get('currency') ?? ''
  return {
    origin: code(params.get('origin') ?? params.get('pol')),
    destination: code(params.get('destination') ?? params.get('pod')),
    date: /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : '',
    containerType: oneOf(params.get('containerType'), CONTAINER_TYPES, DEFAULT_CONTAINER_TYPE),
    containers: Number.isInteger(containers) && containers >= 1 && containers <= 999 ? containers : 1,
    cbm: mode === 'FCL' ? '' : decimal(params.get('cbm'), cargo.cbm),
    weightKg: mode === 'FCL' ? '' : decimal(params.get('weightKg'), cargo.weightKg),
    carriers: (params.get('carrier') ?? '')
      .split(',')
      .map((c) => c.trim().toUpperCase())
      .filter((c) => /^[A-Z0-9]{2,4}$/.test(c))
      .slice(0, 10),
    sort: oneOf(params.get('sort'), SORTS, 'cheapest'),
    display: oneOf(params.get('display'), DISPLAYS, 'all'),
    allIn: params.get('allIn') !== '0',
    currency: (CURRENCIES as readonly string[]).includes(currency) ? currency : '',
    page: Number.isInteger(page) && page >= 1 && page <= 1000 ? page : 1,
  }
}

/** The URL parameters of a search: only what differs from the defaults, in a fixed order. */
export function searchParamsOf(state: SearchState, mode: RateMode): URLSearchParams {
  const params = new URLSearchParams()
  const cargo = defaultCargo(mode)
  if (state.origin) params.set('origin', state.origin)
  if (state.destination) params.set('destination', state.destination)
  if (state.date) params.set('date', state.date)
  if (mode === 'FCL') {
    params.set('containerType', state.containerType)
    if (state.containers !== 1) params.set('containers', String(state.containers))
  } else {
    if (state.cbm && state.cbm !== cargo.cbm) params.set('cbm', state.cbm)
    if (state.weightKg && state.weightKg !== cargo.weightKg) params.set('weightKg', state.weightKg)
  }
  if (state.carriers.length) params.set('carrier', state.carriers.join(','))
  if (state.sort !== 'cheapest') params.set('sort', state.sort)
  if (state.display !== 'all') params.set('display', state.display)
  if (!state.allIn) params.set('allIn', '0')
  if (state.currency) params.set('currency', state.currency)
  if (state.page !== 1) params.set('page', String(state.page))
  return params
}

/** The cargo part of a search as the rate detail call and the comparison URL take it. */
export function cargoQuery(
  state: Pick<SearchState, 'containerType' | 'containers' | 'cbm' | 'weightKg' | 'currency'>,
  mode: RateMode,
) {
  const query: Record<string, string> = {}
  if (mode === 'FCL') {
    query.containerType = state.containerType
    if (state.containers !== 1) query.containers = String(state.containers)
  } else {
    if (state.cbm) query.cbm = state.cbm
    if (state.weightKg) query.weightKg = state.weightKg
  }
  if (state.currency) query.currency = state.currency
  return query
}

/** How many decimals an amount string carries (the answer currency's minor units). */
const decimalsOf = (amount: string): number => amount.split('.')[1]?.length ?? 0

export interface RateView {
  /** All-in or freight only, in the answer's currency. */
  total: string
  /** Every line (display "all"), the major categories (display "major"), or nothing. */
  lines: ChargeLine[] | null
  categories: { category: ChargeLine['category']; amount: string }[] | null
}

/**
 * A result as the user asked to see it. The search is asked once with every charge, all-in; the charge
 * display and freight-only are read from that answer here (exact sums of the converted lines, as the server
 * sums them), so switching them never spends the visitor's query allowance.
 */
export function viewOf(rate: PricedRate, display: ChargeDisplay, allIn: boolean): RateView {
  const all = rate.charges ?? []
  const lines = allIn ? all : all.filter((line) => line.code === 'FRT')
  const decimals = decimalsOf(rate.total)
  const total = lines.length
    ? sum(
        lines.map((line) => line.converted),
        decimals,
      )
    : rate.total
  if (display === 'none') return { total, lines: null, categories: null }
  if (display === 'all') return { total, lines, categories: null }
  const order: ChargeLine['category'][] = ['origin', 'freight', 'destination']
  return {
    total,
    lines: null,
    categories: order
      .filter((category) => lines.some((line) => line.category === category))
      .map((category) => ({
        category,
        amount: sum(
          lines.filter((line) => line.category === category).map((line) => line.converted),
          decimals,
        ),
      })),
  }
}

/** The results in the chosen order (SPEC §9: cheapest, quickest, earliest) with the chosen totals. */
export function sortedResults(
  list: readonly PricedRate[],
  sort: RateSort,
  allIn: boolean,
): { rate: PricedRate; view: RateView }[] {
  const rows = list.map((rate) => ({ rate, view: viewOf(rate, 'all', allIn) }))
  const cmp = compareRates(sort)
  return rows.sort((a, b) =>
    cmp(
      { id: a.rate.id, total: a.view.total, transitDays: a.rate.transitDays, nextDeparture: a.rate.nextDeparture },
      { id: b.rate.id, total: b.view.total, transitDays: b.rate.transitDays, nextDeparture: b.rate.nextDeparture },
    ),
  )
}

// ---------------------------------------------------------------------------------------------------------
// The comparison selection: rate ids per mode with the cargo they were priced for, in sessionStorage (it
// follows the tab, not the machine), and in the comparison table's URL (?ids=1,2,3) so a link reproduces it.

export interface Selection {
  ids: number[]
  /** The cargo and currency of the search the rates came from (cargoQuery). */
  query: Record<string, string>
}

const STORAGE_KEY = (mode: RateMode) => `waybill.rateComparison.${mode}`

export function parseIds(text: string | null): number[] {
  const ids = (text ?? '')
    .split(',')
    .map((part) => Number(part))
    .filter((id) => Number.isInteger(id) && id > 0 && id <= 2_147_483_647)
  return [...new Set(ids)].slice(0, COMPARE_LIMIT)
}

export function readSelection(storage: Pick<Storage, 'getItem'> | undefined, mode: RateMode): Selection {
  try {
    const raw = JSON.parse(storage?.getItem(STORAGE_KEY(mode)) ?? 'null') as Partial<Selection> | null
    const ids = Array.isArray(raw?.ids) ? parseIds(raw.ids.join(',')) : []
    const query =
      raw?.query && typeof raw.query === 'object'
        ? Object.fromEntries(Object.entries(raw.query).filter(([, v]) => typeof v === 'string'))
        : {}
    return { ids, query: query as Record<string, string> }
  } catch {
    return { ids: [], query: {} }
  }
}

export function writeSelection(storage: Pick<Storage, 'setItem'> | undefined, mode: RateMode, selection: Selection) {
  try {
    storage?.setItem(STORAGE_KEY(mode), JSON.stringify(selection))
  } catch {
    // A full or private storage: the comparison URL still carries the selection.
  }
}

export type AddOutcome = { ok: true; selection: Selection } | { ok: false; reason: 'full' | 'already' }

/**
 * Adds a rate to the comparison: at most four; a rate priced for another cargo or currency starts a new
 * comparison (side by side only makes sense for the same shipment).
 */
export function addToSelection(current: Selection, id: number, query: Record<string, string>): AddOutcome {
  const same = JSON.stringify(sortedEntries(current.query)) === JSON.stringify(sortedEntries(query))
  const ids = same ? current.ids : []
  if (ids.includes(id)) return { ok: false, reason: 'already' }
  if (ids.length >= COMPARE_LIMIT) return { ok: false, reason: 'full' }
  return { ok: true, selection: { ids: [...ids, id], query } }
}

const sortedEntries = (query: Record<string, string>) => Object.entries(query).sort(([a], [b]) => a.localeCompare(b))

export function removeFromSelection(current: Selection, id: number): Selection {
  return { ...current, ids: current.ids.filter((x) => x !== id) }
}

/** The comparison table's URL for a selection. */
export function comparisonPath(mode: RateMode, selection: Selection): string {
  const params = new URLSearchParams({ ...selection.query })
  if (selection.ids.length) params.set('ids', selection.ids.join(','))
  const search = params.toString()
  return `${COMPARE_PATHS[mode]}${search ? `?${search}` : ''}`
}

// ---------------------------------------------------------------------------------------------------------
// Comparison highlighting.

export interface ComparisonMarks {
  /** Ids of the cheapest rate(s) by total. */
  cheapest: Set<number>
  /** Ids of the fastest rate(s) by transit days. */
  fastest: Set<number>
  /** Row keys whose values are not all the same across the rates. */
  differs: Set<string>
}

/**
 * What stands out in the comparison: the cheapest total and the shortest transit (ties mark every rate
 * that shares them), and every row whose value is not the same for all rates. With fewer than two rates
 * nothing stands out.
 */
export function comparisonMarks(
  rates: readonly { id: number; total: string; transitDays: number }[],
  rows: Record<string, readonly string[]>,
): ComparisonMarks {
  const marks: ComparisonMarks = { cheapest: new Set(), fastest: new Set(), differs: new Set() }
  if (rates.length < 2) return marks
  const totals = rates.map((r) => ({ id: r.id, amount: scaled(r.total) }))
  // biome-ignore lint/complexity/useMathMinMax: Math.min does not take BigInts.
  const lowest = totals.reduce((min, r) => (r.amount < min ? r.amount : min), totals[0]?.amount ?? 0n)
  for (const r of totals) if (r.amount === lowest) marks.cheapest.add(r.id)
  const quickest = Math.min(...rates.map((r) => r.transitDays))
  for (const r of rates) if (r.transitDays === quickest) marks.fastest.add(r.id)
  for (const [key, values] of Object.entries(rows)) if (new Set(values).size > 1) marks.differs.add(key)
  return marks
}

/** The tab's sessionStorage, or nothing where the browser refuses it. */
export function sessionStorageOf(): Storage | undefined {
  try {
    return window.sessionStorage
  } catch {
    return undefined
  }
}
