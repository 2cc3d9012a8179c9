export { CARGO_AIRPORTS, type CargoAirport } from './airports.ts'
export { CARGO_AIRLINES, type CargoAirline, OCEAN_CARRIERS, type OceanCarrier } from './carriers.ts'
export { CONTAINER_TYPES, type ContainerType, type ContainerTypeGroup } from './containerTypes.ts'
export { type Country, listCountries } from './countries.ts'
export {
  CURRENCIES,
  type Currency,
  type CurrencyCode,
  DEMO_EXCHANGE_RATES_TO_CNY,
  DEMO_RATE_DATE,
  type ExchangeRate,
  SPEC_CURRENCY_CODES,
} from './currencies.ts'
export { FULFILMENT_CENTRES, type FulfilmentCentre } from './fulfilmentCentres.ts'
export { type HsCode, listHsCodes } from './hsCodes.ts'
export { type PortRegion, SEA_PORTS, type SeaPort } from './ports.ts'
