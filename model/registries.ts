/**
 * Names the configuration may use for code that lives in the runtime. The runtime registers a
 * component under each of these names (a test holds the two lists equal), and `waybill check`
 * refuses any other name, so a typo never reaches a browser.
 */

/** Generic screen kinds rendered from YAML alone. */
export const SCREEN_KINDS = ['list', 'detail', 'form', 'chart', 'custom'] as const

/** Form widgets beyond rjsf's defaults (runtime/widgets). */
export const WIDGETS = [
  'text',
  'textarea',
  'number',
  'money',
  'select',
  'portSelect',
  'airportSelect',
  'carrierSelect',
  'currencySelect',
  'countrySelect',
  'containerTypeSelect',
  'date',
  'dateRange',
  'datetime',
  'checkbox',
  'fileUpload',
  'imageUpload',
  'richText',
  'textBlock',
  'subTable',
  'permissionTree',
] as const

/**
 * The look-ups of select fields (runtime/widgets/lookups.ts): one per referenced entity that has one, and
 * the narrower ones a ref field names with `lookup:` — the enterprise-side roles, the provider's salesmen.
 */
export const LOOKUPS = [
  'port',
  'airport',
  'carrier',
  'currency',
  'country',
  'amazonFc',
  'containerType',
  'offeredContainerType',
  'hsCode',
  'company',
  'order',
  'role',
  'roleGroup',
  'blOrder',
  'bill',
  'enterpriseRole',
  'salesman',
  'salesBranch',
  'region',
  'office',
  'bookingAgent',
  // The caller's enterprise's FBA products by SKU (a text field's look-up: the product line's SKU).
  'fbaProduct',
  // The chat desk's pick-lists (screens/chat.yaml): the operators who chat, the tenant's IM tags (read only).
  'chatOperator',
  'chatTag',
] as const

/** Hand-written screens (runtime/flows and runtime/site), named by `component:` in a screen. */
export const COMPONENTS = [
  'login',
  'register',
  'resetPassword',
  'agreement',
  'home',
  'tracking',
  'sharedTracking',
  'newsList',
  'newsDetail',
  'servicePage',
  'aboutPage',
  'notFound',
  'rateSearch',
  'rateComparison',
  'specialRateApplication',
  'specialRateDetail',
  'quoteEditor',
  'quoteComparison',
  'palletInquiry',
  'inquiryHome',
  'bookingOrder',
  'blEditor',
  'imChat',
  'roleTree',
  'overlayEditor',
  'placeholder',
] as const
