import type { TradeTermConfig } from '../generated/types.ts'

/**
 * One trade term the tenant offers, as the inquiry form receives it (GET
 * /booking/public/api/inquiry/tradeTerms): the configuration row with every service flag answered.
 */
export type TradeTermOption = Required<Omit<TradeTermConfig, 'id' | 'version' | 'enabled'>>
