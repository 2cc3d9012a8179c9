import type {
  PricedRate as PricedRateContent,
  RateCharge,
  SpaApplicationDetail,
  SpaApplicationView,
  SpaThreadEntry,
} from '../../../generated/content.ts'

/**
 * The rate and special-rate calls' answers under the names the rate screens use: the generated types of
 * their YAML descriptions (schemas/pricedRate.yaml, rateSearchResult.yaml, spaApplicationView.yaml…).
 */

export type PricedRate = PricedRateContent
export type RateMode = PricedRate['mode']
export type ChargeLine = RateCharge
export type SpaApplication = SpaApplicationView
export type SpaState = SpaApplicationView['state']
export type SpaOffer = SpaThreadEntry
export type SpaDetailAnswer = SpaApplicationDetail
