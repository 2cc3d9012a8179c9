import { DEFAULT_ECOMMERCE_EQ_WEIGHT } from '../../rules/derived.ts'

/**
 * Defaults of a tenant (issue #25): its site settings and what each version switches on, as data.
 */

/**
 * A tenant's site settings of SPEC §3 with every field present: what the demo seed starts from and what a tenant
 * the platform makes is given (issue #25); the tenant's administrator changes them on /operationSet.
 */
export function defaultSettings(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    websiteName: '',
    websiteNameEn: '',
    iconPath: '/favicon.svg',
    themeColor: '#409eff',
    logoList: [{ url: '/logo.svg' }],
    servicePhone: '400-665-9211',
    mail: 'service@example.com',
    serviceAgreementList: [],
    privacyAgreementList: [],
    backgroundImageList: [],
    backgroundImagePlay: true,
    specialMode: false,
    pageTemplate: 0,
    homeMode: 1,
    ecommerceEqWeight: DEFAULT_ECOMMERCE_EQ_WEIGHT,
    hasBookingAgent: false,
    showCnptFields: false,
    showSeaFreightTerms: true,
    ocrChannel: null,
    freightHsCode: 'customs',
    seaShipmentBillSettings: {},
    aeShipmentBillSettings: {},
    operatingOrderIfModify: true,
    operatingOrderLob: [],
    operatingOrderLimitValue: 24,
    operatingOrderReviewReceiver: [],
    // Quotes are sent without a second operator's review, every charge line shown, totals all-in (issue #25).
    quoteReview: false,
    quoteDisplayItems: 'every',
    quoteDisplayCharges: 'allIn',
    newContactInformationCheck: false,
    newContactInformation: '',
    companyId: null,
    transportationSupport: [1, 2, 3, 4],
    inquiryAllowed: true,
    inquiryMenus: [],
    companyDomainName: '',
    copyright: '',
    copyrightEn: '',
    icp: '',
    configuration: { visitorQueryLimit: 20, homeSpecialRouteCount: 6 },
    // The home page's contact block (docs/CONFIGURATION.md "Public site").
    companyAddress: '',
    companyAddressEn: '',
    ...overrides,
  }
}

/** The features a tenant may be given (schemas/platformTenant.yaml `features`): each is a boolean site setting. */
export const TENANT_FEATURES = [
  'inquiryAllowed',
  'hasBookingAgent',
  'showCnptFields',
  'showSeaFreightTerms',
  'operatingOrderIfModify',
  'specialMode',
] as const
export type TenantFeature = (typeof TENANT_FEATURES)[number]
export type TenantVersion = 'flagship' | 'standard' | 'basic'

/**
 * What each version (SPEC §6: flagship, standard, basic) switches on; every other feature is off. A tenant can be
 * given a feature its version lacks, or lose one (SPEC §6's per-tenant flags), on /tenantDetail.
 */
export const VERSION_FEATURES: Record<TenantVersion, readonly TenantFeature[]> = {
  flagship: ['inquiryAllowed', 'hasBookingAgent', 'showCnptFields', 'showSeaFreightTerms', 'operatingOrderIfModify'],
  standard: ['inquiryAllowed', 'showSeaFreightTerms', 'operatingOrderIfModify'],
  basic: ['showSeaFreightTerms'],
}

/** The features a tenant's settings switch on. */
export function featuresOf(settings: Record<string, unknown>): TenantFeature[] {
  return TENANT_FEATURES.filter((feature) => settings[feature] === true)
}

/** The settings with exactly these features on. */
export function withFeatures(
  settings: Record<string, unknown>,
  features: readonly TenantFeature[],
): Record<string, unknown> {
  const next = { ...settings }
  for (const feature of TENANT_FEATURES) next[feature] = features.includes(feature)
  return next
}
