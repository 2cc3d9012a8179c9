/**
 * What the guards hold the manifest to (issue #20, "the guards trust the manifest they test"). The permission
 * guard (guard-permissions.test.ts) sweeps what the YAML declares; these lists are what a reviewer agreed the
 * YAML should declare. tests/api/guard-manifest.test.ts fails when an endpoint joins or leaves a list without
 * the list being changed here — an endpoint made `public: true`, a `permissions:` dropped from a screen, a
 * preset role given or denied a permission — so such a change is seen and reviewed, never silent.
 *
 * Every entry says why. Keys are manifest endpoint ids (`node generator/bin/waybill.js generate` writes them
 * to generated/; a screen's call is `<screen>.<kind>`, a hand-written call its own name).
 */

/** Callable without a token: the visitor's site, sign-in and sign-up, public look-ups (SPEC §3, §4, §7). */
export const PUBLIC_ENDPOINTS: Record<string, string> = {
  // The public site a visitor browses (SPEC §3): settings, pages, news, special routes.
  siteSettings: 'the site settings every page (and the login page) is drawn with',
  sitePages: 'the configurable public pages',
  personalization: "the tenant's look (theme, logo) before anyone signs in",
  specialRoutes: "the home page's special routes",
  specialLineRates: "the special lines' rates shown on the public home page",
  'shippingSchedules.list':
    'the sailing schedules a visitor searches (SPEC §1 schedule query), with the tenant’s cheapest rate beside each',
  dcsaServiceSchedules: 'the same shared sailing schedules as DCSA OVS 3.0.2 service schedules',
  trackingLinkView:
    "a shared tracking link's shipment: the random token is the credential (hashed, expiring, revocable; issue #29)",
  quoteConfigurationView: 'the inquiry form options a visitor sees before signing in',
  newsList: 'the information centre list is public (SPEC §3 news)',
  newsDetail: 'a public news article',
  newsCover: "a public article's cover image",
  siteImage: "the site's icon, logo and background images, which every visitor's page shows",
  newsPdf: "a public article's PDF attachment",
  newsHot: 'the hot articles block of the public news page',
  pushRead: "a push mail's read link: the signed token is the credential (forged or another tenant's: 220000)",
  newsRecommended: 'the recommended articles block of the public news page',
  newsLike: 'a visitor may like an article (counted per visitor, no account)',
  behaviorRecordAdd: 'a page visit is recorded for visitors too, counted by the first-party visitor cookie',
  // Freight search a visitor may use within the tenant's visitor allowance (SPEC §6).
  rateSearch: 'rate search works for visitors, limited by visitorQueryLimit',
  rateQuote: "a rate's detail from the public search",
  rateAllowance: 'how many visitor searches are left',
  // Tracking by number is public (SPEC §7 tracking); a signed-in operator sees more (code, not a permission).
  trackingQuery: 'public tracking by B/L, booking or container number',
  getOrderTrack: 'the FBA tracking look-up of the public site',
  // Reference look-ups the public search and the inquiry form use before sign-in.
  portFuzzyQuery: 'port names for the public rate search',
  airportFuzzyQuery: 'airport names for the public air search',
  carrierFuzzyQuery: 'carrier names for the public rate search',
  containerTypeFuzzyQuery: 'container types for the public rate search',
  offeredContainerTypes:
    "the inquiry form's container types: the tenant's offer, a public reference list like the rest",
  seaEqDataList: "SPEC's path of containerTypeFuzzyQuery (GET /b2b/basicData/public/api/seaEqData/list)",
  getSop: "the forwarder's standard operating procedure of a mode, read before booking (SPEC §7 public getSop)",
  countryFuzzyQuery: 'countries for the registration and inquiry forms',
  amazonFcFuzzyQuery: 'Amazon fulfilment centres, a shared reference list like the ports (issue #26)',
  currencyFuzzyQuery: 'currencies for the public rate display',
  getCommodityCodes: 'HS codes (SPEC §7 names the call under /public/api/): a public reference list like the ports',
  inquiryTradeTerms: 'trade terms for the inquiry form',
  // Signing in, signing up and recovering an account: by definition without a session.
  userLogin: 'password login',
  userCodeLogin: 'SMS code login',
  sendLoginSms: 'sends the SMS login code',
  userRegister: 'self-registration of a personal user',
  sendRegisterSms: 'sends the registration SMS code',
  resetPasswordGetCode: 'password reset: asks for a code',
  resetPasswordCommitCode: 'password reset: checks the code',
  resetPasswordReset: 'password reset: sets the new password with the checked code',
  exchangeToken: 'the single-use hand-off from another tenant domain is the credential itself',
  userLogout: 'logging out with an expired or missing session must still clear the cookie',
}

/**
 * Private endpoints that declare no permission because their refusal depends on the call itself, so the code
 * checks it (and a test in guard-manifest.test.ts shows the refusal): the key is the endpoint, the value what
 * the code refuses and with which answer.
 */
export const CODE_CHECKED: Record<string, string> = {
  fileUpload:
    "whoever may write the target entity through one of its calls (220000, server/files/handlers.ts): the field's " +
    'entity decides, so one permission cannot be declared',
}

/**
 * Private endpoints open to every signed-in user, of any role: their own account, their own settings, reading
 * what the data scope already limits. Each still answers 401 without a token (the permission guard's sweep).
 */
export const SIGNED_IN: Record<string, string> = {
  currentUserInfo: 'who the caller is, their permissions and menus: every page asks',
  changeUserInfo: "the caller's own profile",
  changePassword: "the caller's own password",
  bindEmail: "binds the caller's own e-mail",
  bindMobile: "binds the caller's own mobile number",
  sendBindCode: "sends the code for the caller's own binding",
  createHandoff: "a one-time hand-off of the caller's own session to another tenant domain",
  listColumnsGet: "the caller's own list column settings",
  listColumnsSave: "saves the caller's own list column settings",
  exportProgress: "how far the caller's own export has got (found by tenant, user and the caller's id only)",
  trackingHistory: "the caller's own tracking search history",
  trackingHistoryClear: "clears the caller's own tracking search history",
  screenOverlays: "the tenant's screen overlays in force, which every screen is drawn with",
  fileDownload: 'a file the caller may see (visibility and company of the file, else 404 as if missing)',
  fileInfo: 'the names and sizes of files the caller may see (same visibility as fileDownload)',
  getWarehouseFileByUuid: "SPEC's path of fileInfo (GET /booking/quote/getWarehouseFileByUuid)",
  companyFuzzyQuery: 'company names for pickers; the company wall keeps an enterprise user to their own',
  // SPEC §7's user calls of issue #21 (server/domain/clients/userCalls.ts).
  getUsersByCompanyId:
    "an enterprise's enabled accounts: an enterprise user's own enterprise only (another answers 404), an " +
    "operator's any customer enterprise of the tenant",
  getRememberServices: 'the services the caller ticked last time',
  changeRememberServices: 'remembers the services the caller ticked',
  changeIndividuationCurrency: "the caller's own display currency",
  changePricePushEmail: "the caller's own price-alert e-mail",
  // SPEC §7's basic data of issue #25 (server/domain/reference/handlers.ts): the caller's tenant's rows only.
  regionFuzzyQuery: "the tenant's regions for pickers",
  officeFuzzyQuery: "the tenant's enabled offices for pickers",
  bookingAgentFuzzyQuery: "the tenant's enabled booking agents for the booking form; none while hasBookingAgent is off",
}

/** The preset roles of screens/access.yaml (SPEC §6), as the matrix names them. */
export const PRESET_ROLES = [
  'SystemAdministrator',
  'OperationAdministrator',
  'OperationCS',
  'EnterpriseAdministrator',
  'EnterpriseOperation',
  'EnterpriseCS',
  'EnterpriseSales',
  'PersonalUser',
] as const
export type PresetRole = (typeof PRESET_ROLES)[number]

// Who is who, by SPEC §6: groups the matrix below is written with.
const SYSTEM: PresetRole[] = ['SystemAdministrator'] // every permission ("*"), the platform's own
/** Runs the forwarder's portal: configuration, accounts, rates, news, number rules, overlays. */
const PROVIDER_ADMIN: PresetRole[] = [...SYSTEM, 'OperationAdministrator']
/** The order desk: orders, inquiries, quotes, special-rate review. */
const PROVIDER_DESK: PresetRole[] = [...PROVIDER_ADMIN, 'OperationCS']
/** Every enterprise-side role that books orders (permission booking). Sales does not book. */
const BOOKERS: PresetRole[] = [...SYSTEM, 'EnterpriseAdministrator', 'EnterpriseOperation', 'EnterpriseCS']
/** Every enterprise-side preset role (a company's staff); the personal user is not one. */
const ENTERPRISE: PresetRole[] = [...BOOKERS, 'EnterpriseSales']
/** Who holds priceMonitor (screens/access.yaml): the price watch's customers. */
const PRICE_WATCHERS: PresetRole[] = [
  ...SYSTEM,
  'EnterpriseAdministrator',
  'EnterpriseOperation',
  'EnterpriseSales',
  'PersonalUser',
]
/** Who keeps an enterprise's FBA addresses and products (fbaAddressBook, fbaProductList). */
const FBA_STAFF: PresetRole[] = [...SYSTEM, 'EnterpriseAdministrator', 'EnterpriseOperation']
/** Everybody signed in. */
const EVERYONE: PresetRole[] = [...PRESET_ROLES]
/** Who chats with the forwarder as a customer (imChat): every enterprise role and the personal user. */
const CHAT_CUSTOMERS: PresetRole[] = [...ENTERPRISE.slice(1), 'PersonalUser']

/**
 * Which preset role may call which permission-gated endpoint (SPEC §6 roles, §7 endpoints), written by hand:
 * a role listed may call it (the server answers anything but its refusal or 401), a role not listed is refused
 * with the endpoint's refusal (220000, or the code its YAML names: orderAdd's 360002). Checked against the real server in guard-roles.test.ts. Transitions are listed at their
 * endpoint (any of their transitions' permissions lets a role in; each transition's own permission is the
 * permission guard's sweep).
 */
export const ROLE_MATRIX: Record<string, PresetRole[]> = {
  // Orders, provider side: the operator's order list, its export, confirmation per mode, tracking events.
  'orderList.list': PROVIDER_DESK,
  'orderList.export': PROVIDER_DESK,
  // The operators' booking import for a chosen customer enterprise (issue #23).
  'orderList.import': PROVIDER_DESK,
  fclComfirm: PROVIDER_DESK,
  lclComfirm: PROVIDER_DESK,
  airComfirm: PROVIDER_DESK,
  railwayComfirm: PROVIDER_DESK,
  // SPEC §7's GET of the operator list and order/approve, the accept transition of any mode (issue #23).
  queryOrderListByOperatorGet: PROVIDER_DESK,
  orderApprove: PROVIDER_DESK,
  trackingEventAdd: PROVIDER_DESK,
  // Trajectory management (issue #23): the order desk lists shipments and their events, adds, corrects, imports.
  'trajectoryList.list': PROVIDER_DESK,
  'trajectoryEvents.list': PROVIDER_DESK,
  'trajectoryEvents.import': PROVIDER_DESK,
  trajectoryEventAdd: PROVIDER_DESK,
  trajectoryEventCorrect: PROVIDER_DESK,
  // Orders, enterprise side: every company role sees its orders (myOrders); only bookers create drafts.
  'myOrders.list': ENTERPRISE,
  // SPEC §7's GET of the customer list, and the customer's transitions by SPEC's paths (myOrders, issue #23).
  queryOrderListByCompanyGet: ENTERPRISE,
  withdraw: ENTERPRISE,
  reapplyOrder: ENTERPRISE,
  onlineOrdersReEdit: ENTERPRISE,
  // What belongs to one order reads it as getOrderDetail does: either side (myOrders or orderList), and the
  // order's tenant and data scope decide the rest.
  getOrderDetailByJobNo: [...PROVIDER_DESK, ...ENTERPRISE.slice(1)],
  queryOrderByOrderNos: [...PROVIDER_DESK, ...ENTERPRISE.slice(1)],
  getChargeListVos: [...PROVIDER_DESK, ...ENTERPRISE.slice(1)],
  getFiles: [...PROVIDER_DESK, ...ENTERPRISE.slice(1)],
  uploadOrderFile: [...PROVIDER_DESK, ...ENTERPRISE.slice(1)],
  getBusinessLog: [...PROVIDER_DESK, ...ENTERPRISE.slice(1)],
  getForecastOrderDetail: [...PROVIDER_DESK, ...ENTERPRISE.slice(1)],
  // Reference lists of booking (myOrders, orderList or booking): both sides, not the personal user.
  queryRequirements: [...PROVIDER_DESK, ...ENTERPRISE.slice(1)],
  specialOperationCodeList: [...PROVIDER_DESK, ...ENTERPRISE.slice(1)],
  // The customer's own export (issue #21): a permission of its own every enterprise preset role holds.
  'myOrders.export': ENTERPRISE,
  // Booking import (issue #23): the customer's own orders from a workbook, for those who may book.
  'myOrders.import': BOOKERS,
  'myOrders.detail': [...PROVIDER_DESK, ...ENTERPRISE.slice(1)],
  // An order's documents (issue #23): whoever may open the order's detail (myOrders or orderList).
  dcsaBookingExport: [...PROVIDER_DESK, ...ENTERPRISE.slice(1)],
  dcsaShippingInstructionsExport: [...PROVIDER_DESK, ...ENTERPRISE.slice(1)],
  blDraftPdf: [...PROVIDER_DESK, ...ENTERPRISE.slice(1)],
  // DCSA Track & Trace 2.2 (issue #29): the caller's own shipments' events and subscriptions, either side
  // (myOrders or orderList); the session's company or tenant decides what is answered.
  dcsaEvents: [...PROVIDER_DESK, ...ENTERPRISE.slice(1)],
  dcsaEventSubscriptions: [...PROVIDER_DESK, ...ENTERPRISE.slice(1)],
  dcsaEventSubscriptionCreate: [...PROVIDER_DESK, ...ENTERPRISE.slice(1)],
  dcsaEventSubscription: [...PROVIDER_DESK, ...ENTERPRISE.slice(1)],
  dcsaEventSubscriptionUpdate: [...PROVIDER_DESK, ...ENTERPRISE.slice(1)],
  dcsaEventSubscriptionSecret: [...PROVIDER_DESK, ...ENTERPRISE.slice(1)],
  dcsaEventSubscriptionDelete: [...PROVIDER_DESK, ...ENTERPRISE.slice(1)],
  // The same subscriptions in the workbench (issue #29): listed, deleted, their notifications logged and sent again,
  // by whoever the standard's calls let manage them.
  'dcsaSubscriptionList.list': [...PROVIDER_DESK, ...ENTERPRISE.slice(1)],
  'dcsaNotifications.list': [...PROVIDER_DESK, ...ENTERPRISE.slice(1)],
  dcsaSubscriptionRemove: [...PROVIDER_DESK, ...ENTERPRISE.slice(1)],
  dcsaNotificationResend: [...PROVIDER_DESK, ...ENTERPRISE.slice(1)],
  // Shareable tracking links (issue #29): a customer's company shares its own shipments (myOrders), the
  // provider's desk any of the tenant's (orderList).
  trackingLinkCreate: [...PROVIDER_DESK, ...ENTERPRISE.slice(1)],
  trackingLinkPage: [...PROVIDER_DESK, ...ENTERPRISE.slice(1)],
  trackingLinkRevoke: [...PROVIDER_DESK, ...ENTERPRISE.slice(1)],
  'order.transition': [...PROVIDER_DESK, ...ENTERPRISE.slice(1)],
  'preOrderList.list': [...PROVIDER_DESK, ...ENTERPRISE.slice(1)],
  // B/L instructions (issue #23): the booking enterprise roles (blSubmission) and the order desk
  // (blSubmissionProvider) list, read, submit and edit them; only the desk confirms, reopens and finishes.
  'cargoFeedList.list': [...PROVIDER_DESK, ...BOOKERS.slice(1)],
  'cargoFeedSubmission.detail': [...PROVIDER_DESK, ...BOOKERS.slice(1)],
  'cargoFeedSubmission.create': [...PROVIDER_DESK, ...BOOKERS.slice(1)],
  'cargoFeedSubmission.update': [...PROVIDER_DESK, ...BOOKERS.slice(1)],
  blOrderFuzzyQuery: [...PROVIDER_DESK, ...BOOKERS.slice(1)],
  // What a new instruction starts with from its order (the editor's prefill call), for the same callers.
  blInstructionPrefill: [...PROVIDER_DESK, ...BOOKERS.slice(1)],
  'blInstruction.transition': PROVIDER_DESK,
  // Its documents from the B/L editor: whoever may read the instruction (the order is read with it, in scope).
  blInstructionDcsaExport: [...PROVIDER_DESK, ...BOOKERS.slice(1)],
  blInstructionDraftPdf: [...PROVIDER_DESK, ...BOOKERS.slice(1)],
  'orderDraftList.create': BOOKERS,
  'orderDraftList.update': BOOKERS,
  'orderDraftList.detail': ENTERPRISE,
  'orderDraftList.list': ENTERPRISE,
  'orderDraftList.delete': BOOKERS,
  // The booking saves: bookers (their refusal is 360002, `refusal:` in screens/booking.yaml). A direct order also
  // needs directlyEntrusted and the tenant's online booking, which their code checks (guard-manifest.test.ts).
  orderAdd: BOOKERS,
  orderDraftSave: BOOKERS,
  bookingAutoQuote: BOOKERS,
  saveForecastOrderDetail: BOOKERS,
  // Order templates: bookers and whoever keeps the company's templates (templateList, sales included).
  'orderTemplateList.create': ENTERPRISE,
  'orderTemplateList.update': ENTERPRISE,
  'orderTemplateList.detail': ENTERPRISE,
  'orderTemplateList.list': ENTERPRISE,
  'orderTemplateList.delete': ENTERPRISE,
  orderTemplateSave: ENTERPRISE,
  // Direct order: the tenant check of the Direct order menu (directlyEntrusted: sales too, not personal).
  checkTenant: ENTERPRISE,
  // Bills (issue #24): every enterprise role sees its company's bills and debit notes (myBilling) and downloads a
  // printed one; the forwarder's administrators make, print and confirm them (billManage).
  'billList.list': ENTERPRISE,
  'billList.export': ENTERPRISE,
  billingListGet: ENTERPRISE,
  'debitNote.list': ENTERPRISE,
  'debitNote.export': ENTERPRISE,
  'billDetail.detail': [...PROVIDER_ADMIN, ...ENTERPRISE.slice(1)],
  downloadBilling: [...PROVIDER_ADMIN, ...ENTERPRISE.slice(1)],
  downloadBillingPost: [...PROVIDER_ADMIN, ...ENTERPRISE.slice(1)],
  behaviorPageNames: PROVIDER_ADMIN,
  // The analytics charts (screens/analytics.yaml, kind: chart) and UserBehavior's export: the operation administrator's.
  selectLoginAndRegisterUserUV: PROVIDER_ADMIN,
  getAnalyticsData: PROVIDER_ADMIN,
  orderClientUV: PROVIDER_ADMIN,
  selectOrderCount: PROVIDER_ADMIN,
  selectOrderAmount: PROVIDER_ADMIN,
  freightReview: PROVIDER_ADMIN,
  bookingReview: PROVIDER_ADMIN,
  PagePv: PROVIDER_ADMIN,
  exportPvList: PROVIDER_ADMIN,
  personalUserProfile: PROVIDER_ADMIN,
  userPortraitExportExcel: PROVIDER_ADMIN,
  'billManage.list': PROVIDER_ADMIN,
  'billManage.create': PROVIDER_ADMIN,
  'billManage.delete': PROVIDER_ADMIN,
  'billManage.export': PROVIDER_ADMIN,
  updateBillStatus: PROVIDER_ADMIN,
  adjustOrderCharge: PROVIDER_ADMIN,
  'bill.transition': PROVIDER_ADMIN,
  // Invoices (issue #24): every enterprise role sees its company's (myInvoice); the administrators issue them.
  'invoiceList.list': ENTERPRISE,
  'invoiceList.export': ENTERPRISE,
  invoiceListGet: ENTERPRISE,
  'invoiceManage.list': PROVIDER_ADMIN,
  'invoiceManage.create': PROVIDER_ADMIN,
  'invoiceManage.export': PROVIDER_ADMIN,
  // Finance management (issue #24): the forwarder's administrators (financeManage) follow receivables, payables
  // and their ageing and record payments; every enterprise role sees its own ageing and statement (myBilling).
  'financeManagement.list': PROVIDER_ADMIN,
  'financeManagement.export': PROVIDER_ADMIN,
  'billPayments.list': PROVIDER_ADMIN,
  'billPayments.create': PROVIDER_ADMIN,
  'billPayments.export': PROVIDER_ADMIN,
  'myStatement.list': ENTERPRISE,
  'myStatement.export': ENTERPRISE,
  statementPdf: [...PROVIDER_ADMIN, ...ENTERPRISE.slice(1)],
  // A payment's bill look-up: whoever records payments, makes bills or sees their own.
  billFuzzyQuery: [...PROVIDER_ADMIN, ...ENTERPRISE.slice(1)],
  // Inquiries and quotes: the desk works them; enterprise roles that inquire (not sales) see their own.
  'inquiryList.list': PROVIDER_DESK,
  'inquiryList.detail': PROVIDER_DESK,
  'myInquiries.list': BOOKERS,
  'myInquiries.detail': BOOKERS,
  'palletInquiry.create': BOOKERS,
  'inquiry.transition': [...PROVIDER_DESK, ...BOOKERS.slice(1)],
  'quoteList.list': PROVIDER_DESK,
  'quoteList.detail': PROVIDER_DESK,
  'quoteList.create': PROVIDER_DESK,
  'quoteList.update': PROVIDER_DESK,
  'quoteList.delete': PROVIDER_DESK,
  quoteAmountDue: PROVIDER_DESK,
  // The review queue (issue #25): quoteReview, the operations administrators', not the desk's customer service.
  'quoteReviewList.list': PROVIDER_ADMIN,
  'quote.transition': [...PROVIDER_DESK, ...BOOKERS.slice(1)],
  quoteItem: [...PROVIDER_DESK, ...BOOKERS.slice(1)],
  inquiryQuotes: [...PROVIDER_DESK, ...BOOKERS.slice(1)],
  // Operating orders (issue #23): the desk opens, approves and changes the usages of job files; the customer
  // roles with operatingOrderEnterprise (every booker) read and edit their company's; both see the count.
  'operatingOrderList.list': [...PROVIDER_DESK, ...BOOKERS.slice(1)],
  'operatingOrderList.detail': [...PROVIDER_DESK, ...BOOKERS.slice(1)],
  'editOperatingOrder.update': [...PROVIDER_DESK, ...BOOKERS.slice(1)],
  'operatorOperatingOrderList.create': PROVIDER_DESK,
  'operatingOrder.transition': PROVIDER_DESK,
  jobAuditRecordCount: [...PROVIDER_DESK, ...BOOKERS.slice(1)],
  jobAuditRecordDetail: [...PROVIDER_DESK, ...BOOKERS.slice(1)],
  jobAuditRecordApprove: PROVIDER_DESK,
  cargoJobUpdateUsages: PROVIDER_DESK,
  cargoJobUsageHistories: [...PROVIDER_DESK, ...BOOKERS.slice(1)],
  // SPEC's paths of quoteItem and inquiryQuotes (issue #23).
  bookingQuote: [...PROVIDER_DESK, ...BOOKERS.slice(1)],
  getAutoQuoteList: [...PROVIDER_DESK, ...BOOKERS.slice(1)],
  // Special rates (SPA): companies apply, the desk reviews; a rate check is for anyone who sees rates.
  listSpaApply: ENTERPRISE,
  spaApply: ENTERPRISE,
  spaAccept: ENTERPRISE,
  spaCancel: ENTERPRISE,
  spaCancelGet: ENTERPRISE,
  spaReapply: ENTERPRISE,
  validSpaReapply: ENTERPRISE,
  listSpaReview: PROVIDER_DESK,
  spaAudit: PROVIDER_DESK,
  getSpaById: [...PROVIDER_DESK, ...ENTERPRISE.slice(1)],
  verifyFreightRates: EVERYONE,
  // Price watches (issue #22): permission priceMonitor — the personal user and every enterprise role but CS.
  'priceMonitor.list': PRICE_WATCHERS,
  'priceMonitor.detail': PRICE_WATCHERS,
  'priceMonitor.create': PRICE_WATCHERS,
  'priceMonitor.update': PRICE_WATCHERS,
  'priceWatch.transition': PRICE_WATCHERS,
  // Shipment subscriptions (issue #22): whoever sees their orders (myOrders) follows them — every enterprise role.
  'shipmentSubscriptions.list': ENTERPRISE,
  'shipmentSubscriptions.detail': ENTERPRISE,
  'shipmentSubscriptions.create': ENTERPRISE,
  'shipmentSubscription.transition': ENTERPRISE,
  // Its order field's look-up: the orders the caller's order list shows; a new bill's order (billManage) too.
  orderFuzzyQuery: [...PROVIDER_ADMIN, ...ENTERPRISE.slice(1)],
  // Letters (the message centre): everybody's own.
  letterList: EVERYONE,
  letterRead: EVERYONE,
  letterReadAll: EVERYONE,
  // Receiving settings (/letterManage): every role keeps its own (letterSettings).
  letterSettingList: EVERYONE,
  letterSettingSave: EVERYONE,
  // The chat (issue #27): customers (imChat) open and list their own; the system administrator is an operator
  // (company user type 1 with imServiceDesk) and is refused the customer's calls by the handler (220000) — for
  // imOpen after its body's check, which the sweep's body fails first, so the sweep sees the administrator pass.
  imOpen: [...SYSTEM, ...CHAT_CUSTOMERS],
  imMine: CHAT_CUSTOMERS,
  // The chat tab's key: whoever opened one (imChat).
  imEnter: [...SYSTEM, ...CHAT_CUSTOMERS],
  // Either side, each within their own conversations (a customer's own, an operator's tenant's); one by id is
  // the unread letter's link.
  imConversation: EVERYONE,
  imHistory: EVERYONE,
  imSend: EVERYONE,
  imRead: EVERYONE,
  imUnreadCount: EVERYONE,
  imSocket: EVERYONE,
  // The operators' chat desk (imServiceDesk).
  imQueue: PROVIDER_DESK,
  imTake: PROVIDER_DESK,
  imTransfer: PROVIDER_DESK,
  imClose: PROVIDER_DESK,
  imTag: PROVIDER_DESK,
  imCustomerTag: PROVIDER_DESK,
  // The desk's pick-lists: the operators who chat, and the tenant's tags read only (the desk or the tag admin).
  imOperatorOptions: PROVIDER_DESK,
  imTagOptions: PROVIDER_DESK,
  // Provider administration: configuration, accounts and roles, rates and price levels, news, overlays.
  'exchangeRateList.list': PROVIDER_ADMIN,
  'exchangeRateList.create': PROVIDER_ADMIN,
  'exchangeRateList.update': PROVIDER_ADMIN,
  'exchangeRateList.delete': PROVIDER_ADMIN,
  'freightRateList.list': PROVIDER_ADMIN,
  'freightRateList.detail': PROVIDER_ADMIN,
  'freightRateList.create': PROVIDER_ADMIN,
  'freightRateList.update': PROVIDER_ADMIN,
  'freightRateList.delete': PROVIDER_ADMIN,
  'freightRateList.import': PROVIDER_ADMIN,
  'freightRateList.export': PROVIDER_ADMIN,
  'priceLevelList.list': PROVIDER_ADMIN,
  'priceLevelList.create': PROVIDER_ADMIN,
  'priceLevelList.update': PROVIDER_ADMIN,
  'priceLevelList.delete': PROVIDER_ADMIN,
  'priceLevelList.import': PROVIDER_ADMIN,
  'priceLevelCompanyList.list': PROVIDER_ADMIN,
  'priceLevelCompanyList.create': PROVIDER_ADMIN,
  'priceLevelCompanyList.update': PROVIDER_ADMIN,
  'priceLevelCompanyList.delete': PROVIDER_ADMIN,
  // ULD status (issue #23): the air desk's administrators hold uldStatus.
  'uldStatus.list': PROVIDER_ADMIN,
  'uldStatus.detail': PROVIDER_ADMIN,
  'uldStatus.create': PROVIDER_ADMIN,
  'uldStatus.update': PROVIDER_ADMIN,
  'uldStatus.delete': PROVIDER_ADMIN,
  'uld.transition': PROVIDER_ADMIN,
  'reducedPriceLaneIndex.list': PROVIDER_ADMIN,
  'reducedPriceLaneIndex.create': PROVIDER_ADMIN,
  'reducedPriceLaneIndex.update': PROVIDER_ADMIN,
  'reducedPriceLaneIndex.delete': PROVIDER_ADMIN,
  'palletInquiryConfiguration.list': PROVIDER_ADMIN,
  'palletInquiryConfiguration.detail': PROVIDER_ADMIN,
  'palletInquiryConfiguration.create': PROVIDER_ADMIN,
  'palletInquiryConfiguration.update': PROVIDER_ADMIN,
  'palletInquiryConfiguration.delete': PROVIDER_ADMIN,
  'tradeTermConfiguration.list': PROVIDER_ADMIN,
  'tradeTermConfiguration.detail': PROVIDER_ADMIN,
  'tradeTermConfiguration.delete': PROVIDER_ADMIN,
  'editTradeTerm.create': PROVIDER_ADMIN,
  'editTradeTerm.update': PROVIDER_ADMIN,
  'containerConfiguration.list': PROVIDER_ADMIN,
  'containerConfiguration.detail': PROVIDER_ADMIN,
  'containerConfiguration.delete': PROVIDER_ADMIN,
  'editContainer.create': PROVIDER_ADMIN,
  'editContainer.update': PROVIDER_ADMIN,
  // Chat administration (issue #27, screens/im.yaml): the operation administrator's IM permissions.
  changeCompanyImState: PROVIDER_ADMIN,
  companyImDisplayName: PROVIDER_ADMIN,
  'imAutoReply.detail': PROVIDER_ADMIN,
  'imAutoReply.list': PROVIDER_ADMIN,
  imAutoReplySave: PROVIDER_ADMIN,
  'chatFilterList.create': PROVIDER_ADMIN,
  'chatFilterList.delete': PROVIDER_ADMIN,
  'chatFilterList.detail': PROVIDER_ADMIN,
  'chatFilterList.update': PROVIDER_ADMIN,
  'chatFilterList.list': PROVIDER_ADMIN,
  'enterpriseAccountManagementList.list': PROVIDER_ADMIN,
  'operationAccountManagementList.create': PROVIDER_ADMIN,
  'operationAccountManagementList.delete': PROVIDER_ADMIN,
  'operationAccountManagementList.detail': PROVIDER_ADMIN,
  'operationAccountManagementList.update': PROVIDER_ADMIN,
  'operationAccountManagementList.list': PROVIDER_ADMIN,
  'tagManagementList.create': PROVIDER_ADMIN,
  'tagManagementList.delete': PROVIDER_ADMIN,
  'tagManagementList.detail': PROVIDER_ADMIN,
  'tagManagementList.update': PROVIDER_ADMIN,
  'tagManagementList.list': PROVIDER_ADMIN,
  'tenantManagementList.create': PROVIDER_ADMIN,
  'tenantManagementList.detail': PROVIDER_ADMIN,
  'tenantManagementList.update': PROVIDER_ADMIN,
  'tenantManagementList.list': PROVIDER_ADMIN,
  'trailerCosts.list': PROVIDER_ADMIN,
  'trailerCosts.detail': PROVIDER_ADMIN,
  'trailerCosts.delete': PROVIDER_ADMIN,
  'trailerCostsDetail.create': PROVIDER_ADMIN,
  'trailerCostsDetail.update': PROVIDER_ADMIN,
  // Booking agents, offices and regions (issue #25): /bookingAgentList and its screens.
  'bookingAgentList.list': PROVIDER_ADMIN,
  'bookingAgentList.detail': PROVIDER_ADMIN,
  'bookingAgentList.delete': PROVIDER_ADMIN,
  'bookingAgentDetail.create': PROVIDER_ADMIN,
  'bookingAgentDetail.update': PROVIDER_ADMIN,
  'officeList.list': PROVIDER_ADMIN,
  'officeList.detail': PROVIDER_ADMIN,
  'officeList.delete': PROVIDER_ADMIN,
  'officeDetail.create': PROVIDER_ADMIN,
  'officeDetail.update': PROVIDER_ADMIN,
  'regionList.list': PROVIDER_ADMIN,
  'regionList.detail': PROVIDER_ADMIN,
  'regionList.delete': PROVIDER_ADMIN,
  'regionDetail.create': PROVIDER_ADMIN,
  'regionDetail.update': PROVIDER_ADMIN,
  'orderNoManagement.list': PROVIDER_ADMIN,
  'orderNoManagement.create': PROVIDER_ADMIN,
  'orderNoManagement.update': PROVIDER_ADMIN,
  'operationAccount.list': PROVIDER_ADMIN,
  'operationAccount.detail': PROVIDER_ADMIN,
  operationAccountAdd: PROVIDER_ADMIN,
  operationAccountUpdate: PROVIDER_ADMIN,
  roleList: PROVIDER_ADMIN,
  roleDelete: PROVIDER_ADMIN,
  roleFuzzyQuery: PROVIDER_ADMIN,
  // Role management (issue #21): /operationAuth, /operationsRoleDetail and the role groups.
  'operationAuth.list': PROVIDER_ADMIN,
  'operationsRoleDetail.detail': PROVIDER_ADMIN,
  roleSave: PROVIDER_ADMIN,
  roleCopy: PROVIDER_ADMIN,
  roleStatus: PROVIDER_ADMIN,
  roleSetBranch: PROVIDER_ADMIN,
  roleAssignUsers: PROVIDER_ADMIN,
  roleGroupFuzzyQuery: PROVIDER_ADMIN,
  // Platform tenants (issue #25): walltechAdmin, which only the system administrator holds, and only on the
  // platform's own tenant (server/domain/platform/handlers.ts; another tenant's is refused, platform-tenants.test.ts).
  platformTenantPage: SYSTEM,
  platformTenantDetail: SYSTEM,
  platformTenantSave: SYSTEM,
  platformTenantState: SYSTEM,
  // API keys (issue #29): the enterprise administrator keeps the enterprise's (enterpriseApiKeys), the operation
  // administrator the tenant's own (tenantApiKeys); the system administrator holds both. Session-only calls: a key
  // cannot manage keys (api-keys.test.ts).
  apiKeyPage: [...PROVIDER_ADMIN, 'EnterpriseAdministrator'],
  apiKeyCreate: [...PROVIDER_ADMIN, 'EnterpriseAdministrator'],
  apiKeyRotate: [...PROVIDER_ADMIN, 'EnterpriseAdministrator'],
  apiKeyRevoke: [...PROVIDER_ADMIN, 'EnterpriseAdministrator'],
  // The tenant's site settings on /operationSet (issue #25).
  siteSettingsFormList: PROVIDER_ADMIN,
  siteSettingsFormDetail: PROVIDER_ADMIN,
  siteSettingsFormSave: PROVIDER_ADMIN,
  // The tenant's SMS and WeChat settings on /messagingSet (issue #22).
  messagingSettingsList: PROVIDER_ADMIN,
  messagingSettingsDetail: PROVIDER_ADMIN,
  messagingSettingsSave: PROVIDER_ADMIN,
  // The outbox as operators follow it, and a failed message sent again (issue #22).
  'outboxStatus.list': PROVIDER_ADMIN,
  'outboxFailed.list': PROVIDER_ADMIN,
  outboxRetry: PROVIDER_ADMIN,
  'roleGroupList.list': PROVIDER_ADMIN,
  'roleGroupList.detail': PROVIDER_ADMIN,
  'roleGroupList.create': PROVIDER_ADMIN,
  'roleGroupList.update': PROVIDER_ADMIN,
  'roleGroupList.delete': PROVIDER_ADMIN,
  screenOverlayVersions: PROVIDER_ADMIN,
  screenOverlaySave: PROVIDER_ADMIN,
  screenOverlayRollback: PROVIDER_ADMIN,
  'infomationTypeManagementList.list': PROVIDER_ADMIN,
  'infomationTypeManagementList.detail': PROVIDER_ADMIN,
  'infomationTypeManagementList.create': PROVIDER_ADMIN,
  'infomationTypeManagementList.update': PROVIDER_ADMIN,
  'infomationTypeManagementList.delete': PROVIDER_ADMIN,
  'informationType.transition': PROVIDER_ADMIN,
  'infomationManagementList.list': PROVIDER_ADMIN,
  'infomationManagementList.detail': PROVIDER_ADMIN,
  'infomationManagementList.create': PROVIDER_ADMIN,
  'infomationManagementList.update': PROVIDER_ADMIN,
  'infomationManagementList.delete': PROVIDER_ADMIN,
  'informationItem.transition': PROVIDER_ADMIN,
  // Enterprise certification (issue #21): a personal user applies (enterpriseApply), the enterprise's
  // administrator reads it afterwards (myEnterprise), the operators review (audit).
  'enterpriseApply.create': [...SYSTEM, 'PersonalUser'],
  'enterpriseApply.update': [...SYSTEM, 'PersonalUser'],
  'enterpriseApply.list': [...SYSTEM, 'PersonalUser', 'EnterpriseAdministrator'],
  'enterpriseApply.detail': [...SYSTEM, 'PersonalUser', 'EnterpriseAdministrator'],
  'enterpriseApplication.transition': [...PROVIDER_ADMIN, 'PersonalUser'],
  'clientEnterpriseList.list': PROVIDER_ADMIN,
  'clientEnterpriseAudit.detail': PROVIDER_ADMIN,
  // FBA (issue #26): the administrator asks for the service (fbaApply); the address book and the products
  // are the operation staff's (fbaAddressBook, fbaProductList). Without the service enabled the answer is
  // 360005, not 220000: the permission is held, the enterprise does not use FBA yet.
  fbaServiceList: [...SYSTEM, 'EnterpriseAdministrator'],
  fbaServiceDetail: [...SYSTEM, 'EnterpriseAdministrator'],
  activateFbaService: [...SYSTEM, 'EnterpriseAdministrator'],
  'fbaAddressBook.list': FBA_STAFF,
  'fbaAddressBook.delete': FBA_STAFF,
  'fbaAddressBookDetail.detail': FBA_STAFF,
  'fbaAddressBookDetail.create': FBA_STAFF,
  'fbaAddressBookDetail.update': FBA_STAFF,
  'fbaProductList.list': FBA_STAFF,
  'fbaProductList.delete': FBA_STAFF,
  'fbaProductDetail.detail': FBA_STAFF,
  'fbaProductDetail.create': FBA_STAFF,
  'fbaProductDetail.update': FBA_STAFF,
  // FBA orders (issue #26 part 2): the enterprise's operation staff (fbaOrderList), the operators' desk
  // (fbaOrderProvider); the state machine's call is both sides' (each transition checks its own permission).
  'fbaOrderList.list': FBA_STAFF,
  'fbaOrderDetail.detail': FBA_STAFF,
  'fbaOrderDetail.create': FBA_STAFF,
  'fbaOrderDetail.update': FBA_STAFF,
  // The SKU picker of the order form (issue #26 part 3): whoever writes FBA orders.
  fbaProductFuzzyQuery: FBA_STAFF,
  'fbaOrderListOperator.list': PROVIDER_DESK,
  // The last-mile carrier's events (issue #26 tracking): the operators' desk.
  fbaLastMileEventAdd: PROVIDER_DESK,
  'fbaOrderDetailOperator.detail': PROVIDER_DESK,
  'fbaOrder.transition': [...FBA_STAFF, ...PROVIDER_DESK.filter((role) => !FBA_STAFF.includes(role))],
  // The import (issue #26): the enterprise's staff; the carton labels: both sides, as the order's detail.
  'fbaOrderList.import': FBA_STAFF,
  fbaOrderLabels: [...FBA_STAFF, ...PROVIDER_DESK.filter((role) => !FBA_STAFF.includes(role))],
  'myEnterprise.list': [...SYSTEM, 'EnterpriseAdministrator'],
  'myEnterprise.detail': [...SYSTEM, 'EnterpriseAdministrator'],
  // Membership (issue #21): everybody's own work accounts and requests to join (personalInfo); an enterprise's
  // administrators invite and review (enterpriseInvite); contacts are every company role's (contactList).
  companyUserList: EVERYONE,
  // The caller's own WeChat binding on /bindWechat (issue #22): personalInfo, which every role holds.
  wechatBindingList: EVERYONE,
  wechatBindingDetail: EVERYONE,
  wechatBindingSave: EVERYONE,
  confirmInviteCode: EVERYONE,
  changeAccountVisibility: EVERYONE,
  'memberDirectory.list': EVERYONE,
  'companyMember.transition': EVERYONE,
  'joinEnterprise.list': EVERYONE,
  'joinEnterprise.create': EVERYONE,
  'enterpriseInvite.list': [...SYSTEM, 'EnterpriseAdministrator'],
  'enterpriseInvite.create': [...SYSTEM, 'EnterpriseAdministrator'],
  'inviteCode.transition': [...SYSTEM, 'EnterpriseAdministrator'],
  'joinRequestReview.list': [...SYSTEM, 'EnterpriseAdministrator'],
  'joinRequestDetail.detail': [...SYSTEM, 'EnterpriseAdministrator'],
  'joinRequest.transition': [...SYSTEM, 'EnterpriseAdministrator'],
  'contactList.list': ENTERPRISE,
  'contactList.delete': ENTERPRISE,
  'concatInfo.detail': ENTERPRISE,
  'concatInfo.create': ENTERPRISE,
  'concatInfo.update': ENTERPRISE,
  // Client enterprises (issue #21): the list, its sales and services, and the customer-side accounts.
  'clientEnterpriseManage.list': PROVIDER_ADMIN,
  'clientEnterpriseManage.detail': PROVIDER_ADMIN,
  getGlobalSales: PROVIDER_ADMIN,
  salesBranchCheckBox: PROVIDER_ADMIN,
  companySalesList: PROVIDER_ADMIN,
  companySalesSave: PROVIDER_ADMIN,
  companySalesDelete: PROVIDER_ADMIN,
  'clientEnterpriseService.list': PROVIDER_ADMIN,
  companyServicesSave: PROVIDER_ADMIN,
  'clientEnterpriseAccount.list': PROVIDER_ADMIN,
  'clientEnterpriseAccount.detail': PROVIDER_ADMIN,
  customerAccountUpdate: PROVIDER_ADMIN,
  // An enterprise administrator's own colleagues (enterpriseAccount); the role look-up serves both sides.
  'enterpriseAccount.list': [...SYSTEM, 'EnterpriseAdministrator'],
  'enterpriseAccount.detail': [...SYSTEM, 'EnterpriseAdministrator'],
  enterpriseAccountUpdate: [...SYSTEM, 'EnterpriseAdministrator'],
  enterpriseRoleFuzzyQuery: [...PROVIDER_ADMIN, 'EnterpriseAdministrator'],
  // Push lists (issue #22): the operator administration composes, sends and follows pushes (SPEC §2, §6).
  'pushListEmail.list': PROVIDER_ADMIN,
  'pushListEmail.delete': PROVIDER_ADMIN,
  'pushListWeChat.list': PROVIDER_ADMIN,
  'pushEdit.detail': PROVIDER_ADMIN,
  'pushEdit.create': PROVIDER_ADMIN,
  'pushEdit.update': PROVIDER_ADMIN,
  'push.transition': PROVIDER_ADMIN,
  'pushView.list': PROVIDER_ADMIN,
  pushRecipientStop: PROVIDER_ADMIN,
  mailDelivery: PROVIDER_ADMIN,
  // Webhooks (issue #29): an enterprise administrator registers its own endpoints and follows their deliveries.
  'webhookList.list': [...SYSTEM, 'EnterpriseAdministrator'],
  'webhookList.delete': [...SYSTEM, 'EnterpriseAdministrator'],
  'webhookEdit.detail': [...SYSTEM, 'EnterpriseAdministrator'],
  'webhookEdit.update': [...SYSTEM, 'EnterpriseAdministrator'],
  'webhookDeliveries.list': [...SYSTEM, 'EnterpriseAdministrator'],
  webhookCreate: [...SYSTEM, 'EnterpriseAdministrator'],
  webhookSecretRoll: [...SYSTEM, 'EnterpriseAdministrator'],
  webhookResend: [...SYSTEM, 'EnterpriseAdministrator'],
}
