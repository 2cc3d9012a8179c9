/**
 * What the rate and special-rate calls answer (server/domain/rates/pricing.ts PricedRate,
 * server/domain/spa/handlers.ts): the generated client types these calls' answers as `unknown`.
 */

export type RateMode = 'FCL' | 'LCL' | 'AIR'

export interface ChargeLine {
  code: string
  name: string
  category: 'origin' | 'freight' | 'destination'
  unit: string
  quantity: string
  unitPrice: string
  amount: string
  currency: string
  /** The amount in the answer's currency. */
  converted: string
}

export interface PricedRate {
  id: number
  rateNo: string
  mode: RateMode
  carrier: string
  carrierName: string | null
  origin: string
  originName: string | null
  destination: string
  destinationName: string | null
  validFrom: string
  validTo: string
  transitDays: number
  cutOffDay: number | null
  departureDays: number[]
  nextDeparture: string | null
  rateCurrency: string
  chargeUnit: string
  containerType: string | null
  chargeableQuantity: string
  freight: { unitPrice: string; amount: string; currency: string }
  total: string
  currency: string
  totalsByCurrency: Record<string, string>
  charges?: ChargeLine[]
  categories?: { category: ChargeLine['category']; amount: string }[]
  remarks: string | null
  /** Rate detail only. */
  expired?: boolean
  priceLevel?: string | null
}

export interface Allowance {
  limited: boolean
  limit: number | null
  used: number
  remaining: number | null
}

export interface SearchAnswer {
  list: PricedRate[]
  total: number
  pageNum: number
  pageSize: number
  currency: string | null
  priceLevel: string | null
  allowance: Allowance
}

export type SpaState = 'pending' | 'reapply' | 'accepted' | 'approved' | 'rejected' | 'withdrawn' | 'expired' | 'passed'

export interface SpaOffer {
  id: number
  action: 'apply' | 'counterOffer' | 'accept' | 'approve' | 'reject' | 'withdraw' | 'reapply'
  side: 'customer' | 'operator'
  price: string | null
  currency: string | null
  remark: string | null
  userId: number
  userName: string | null
  at: string
}

export interface SpaApplication {
  id: number
  version: number
  applicationNo: string
  rate: number
  rateNo: string
  mode: RateMode
  carrier: string
  origin: string
  destination: string
  containerType: string | null
  validTo: string
  currency: string
  listPrice: string | null
  targetPrice: string
  counterPrice: string | null
  approvedPrice: string | null
  remark: string | null
  customerCompanyName: string | null
  createdByName: string | null
  state: SpaState
  createdAt: string
  updatedAt: string
}

export interface SpaDetailAnswer extends SpaApplication {
  usable: boolean
  transitions: string[]
  thread: SpaOffer[]
}
