import { type ExpressionBuilder, type SqlBool, sql, type Transaction } from 'kysely'
import { tenantLanguageOf } from '../../db/presetRoles.ts'
import type { DB } from '../../db/schema.ts'
import type { EffectContext } from '../../engine/index.ts'
import { type Language, messageFor } from '../../http/errors.ts'
import { enqueue } from '../../jobs/outbox.ts'
import { dynamic, writeLetters } from './letters.ts'

/**
 * The business events a customer or operator hears of (issue #22), as data: which record's change makes one,
 * who hears it, where the letter leads and which channels are on until the user chooses
 * (schemas/letterSetting.yaml, /letterManage). The texts are locale keys `letter.<event>_title` and
 * `letter.<event>_content`, filled with the record's fields ({{no}}, {{remark}}), in each recipient's language.
 *
 * The engine's `notify` effect (./register.ts), named on a transition in YAML (`effects: [notify]`), finds
 * the event by the entity and the state the transition reached; hand-written flows call `notifyEvent`.
 * Either way the letters and the outbox rows are written in the caller's transaction: none if it rolls back.
 */

export type Channel = 'inApp' | 'mail' | 'weChat'
export const CHANNELS: readonly Channel[] = ['inApp', 'mail', 'weChat']

/**
 * Who hears an event: the record's customer (its company's users and whoever created it), the desk (the
 * tenant's provider-side users holding a permission), the provider-side users a site setting names by id (the
 * operating orders' review receivers, operatingOrderReviewReceiver), an enterprise's own users holding a
 * permission (the enterprise the record's `company` names: its administrators for a request to join it), or
 * only the user the record names as its `subscriber` (a shipment subscription's owner).
 */
export type Audience =
  | { kind: 'customer' }
  | { kind: 'operators'; permission: string }
  | { kind: 'setting'; setting: string }
  | { kind: 'enterprise'; permission: string }
  | { kind: 'subscriber' }

export interface LetterEvent {
  /** The entity and the state its transition reaches that make the event (the `notify` effect). */
  entity: string
  state: string
  to: Audience
  /** The record's field that names it in the text ({{no}}). */
  no: string
  /** The route the letter opens, given the record (its id is added as ?id=). */
  link: (record: Record<string, unknown>) => string
  /** The channels on for a user who has not chosen (in-app is on for every event). */
  defaults: Record<Channel, boolean>
}

const inAppOnly = { inApp: true, mail: false, weChat: false }
const withMail = { inApp: true, mail: true, weChat: false }
/** A subscription chooses its own channels: each is on until the user turns it off in /letterManage. */
const allChannels = { inApp: true, mail: true, weChat: true }
const customer: Audience = { kind: 'customer' }

/** The customer's detail screen of an order, by its transport mode and load type (screens/customerOrders.yaml). */
function customerOrderRoute(order: Record<string, unknown>): string {
  const mode = Number(order.transportMode)
  if (mode === 2) return '/airOrderDetail'
  if (mode === 3) return '/railwayOrderDetail'
  return order.containerLoadType === 'LCL' ? '/lclOrderDetail' : '/orderDetails'
}

function operatorOrderRoute(order: Record<string, unknown>): string {
  const mode = Number(order.transportMode)
  if (mode === 2) return '/airOrderDetailOperator'
  if (mode === 3) return '/railwayOrderDetailOperator'
  return order.containerLoadType === 'LCL' ? '/lclOrderDetailOperator' : '/orderDetailsOperator'
}

const withId = (route: string, record: Record<string, unknown>, key = 'id') => `${route}?id=${Number(record[key])}`

export const LETTER_EVENTS = {
  inquiryQuoted: {
    entity: 'quote',
    state: 'quoted',
    to: customer,
    no: 'quoteNo',
    link: (quote) => `/inquiryQuotes?inquiry=${Number(quote.inquiry)}`,
    defaults: inAppOnly,
  },
  quoteSent: {
    entity: 'quote',
    state: 'quoted',
    to: customer,
    no: 'quoteNo',
    link: (quote) => `/inquiryQuotes?inquiry=${Number(quote.inquiry)}`,
    defaults: withMail,
  },
  orderSubmitted: {
    entity: 'order',
    state: 'submitted',
    to: { kind: 'operators', permission: 'orderList' },
    no: 'orderNo',
    link: (order) => withId(operatorOrderRoute(order), order),
    defaults: inAppOnly,
  },
  orderAccepted: {
    entity: 'order',
    state: 'accepted',
    to: customer,
    no: 'orderNo',
    link: (order) => withId(customerOrderRoute(order), order),
    defaults: withMail,
  },
  orderRejected: {
    entity: 'order',
    state: 'rejected',
    to: customer,
    no: 'orderNo',
    link: (order) => withId(customerOrderRoute(order), order),
    defaults: withMail,
  },
  orderReturned: {
    entity: 'order',
    state: 'returned',
    to: customer,
    no: 'orderNo',
    link: (order) => withId(customerOrderRoute(order), order),
    defaults: inAppOnly,
  },
  spaCountered: {
    entity: 'spaApplication',
    state: 'reapply',
    to: customer,
    no: 'applicationNo',
    link: (spa) => withId('/spaDetails', spa),
    defaults: inAppOnly,
  },
  spaApproved: {
    entity: 'spaApplication',
    state: 'approved',
    to: customer,
    no: 'applicationNo',
    link: (spa) => withId('/spaDetails', spa),
    defaults: inAppOnly,
  },
  spaRejected: {
    entity: 'spaApplication',
    state: 'rejected',
    to: customer,
    no: 'applicationNo',
    link: (spa) => withId('/spaDetails', spa),
    defaults: inAppOnly,
  },
  enterpriseApproved: {
    entity: 'enterpriseApplication',
    state: 'approved',
    to: customer,
    no: 'name',
    link: () => '/myEnterprise',
    defaults: inAppOnly,
  },
  enterpriseRejected: {
    entity: 'enterpriseApplication',
    state: 'rejected',
    to: customer,
    no: 'name',
    link: () => '/enterpriseInfo',
    defaults: inAppOnly,
  },
  // A user asks to join an enterprise (#21's join request, server/domain/membership's joinRequestNotify on
  // create): those of the enterprise who review requests to join it (enterpriseInvite) hear it, and the letter
  // opens the request, where they approve or refuse it. Not the forwarder's operators: it is not theirs.
  joinRequest: {
    entity: 'joinRequest',
    state: 'pending',
    to: { kind: 'enterprise', permission: 'enterpriseInvite' },
    no: 'requester',
    link: (request) => withId('/joinRequestDetail', request),
    defaults: inAppOnly,
  },
  // An operating order awaits approval (issue #23): the review receivers of the site settings hear of it.
  operatingOrderAwaitingApproval: {
    entity: 'operatingOrder',
    state: 'pending',
    to: { kind: 'setting', setting: 'operatingOrderReviewReceiver' },
    no: 'jobNo',
    link: (job) => withId('/seaOperatingOrderDetail', job),
    defaults: inAppOnly,
  },
  // A tracking event of an order someone subscribed to (schemas/shipmentSubscription.yaml): told by
  // server/domain/tracking/subscriptions.ts, which every writer of tracking events goes through, never by a
  // transition. The record is the order, with the subscriber.
  shipmentEvent: {
    entity: 'trackingEvent',
    state: 'recorded',
    to: { kind: 'subscriber' },
    no: 'orderNo',
    link: (order) => withId(customerOrderRoute(order), order),
    defaults: allChannels,
  },
  // An operator confirms a customer's B/L instruction (issue #23, schemas/blInstruction.yaml): the customer hears
  // it, and the letter opens the instruction, read-only now, with its DCSA export and draft B/L.
  blConfirmed: {
    entity: 'blInstruction',
    state: 'confirmed',
    to: customer,
    no: 'blNo',
    link: (instruction) => withId('/cargoFeedSubmission/view', instruction),
    defaults: withMail,
  },
  // An operator confirms a bill (issue #24, schemas/bill.yaml): the customer hears the bill is issued, and the
  // letter opens it, where its PDF downloads.
  billIssued: {
    entity: 'bill',
    state: 'confirmed',
    to: customer,
    no: 'billingNo',
    link: (bill) => withId('/billDetail', bill),
    defaults: withMail,
  },
  // An operator's messages the customer has not read within the wait (issue #27, server/domain/im/unreadLetter.ts):
  // told by the outbox when the wait ends, never by a transition. The record is the conversation, with its
  // customer as the subscriber; the letter opens the chat tab on it.
  chatUnread: {
    entity: 'imConversation',
    state: 'unread',
    to: { kind: 'subscriber' },
    no: 'contextRef',
    link: (conversation) => `/im?conversation=${Number(conversation.id)}`,
    defaults: withMail,
  },
} satisfies Record<string, LetterEvent>

export type LetterEventName = keyof typeof LETTER_EVENTS
export const EVENT_NAMES = Object.keys(LETTER_EVENTS) as LetterEventName[]

interface Recipient {
  id: number
  language: Language
  email: string | null
  wechatOpenid: string | null
}

const LANGUAGES: readonly string[] = ['zh', 'en', 'ja', 'es']

async function tenantLanguage(trx: Transaction<DB>, tenantId: number): Promise<Language> {
  const tenant = await trx.selectFrom('tenant').select('settings').where('id', '=', tenantId).executeTakeFirst()
  return tenantLanguageOf(tenant?.settings)
}

/** The user ids a site setting holds (a list of ids, or one), integers only. */
async function settingUsers(trx: Transaction<DB>, tenantId: number, setting: string): Promise<number[]> {
  const tenant = await trx.selectFrom('tenant').select('settings').where('id', '=', tenantId).executeTakeFirst()
  const value = ((tenant?.settings ?? {}) as Record<string, unknown>)[setting]
  const list = Array.isArray(value) ? value : value === null || value === undefined ? [] : [value]
  return list.map(Number).filter((id) => Number.isSafeInteger(id) && id > 0)
}

/** The user's enabled roles grant the permission. */
const holding = (permission: string) => (eb: ExpressionBuilder<DB, 'app_user'>) =>
  eb.exists(
    eb
      .selectFrom('user_role')
      .innerJoin('role', (join) =>
        join.onRef('role.id', '=', 'user_role.role_id').onRef('role.tenant_id', '=', 'user_role.tenant_id'),
      )
      .select(sql`1`.as('one'))
      .whereRef('user_role.user_id', '=', 'app_user.id')
      .where('role.status', '=', 1)
      .where(sql<SqlBool>`role.permissions ? ${permission}`),
  )

/** The users who hear an event about a record: active ones of the tenant, never another company's. */
async function recipients(
  trx: Transaction<DB>,
  tenantId: number,
  audience: Audience,
  record: Record<string, unknown>,
  actor: number | undefined,
): Promise<Recipient[]> {
  let query = trx
    .selectFrom('app_user')
    .select(['app_user.id', 'app_user.language', 'app_user.email', 'app_user.wechat_openid'])
    .where('app_user.tenant_id', '=', tenantId)
    .where('app_user.state', '=', 1)
  if (audience.kind === 'subscriber') {
    const subscriber = Number(record.subscriber) || null
    if (!subscriber) return []
    query = query.where('app_user.id', '=', subscriber)
  } else if (audience.kind === 'customer') {
    const company = Number(record.customerCompany) || null
    const creator = Number(record.createdBy) || null
    if (!company && !creator) return []
    query = query.where((eb) =>
      eb.or([
        ...(company
          ? [eb.and([eb('app_user.company_id', '=', company), eb('app_user.company_user_type', '!=', 1)])]
          : []),
        ...(creator ? [eb('app_user.id', '=', creator)] : []),
      ]),
    )
  } else if (audience.kind === 'setting') {
    // Provider-side users the tenant's setting names by id; none when it names none.
    const ids = await settingUsers(trx, tenantId, audience.setting)
    if (!ids.length) return []
    query = query.where('app_user.company_user_type', '=', 1).where('app_user.id', 'in', ids)
  } else if (audience.kind === 'operators') {
    // The desk: provider-side users whose enabled roles grant the permission.
    query = query.where('app_user.company_user_type', '=', 1).where(holding(audience.permission))
  } else {
    // The enterprise's own: users bound to it now (the account they act for), on its side, holding the permission.
    const company = Number(record.company) || null
    if (!company) return []
    query = query
      .where('app_user.company_id', '=', company)
      .where('app_user.company_user_type', '!=', 1)
      .where(holding(audience.permission))
  }
  // Whoever made the change knows of it already.
  if (actor) query = query.where('app_user.id', '!=', actor)
  const rows = await query.orderBy('app_user.id').execute()
  const fallback = await tenantLanguage(trx, tenantId)
  return rows.map((row) => ({
    id: row.id,
    language: row.language && LANGUAGES.includes(row.language) ? (row.language as Language) : fallback,
    email: row.email,
    wechatOpenid: row.wechat_openid,
  }))
}

/** Each recipient's channels for an event: their row of letter_setting, else the event's defaults. */
export async function channelsOf(
  trx: Transaction<DB>,
  tenantId: number,
  users: number[],
  event: LetterEventName,
): Promise<Map<number, Record<Channel, boolean>>> {
  const chosen = new Map<number, Record<Channel, boolean>>()
  const defaults = LETTER_EVENTS[event].defaults
  for (const user of users) chosen.set(user, { ...defaults })
  if (!users.length) return chosen
  const rows = (await dynamic(trx)
    .selectFrom('letter_setting')
    .select(['recipient', 'in_app', 'mail', 'we_chat'])
    .where(sql<SqlBool>`tenant_id = ${tenantId}`)
    .where(sql<SqlBool>`event = ${event}`)
    .where(sql<SqlBool>`recipient = any(${users})`)
    .execute()) as { recipient: number; in_app: boolean | null; mail: boolean | null; we_chat: boolean | null }[]
  for (const row of rows)
    chosen.set(row.recipient, {
      inApp: row.in_app ?? defaults.inApp,
      mail: row.mail ?? defaults.mail,
      weChat: row.we_chat ?? defaults.weChat,
    })
  return chosen
}

export interface EventNotice {
  tenantId: number
  /** The record the event is about, as the API answers it (its id, its number, its customer). */
  record: Record<string, unknown>
  /** The user who caused it: they get no letter of their own change. */
  actor?: number
  /** More values for the texts ({{remark}}), or, when they must be in the recipient's language, a function of it. */
  params?: Record<string, unknown> | ((language: Language) => Record<string, unknown>)
  /** The channels the cause itself allows (a subscription's choice): a channel off here is off whatever the settings. */
  channels?: Readonly<Record<Channel, boolean>>
  /** The locale keys' stem when it is not the event's own (`letter.<text>_title`): a correction's wording. */
  text?: string
}

/** What one event wrote: the letters' recipients and the outbox rows. */
export interface NoticeResult {
  letters: number[]
  outbox: number[]
}

/**
 * Tells everyone who must hear of an event, in the caller's transaction: an in-app letter to each recipient
 * who keeps the in-app channel, and a mail in the outbox (server/jobs/channels.ts, a rendered mail the
 * worker wraps in the tenant's branding) for each who chose mail and has an address.
 */
export async function notifyEvent(
  trx: Transaction<DB>,
  event: LetterEventName,
  notice: EventNotice,
): Promise<NoticeResult> {
  const spec: LetterEvent = LETTER_EVENTS[event]
  const { tenantId, record } = notice
  const users = await recipients(trx, tenantId, spec.to, record, notice.actor)
  const channels = await channelsOf(
    trx,
    tenantId,
    users.map((user) => user.id),
    event,
  )
  const link = spec.link(record)
  const stem = notice.text ?? event
  const letters = []
  const outbox: number[] = []
  for (const user of users) {
    const chosen = channels.get(user.id) ?? spec.defaults
    const allowed = notice.channels
    const on = allowed
      ? {
          inApp: chosen.inApp && allowed.inApp,
          mail: chosen.mail && allowed.mail,
          weChat: chosen.weChat && allowed.weChat,
        }
      : chosen
    const extra = typeof notice.params === 'function' ? notice.params(user.language) : notice.params
    const params = { no: String(record[spec.no] ?? ''), ...extra }
    const title = messageFor(`letter.${stem}_title`, user.language, params)
    const content = messageFor(`letter.${stem}_content`, user.language, params)
    if (on.inApp) letters.push({ tenantId, recipient: user.id, title, content, event, link })
    if (on.mail && user.email)
      outbox.push(
        await enqueue(trx, tenantId, 'mail', {
          to: user.email,
          subject: title,
          // The mail's renderer writes the link under the text on the tenant's host (server/jobs/mail/templates.ts).
          text: content.replace(/<br\s*\/?>/gi, '\n'),
          language: user.language,
          event,
          recipient: user.id,
          link,
        }),
      )
    // WeChat: a template message to a user bound to the tenant's official account (app_user.wechat_openid,
    // migration 0021); the choice of an unbound user is kept, with no one to address yet.
    if (on.weChat && user.wechatOpenid)
      outbox.push(
        await enqueue(trx, tenantId, 'wechat', {
          to: user.wechatOpenid,
          template: 'orderStatus',
          params: { first: title, keyword1: params.no, remark: content.replace(/<br\s*\/?>/gi, ' ') },
          url: link,
        }),
      )
  }
  await writeLetters(trx, letters)
  return { letters: letters.map((letter) => letter.recipient), outbox }
}

/** The event a transition to a state of an entity makes, if any (the quote's two are told apart in ./register.ts). */
export function eventOf(entity: string, state: string): LetterEventName[] {
  return EVENT_NAMES.filter((name) => LETTER_EVENTS[name].entity === entity && LETTER_EVENTS[name].state === state)
}

/**
 * Tells of the event a record's new state makes (the `notify` effect, and hand-written transitions such as
 * the special-rate review that fire a YAML transition naming `notify`). A quote sent on an inquiry still
 * waiting for its first answer is the inquiry quoted; any later one is a quote sent: so run it before the
 * effects that move other records.
 */
export async function notifyTransition(
  trx: Transaction<DB>,
  entity: string,
  record: Record<string, unknown>,
  call: { tenantId: number; userId: number },
): Promise<NoticeResult> {
  let events = eventOf(entity, String(record.state ?? ''))
  if (entity === 'quote' && events.length > 1) {
    const { rows } = await sql<{ state: string }>`
      select state from inquiry where tenant_id = ${call.tenantId} and id = ${Number(record.inquiry)}`.execute(trx)
    events = [rows[0]?.state === 'submitted' ? 'inquiryQuoted' : 'quoteSent']
  }
  const result: NoticeResult = { letters: [], outbox: [] }
  for (const event of events) {
    const one = await notifyEvent(trx, event, {
      tenantId: call.tenantId,
      record,
      actor: call.userId,
      params: { remark: record.remark ?? '' },
    })
    result.letters.push(...one.letters)
    result.outbox.push(...one.outbox)
  }
  return result
}

/** The engine's `notify` effect, named on a transition in YAML (`effects: [notify]`). */
export async function notify(context: EffectContext): Promise<void> {
  // The state is read from the entity's own state field (an operating order's is approveState).
  const field = context.entity.states?.field ?? 'state'
  await notifyTransition(
    context.trx,
    context.entity.entity,
    { ...context.after, state: context.after[field], remark: context.remark ?? '' },
    {
      tenantId: context.call.tenantId,
      userId: context.call.session.userId,
    },
  )
}
