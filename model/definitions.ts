import type { ChartDef } from './chart.ts'
/** The configuration as written in YAML (after meta-schema validation) and the manifest resolved from it. */

export type FieldType =
  | 'string'
  | 'textBlock'
  | 'integer'
  | 'number'
  | 'money'
  | 'boolean'
  | 'date'
  | 'datetime'
  | 'enum'
  | 'ref'
  | 'file'
  | 'richText'
  | 'array'
  /** An answer's nested object, shaped like the entity named by `entity:` (a stored: false entity). */
  | 'object'
  /** An answer's list of objects, each shaped like the entity named by `entity:`. */
  | 'list'
  /** An answer's object whose keys are data (a record's labels by field, a snapshot): values of type `of:`. */
  | 'map'
  /**
   * A list of permission names of screens/access.yaml (a role's grants), drawn as the workbench menu's tree
   * (model/permissionTree.ts); its schema is an enum of the catalogue's names.
   */
  | 'permissionTree'

export interface FieldDef {
  type: FieldType
  label?: string
  required?: boolean
  /** A boolean that must be true (an agreement ticked): `const: true` in the JSON Schema. */
  ticked?: true
  readOnly?: boolean
  /** A numbering kind the engine fills on create (registered by a domain module at start, server/engine/registry.ts). */
  numbering?: 'orderNo' | 'inquiryNo' | 'quoteNo' | 'jobNo'
  minLength?: number
  maxLength?: number
  pattern?: string
  format?: string
  message?: string
  /** The message when a required field is left empty, instead of validation.required. */
  requiredMessage?: string
  /** A SPEC §8 code a failure of this field answers instead of `validation` (an empty review remark: 310010). */
  code?: string
  minimum?: number
  maximum?: number
  exclusiveMinimum?: number
  decimals?: number
  values?: { value: string | number; label: string }[]
  ref?: string
  multiple?: boolean
  lineLength?: number
  maxLines?: number
  accept?: string[]
  maxSizeKb?: number
  maxFiles?: number
  /**
   * A file field of images: the exact pixel size each must have (a site's logo 105×45), read from the file's
   * bytes on both sides (rules/imageSize.ts); an icon's every image must have it.
   */
  dimensions?: { width: number; height: number }
  /**
   * Who may download a file field's uploads besides the uploader (SPEC §6: configurable): `company` the
   * uploader's enterprise and the forwarder's operators (the default), `operators` the operators only,
   * `public` anyone of the tenant's users.
   */
  visibility?: 'company' | 'operators' | 'public'
  minItems?: number
  maxItems?: number
  items?: Record<string, FieldDef>
  /** `object`, `list` and `map` fields: the entity each object is shaped like. */
  entity?: string
  /** `map` fields: the type of every value (`json`: any JSON value); or `entity:` for objects of an entity. */
  of?: 'string' | 'integer' | 'number' | 'boolean' | 'json'
  /** `object` fields shaped by a document the model owns instead of an entity: `overlay` (model/overlay.schema.json). */
  schema?: 'overlay'
  /**
   * In an answer: the value may be null. An input takes null only for a field a body inherits (`extends:`),
   * where null clears the stored value.
   */
  nullable?: boolean
  default?: unknown
  widget?: string
  /**
   * A `permissionTree` field: the record's field whose value (companyUserType: 1 provider, 2 enterprise) limits
   * the tree, and the names the field may hold, to that side's permissions and those of either side.
   */
  sideField?: string
  /**
   * A ref field's look-up when it is not the referenced entity's own (model/registries.ts LOOKUPS): the
   * enterprise-side roles for an enterprise account's role, the provider's salesmen for an enterprise's.
   */
  lookup?: string
  /**
   * What picking a value from the field's look-up fills in: `{ nameEn: nameEn, declaredPrice: price }` — a field
   * beside this one (the same row of an array, or the same record) ← a field of the looked-up entity, which the
   * look-up's options carry (referenceOptions `fields`). The user may still change what was filled.
   */
  fills?: Record<string, string>
  /**
   * A ref field's look-up narrowed by other fields of the record: `{ carrier: carrier }` asks the look-up with
   * `?carrier=` set to the record's carrier (the booking agents serving it). Keys are parameters of
   * schemas/referenceQuery.yaml, values fields of the same entity.
   */
  lookupFilter?: Record<string, string>
  /**
   * A read-only value worked out from the record (a field of the record or of an array's row) by a derivation
   * of rules/derived.ts: the form shows it as the user types, the server writes it whatever the caller sent.
   */
  derive?: string
  /** When the field is shown and editable (rules/uiRules.ts); the server ignores it on write otherwise. */
  rules?: UiRule[]
}

/** A UI rule's condition: plain data over the record's fields, never code (rules/uiRules.ts). */
export type UiCondition =
  | { field: string; filled: boolean }
  | { field: string; equals: string | number | boolean }
  | { field: string; in: (string | number | boolean)[] }
  /** The tenant's boolean site setting is on (schemas/siteSettingsView.yaml): a feature flag of SPEC §3. */
  | { setting: string }
  | { all: UiCondition[] }
  | { any: UiCondition[] }
  | { not: UiCondition }

/** A UI rule on a field or a form section, as JSON Forms' `rule: { effect, condition }`. */
export interface UiRule {
  effect: 'show' | 'hide' | 'enable' | 'disable'
  when: UiCondition
}

export type RuleDef =
  | { kind: 'compare'; field: string; op: 'gt' | 'gte' | 'lt' | 'lte' | 'eq' | 'ne'; other: string; message: string }
  | { kind: 'atLeastOne'; fields: string[]; message: string }
  | { kind: 'sumEquals'; field: string; of: string; item: string; message: string }
  | { kind: 'uniqueItems'; field: string; by: string[]; message: string }
  /** Each row of `field` whose `item` has a value names the `key` of a row of the array `of`. */
  | { kind: 'itemsIn'; field: string; item: string; of: string; key: string; message: string }
  | {
      kind: 'requiredWhen'
      field: string
      when: { field: string; equals?: unknown; present?: true; absent?: true }
      message: string
    }
  | { kind: 'startsWith'; field: string; other: string; message: string }
  | { kind: 'currencyDecimals'; field: string; item?: string; currency: string; message: string }
  | {
      kind: 'excludedWhen'
      field: string
      values: (string | number)[]
      when: { field: string; includesAny: (string | number)[] }
      message: string
    }

export interface TransitionDef {
  from: string[]
  to: string
  permission: string
  label: string
  confirm?: string
  /** Server effects run after the state changed, in the same transaction (registered by domain modules at start, server/engine/registry.ts). */
  effects?: EffectName[]
  /**
   * The entity (stored: false) of what the transition asks for, a price or a reason: its fields the record has
   * too are written with the state, its `remark` goes to the history.
   */
  input?: string
  /** Fields the transition writes with the state, each a fixed value (a quote's review outcome), read-only ones too. */
  sets?: Record<string, string | number | boolean | null>
  /** Fields the record must have filled for the transition (a draft saved with gaps is submitted whole). */
  requires?: string[]
  /**
   * A record of another entity the transition creates through the engine, in its transaction (an order's job
   * file on confirmation): the target's checks, derivations, numbering, audit and effects all run.
   */
  creates?: CreatesDef
  /**
   * Fired by the engine, never by a call: an update (by a caller holding `permission`) that changes a record in a
   * `from` state moves it to `to` with the update, and runs `effects` (an approved job file edited is pending again).
   */
  onUpdate?: true
  /** state → the SPEC §8 code answered from it instead of 320001 (a confirmed bill confirmed again: 360003). */
  refusedIn?: Record<string, string>
}

/**
 * What a transition's `creates:` writes: `fields` maps each field of the new record to a field of the source
 * record (`etd: etd`), a fixed value (`{ value: 0 }`) or a source field's value looked up (`{ from: transportMode,
 * map: { '1': seaExport } }`). `link` is the target's ref field to the source, filled with its id: a source that
 * already has a record there gets no second one. `writeBack` copies fields of the new record to the source's
 * (`jobNo: jobNo`, source field: target field).
 */
export interface CreatesDef {
  entity: string
  link: string
  fields: Record<string, CreatesValue>
  writeBack?: Record<string, string>
  /** A new record at every firing (a tracking milestone of each move), never written back. */
  repeat?: true
}

export type CreatesValue =
  | string
  | { value: string | number | boolean }
  | { from: string; map: Record<string, string | number> }

/** The effects an entity may name (generator/meta/entity.schema.json `$defs.effect`). */
export type EffectName =
  | 'autoQuote'
  | 'inquiryQuoted'
  | 'inquiryWithdrawn'
  | 'quoteBooked'
  | 'quoteReviewGate'
  | 'quoteReviewSubmit'
  | 'quoteReviewer'
  | 'createShipment'
  | 'enterpriseNameFree'
  | 'registerEnterprise'
  | 'certificationFollows'
  | 'notify'
  | 'jobUsageHistory'
  | 'billPaid'

/** The derivations an entity may name (meta-schema `$defs.derivation`). */
export type DerivationName =
  | 'quoteTotals'
  | 'orderSource'
  | 'operatingOrderFromOrder'
  | 'billFromOrder'
  | 'paymentAgainstBill'
  | 'invoiceFromBill'

/** The colours a state may be drawn in (meta-schema `states.values.*.color`): badge colours of the UI kit. */
export type StateColor = 'informative' | 'success' | 'warning' | 'danger' | 'subtle' | 'brand'

export interface StatesDef {
  field: string
  initial: string
  /** The states a record may be deleted in; absent: any. */
  deletableIn?: string[]
  /** The states a record may be updated in; absent: any (320001 otherwise). */
  editableIn?: string[]
  values: Record<string, { label: string; color?: StateColor }>
  transitions: Record<string, TransitionDef>
}

/**
 * When a record may no longer be modified (issue #23, SPEC §9's ETD warning): with the boolean site setting
 * `enabled` on, once now is later than the `date` field less `hours` (a number site setting) or than the
 * `until` field (the last modification allowed). With `lineOfBusiness`, only records whose field's value is
 * in the site setting's list are limited (an empty or missing list limits every one). One pure function
 * (rules/editDeadline.ts) decides for the form and for the engine's update, which refuses with 320003.
 */
export interface EditDeadlineDef {
  date: string
  until?: string
  enabled: string
  hours: string
  lineOfBusiness?: { field: string; setting: string }
  message: string
}

export interface ExtendsDef {
  entity: string
  fields?: string[]
  /** A body's sub-table rows are partial too, their columns optional (a form's prefill: rows half known). */
  partialRows?: boolean
}

export interface EntityDef {
  entity: string
  label: string
  description?: string
  scope?: 'tenant' | 'global'
  reference?: boolean
  stored?: boolean
  /**
   * A body (stored: false) that takes the fields of another entity besides its own: all of them, or those
   * `fields:` names. Each one taken is optional and takes null (clears it); its read-only fields, and a stored
   * entity's system fields, labels and history, may be sent and are ignored, as the engine ignores them on
   * write (docs/CONFIGURATION.md "Bodies that extend an entity"). Resolved, `fields` names every one taken.
   */
  extends?: ExtendsDef
  display?: string
  storage?: { table?: string; indexes?: { fields: string[]; unique?: boolean; method?: 'btree' | 'gin' }[] }
  dataScope?: { owner?: string; company?: string }
  effects?: { beforeWrite?: DerivationName[]; afterCreate?: EffectName[]; afterUpdate?: EffectName[] }
  fields: Record<string, FieldDef>
  rules?: RuleDef[]
  states?: StatesDef
  editDeadline?: EditDeadlineDef
  examples?: {
    valid?: Record<string, unknown>[]
    invalid?: { data: Record<string, unknown>; error: { field: string; message: string } }[]
  }
}

export type PermissionList = string | string[]

export interface EndpointDef {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  path: string
  permission?: PermissionList
  public?: boolean
  /** Engine endpoints: a fixed condition (field → allowed values); rows outside it are not found. */
  filter?: Record<string, (string | number | boolean)[]>
  /**
   * An import binding: the entity (stored: false) of what the import asks besides the file — its form in the
   * dialog, sent as the query string and checked by its validator; each of its fields is set on every row (the
   * customer an operator imports bookings for, the data scope's company).
   */
  input?: string
  /**
   * An import binding whose array fields come on sheets of their own (an FBA order's boxes and products): each
   * `items` field on the sheet named by the field (its name or its label in any language), one row per item,
   * and a column `key` (a field of the entity, on the first sheet) naming the record the item belongs to.
   */
  sheets?: ImportSheets
}

/** An import's array fields as sheets of their own, tied to their record by the key field. */
export interface ImportSheets {
  key: string
  items: string[]
}

export interface ActionDef {
  name: string
  label: string
  permission?: PermissionList
  confirm?: string
  transition?: string
  route?: string
  /**
   * With `route`: the query parameter that carries the record's id (default `id`). With `call` in a detail's
   * toolbar: the body field that carries it (default `id`, with the record's version).
   */
  param?: string
  /** With `route`: the values of its path parameters (`{ mode: edit }` for /cargoFeedSubmission/:mode). */
  routeParams?: Record<string, string>
  endpoint?: 'create' | 'update' | 'delete' | 'export' | 'import'
  /** A row action: the hand-written POST endpoint it calls with the row's { id, version }, `values` and `input`. */
  call?: string
  /** With `call`: the request entity (stored: false) asked for in a dialog first; with a list's `download`, its query. */
  input?: string
  /** With `input`: the fields of it the dialog asks for (default all but id and version). */
  asks?: string[]
  /** With `call`: fixed values sent with the row's id. */
  values?: Record<string, string | number | boolean>
  /** A row action shows only for the rows this condition holds for (rules/uiRules.ts conditions). */
  when?: UiCondition
  /** With `call`: the row's field holding the in-app address the portal opens after the call (a letter's link). */
  opens?: string
  /**
   * A file: the hand-written GET endpoint (`response: binary`) downloaded with the record's id — in a list's
   * toolbar, with the list's search values its query takes and what `input:` asked.
   */
  download?: string
  /** The action changes whom the user acts for (a work account switched): the portal reads the session again. */
  reloadsSession?: boolean
  /** With call: the answer's text field shown once in a dialog to copy (an API key's secret, issue #29). */
  reveals?: string
  /** With reveals: `address` shows an in-app path as the full address on the tenant's host (a tracking link). */
  revealAs?: 'text' | 'address'
  /** A detail's toolbar: opens the customer's chat about the record (its field `contextRef` is the reference). */
  chat?: { contextType: 'order' | 'quote' | 'specialRate'; contextRef: string }
}

export interface SearchDef {
  field: string
  op: 'eq' | 'like' | 'in' | 'between' | 'dateRange' | 'gte' | 'lte'
  params?: string[]
  appendTime?: boolean
  /** dateRange: at most this many days, both ends included; one end alone is closed this many days from it. */
  maxDays?: number
  default?: unknown
  label?: string
  /** The filter is dropped while this holds over the searchParams (SPEC §4's application list, fbaStatus). */
  clearWhen?: UiCondition
}

export interface ColumnDef {
  field: string
  width?: number
  format?: string
  /** The route a click opens; a list names alternatives, the first the user may open (a list both sides share). */
  link?: string | string[]
  /** With `link`: the values of the opened route's path parameters. */
  routeParams?: Record<string, string>
  /** The route by a value of the row (an order's load type → its mode's detail screen); else `link`. */
  linkBy?: { field: string; routes: Record<string, string | string[]> }
  /** With `link`: the query it carries, parameter → the row's field (default { id: id }). */
  linkQuery?: Record<string, string>
  sortable?: boolean
  label?: string
  /** A money column: the row's field with its currency code, for the .xlsx export's number format. */
  currency?: string
}

/** A list's tabs (SPEC §4 order tabs): the state field and its values, in the order shown. */
export interface ListTabs {
  field: string
  values: string[]
}

export type EndpointKind = 'list' | 'detail' | 'create' | 'update' | 'delete' | 'export' | 'import'

export interface ScreenDef {
  name: string
  route: string
  title: string
  access: 'public' | 'open' | 'permission'
  permission?: PermissionList
  layout?: 'site' | 'main' | 'workbench' | 'blank' | 'mobile'
  hidden?: boolean
  /** false: no footer on this page (SPEC §2: /resetPassword). */
  footer?: false
  status: 'built' | 'planned'
  redirect?: string
  kind?: 'list' | 'detail' | 'form' | 'chart' | 'custom'
  component?: string
  /** A chart screen (kind: chart, issue #28): what it counts and how it draws it (model/chart.ts). */
  chart?: ChartDef
  entity?: string
  /** A hand-written screen's forms: the request entities its own manifest part carries. */
  forms?: string[]
  menu?: { order?: number; parent?: string }
  endpoints?: Partial<Record<EndpointKind, EndpointDef>>
  search?: SearchDef[]
  columns?: ColumnDef[]
  /** A list's tabs over its state machine: an 'all' tab, then one per value, each with its count. */
  tabs?: ListTabs
  paging?: { pageSize?: number; pageSizes?: number[] }
  actions?: { toolbar?: ActionDef[]; row?: ActionDef[] }
  form?: {
    sections: { title: string; columns?: number; fields: string[]; rules?: UiRule[] }[]
    /** A form screen's fields a new record takes from the query parameters of the same name (an action's param). */
    prefill?: string[]
    /**
     * A hand-written GET endpoint the prefilled fields are sent to as its query; its answer (the form's entity, or
     * a body extending it) gives the new record's other starting values (the B/L instruction from its order).
     */
    prefillCall?: string
  }
  /**
   * A detail screen's documents (issue #23, an order's files by type): `list` and `upload` name hand-written
   * endpoints that take the record's id as `param` (a GET answering a list of files, a multipart POST), and
   * `form` the request entity of the upload's other query fields (the type), whose enum the panel offers.
   */
  attachments?: { title: string; list: string; upload: string; param: string; form: string }
  /**
   * A screen's notice: a form's site setting `text` shown while the boolean setting `when` is on; or, on a list or
   * form, the locale text `message` shown while the boolean field `when` of the GET endpoint `call`'s answer is
   * true (its fields the message's parameters).
   */
  notice?: SettingNotice | ServerNotice
  /** A form whose save changes whom the user acts for (an invite code confirmed): the session is read again. */
  reloadsSession?: boolean
  /** A form whose save changes the tenant's site settings: the portal reads them again (colour, logo, menus). */
  reloadsSiteSettings?: boolean
}

/** A notice read from two site settings (SPEC §3's new-contact notice). */
export interface SettingNotice {
  text: string
  when: string
}

/** A notice read from a hand-written GET endpoint's answer: shown while its boolean field `when` is true. */
export interface ServerNotice {
  call: string
  when: string
  message: string
}

/** A call served by hand-written server code, declared here so the manifest, client and OpenAPI know it. */
export interface CustomEndpointDef {
  name: string
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  path: string
  summary: string
  public?: boolean
  /** Answers a signed-in session only, never an API key (issue #29): a password change, the keys' own management. */
  sessionOnly?: boolean
  /**
   * With `response: document`: its success status when the standard names another than the method's (201 to a POST,
   * 204 to a DELETE, 200 otherwise) — DCSA's 204 to PUT …/secret.
   */
  status?: 200 | 201 | 204
  permission?: PermissionList
  /**
   * The code a signed-in caller without `permission` is answered, where the SPEC names its own (orderAdd's 360002,
   * "user has no booking permission"); 220000 otherwise. The portal reads `permission` to offer the call.
   */
  refusal?: string
  body?: string
  /**
   * The SPEC's method and path for a call whose work another endpoint does (`myOrders.list`, `fileInfo`): it
   * takes that endpoint's input, answers its content under its access, and is served by the same code.
   */
  servedAs?: string
  /** Fires one transition of an entity's state machine (`{ entity: order, name: withdraw }`); no handler. */
  transition?: { entity: string; name: string }
  /**
   * What the answer's content is (docs/CONFIGURATION.md "Hand-written endpoints"), any form of ResponseDef:
   * read it with responseOf. Typed as the entity-name form because validateSources and its reference check
   * read it so: the pipeline hands them a copy where it is one (generator/checks/endpointResponses.ts).
   */
  response?: string
}

/** A custom endpoint's response as written in the YAML. */
export const responseOf = (endpoint: CustomEndpointDef): ResponseDef | undefined =>
  (endpoint as { response?: ResponseDef }).response

/**
 * An endpoint's answer as the YAML writes it: an entity's name; `{ entity, nullable: true }` for an entity or
 * null; `{ list: entity }` for an array of them; `{ page: entity }` for a page of them
 * (`{ list, total, pageNum, pageSize }`); `binary` for a file the call sends itself (PDF, image, CSV);
 * `document` for a published standard's own JSON the call sends itself, with no envelope (DCSA's bare arrays
 * and objects, any method: 201 to a POST, 204 to a DELETE, 200 otherwise);
 * `none` for no content (null); `count` for a number of records (an integer, 0 or more: a header badge's).
 */
export type ResponseDef = string | { entity: string; nullable?: boolean } | { list: string } | { page: string }

/** The answer's content, resolved: what the typed client and the handler types are built from. */
export type ContentShape =
  | { kind: 'entity'; entity: string; nullable: boolean }
  | { kind: 'list'; entity: string }
  | { kind: 'page'; entity: string }
  | { kind: 'binary' }
  | { kind: 'document' }
  | { kind: 'none' }
  | { kind: 'count' }

/** `binary`, `document`, `none` and `count` are words of the response vocabulary, never entity names. */
export const RESPONSE_WORDS = ['binary', 'document', 'none', 'count'] as const

export function contentShape(response: ResponseDef | undefined): ContentShape | undefined {
  if (response === undefined) return undefined
  if (response === 'binary') return { kind: 'binary' }
  if (response === 'document') return { kind: 'document' }
  if (response === 'none') return { kind: 'none' }
  if (response === 'count') return { kind: 'count' }
  if (typeof response === 'string') return { kind: 'entity', entity: response, nullable: false }
  if ('list' in response) return { kind: 'list', entity: response.list }
  if ('page' in response) return { kind: 'page', entity: response.page }
  return { kind: 'entity', entity: response.entity, nullable: response.nullable ?? false }
}

export interface AreaDef {
  area: string
  label: string
  menu?: { place?: 'top' | 'workbench' | 'none'; order?: number; icon?: string }
  screens: ScreenDef[]
  endpoints?: CustomEndpointDef[]
}

export interface AccessDef {
  permissions: Record<string, { label: string; side?: 'provider' | 'enterprise' | 'any' }>
  roles: Record<
    string,
    { label: string; companyUserType: 1 | 2 | 3; dataScope: 'all' | 'self'; permissions: '*' | string[] }
  >
}
