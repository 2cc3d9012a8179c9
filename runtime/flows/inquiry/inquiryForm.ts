import type { TradeTermOption } from '../../../rules/tradeTerms.ts'

/**
 * The pure half of the pallet inquiry (/palletInquiry/:type): which modes the route presets, and what a chosen
 * trade term pre-ticks and locks. Its sections, and that they wait for origin and destination (SPEC §5), are
 * the screen's YAML (screens/inquiry.yaml, UI rules), which the server honours too.
 */

type Data = Record<string, unknown>

/** SPEC §2: the route's segment → transport modes (SPEC §9: 1 sea, 2 air, 3 rail, 4 truck); 'all' lets the customer tick. */
export const TYPE_MODES: Readonly<Record<string, readonly number[]>> = {
  all: [],
  sea: [1],
  air: [2],
  railway: [3],
  truck: [4],
}

export type { TradeTermOption } from '../../../rules/tradeTerms.ts'

/** The mode the trade terms are read for: the one chosen, else none (several modes: the strictest, see below). */
export function termModes(data: Data): number[] {
  return Array.isArray(data.transportModes) ? (data.transportModes as number[]) : []
}

/**
 * The terms the form offers for the chosen party and modes: a term must be configured (and enabled) for every
 * chosen mode, so a sea + rail inquiry never offers FOB. Default first, as the server answers them.
 */
export function offeredTerms(
  options: readonly TradeTermOption[],
  party: unknown,
  modes: readonly number[],
): TradeTermOption[] {
  if (!modes.length || (party !== 'buyer' && party !== 'seller')) return []
  const ofParty = options.filter((o) => o.tradeParty === party)
  const [first, ...rest] = modes
  return ofParty.filter(
    (o) =>
      o.transportMode === first &&
      rest.every((mode) => ofParty.some((p) => p.transportMode === mode && p.tradeTerm === o.tradeTerm)),
  )
}

/** Customs clearance the party handles under the term: the seller exports, the buyer imports; EXW and DDP put both on one side. */
function customsOf(option: TradeTermOption): string[] {
  if (!option.customsDeclaration) return []
  if (option.tradeTerm === 'EXW' && option.tradeParty === 'buyer') return ['export', 'import']
  if (option.tradeTerm === 'DDP' && option.tradeParty === 'seller') return ['export', 'import']
  return [option.tradeParty === 'seller' ? 'export' : 'import']
}

/** The services a chosen term pre-ticks, written over the form's values (the customer may untick what is not locked). */
export function servicesOf(option: TradeTermOption): Data {
  return {
    needPickUp: option.needPickUp,
    deliveryToConsignee: option.deliveryToConsignee,
    collectWarehouse: option.collectWarehouse,
    customsDeclaration: customsOf(option),
    insurance: option.insurance,
    unloadingWarehouse: option.unloadingWarehouse,
  }
}

/**
 * The form's values after a change: a term the party and modes no longer offer gives way to the default one,
 * and a newly chosen term (or party) pre-ticks its services.
 */
export function withTradeTerm(previous: Data, next: Data, options: readonly TradeTermOption[]): Data {
  const offered = offeredTerms(options, next.tradeRole, termModes(next))
  let out = next
  let chosen = offered.find((o) => o.tradeTerm === next.tradeTerm)
  if (!chosen) {
    chosen = offered[0]
    const { tradeTerm: _dropped, ...rest } = next
    out = chosen ? { ...rest, tradeTerm: chosen.tradeTerm } : rest
  }
  if (chosen && (chosen.tradeTerm !== previous.tradeTerm || next.tradeRole !== previous.tradeRole))
    out = { ...out, ...servicesOf(chosen) }
  return withLockedCustoms(out, chosen)
}

/** A locked customs declaration keeps the term's clearance, whatever was sent from the form. */
export function withLockedCustoms(data: Data, option: TradeTermOption | undefined): Data {
  if (!option?.lockedCustomsDeclaration) return data
  return { ...data, customsDeclaration: customsOf(option) }
}

/**
 * The generic uiSchema adjusted for this flow: the modes as tick boxes (fixed by a single-mode route), the
 * trade term from the configuration only, customs declaration locked when the term says so.
 */
export function inquiryUiSchema(
  base: Record<string, unknown>,
  fields: Record<string, { label?: string }>,
  state: { presetModes: readonly number[]; terms: readonly string[]; lockCustoms: boolean },
): Record<string, unknown> {
  const ui: Record<string, unknown> = { ...base }
  const entry = (name: string) => ({ ...((ui[name] as Record<string, unknown> | undefined) ?? {}) })
  // A list of enum values carries its label on the items (model/jsonschema.ts): give the field its own.
  for (const name of ['transportModes', 'warehouseServices', 'customsDeclaration'])
    ui[name] = { ...entry(name), 'ui:widget': 'enumChecks', 'ui:title': fields[name]?.label ?? name }
  if (state.presetModes.length) ui.transportModes = { ...entry('transportModes'), 'ui:readonly': true }
  if (state.lockCustoms) ui.customsDeclaration = { ...entry('customsDeclaration'), 'ui:readonly': true }
  ui.tradeTerm = {
    ...entry('tradeTerm'),
    'ui:widget': 'tradeTermSelect',
    'ui:options': { ...((entry('tradeTerm')['ui:options'] as object | undefined) ?? {}), terms: state.terms },
  }
  return ui
}
