import { type Kysely, sql } from 'kysely'
import { type NewLetter, READ, UNREAD, writeLetters } from '../../domain/letters/letters.ts'
import { syncEntityTables } from '../../engine/storage.ts'
import type { Manifest } from '../../manifest.ts'
import { withTenant } from '../../tenancy/scope.ts'
import type { DB } from '../schema.ts'

/**
 * In-app letters for every demo account (the bell in the top bar, /letterList): what the forwarder's
 * system would have told each of them lately, about the tenant's real seeded orders. The demo tenant's
 * users read Chinese, acme's English. Deterministic: fixed dates, orders picked by state and number.
 */

type Language = 'zh' | 'en'

/** The facts a letter names, from one of the tenant's orders. */
interface OrderFacts {
  orderNo: string
  jobNo: string
  hbl: string
  pol: string
  pod: string
  etd: string
  vessel: string
  voyage: string
}

type Text = (order: OrderFacts) => string

interface LetterTemplate {
  /** Which order the letter is about, by state (the first one in order-number order). */
  orderState?: string
  title: Record<Language, Text>
  /** Lines separated by <br>. */
  content: Record<Language, Text>
}

const TEMPLATES = {
  orderSubmitted: {
    orderState: 'submitted',
    title: { zh: (o) => `新订单待受理：${o.orderNo}`, en: (o) => `New booking to accept: ${o.orderNo}` },
    content: {
      zh: (o) =>
        `客户提交了订单 ${o.orderNo}（${o.pol} → ${o.pod}，预计开船 ${o.etd}）。<br>请在订单列表中受理或退回。`,
      en: (o) =>
        `The customer submitted order ${o.orderNo} (${o.pol} → ${o.pod}, ETD ${o.etd}).<br>Accept or return it from the order list.`,
    },
  },
  spaReview: {
    orderState: 'bargaining',
    title: { zh: () => '特价申请待审核', en: () => 'Special rate application to review' },
    content: {
      zh: (o) => `客户申请 ${o.pol} → ${o.pod} 航线 40HQ 特价，目标价 USD 2,350。<br>请在特价审核中处理。`,
      en: (o) =>
        `The customer applied for a special 40HQ rate on ${o.pol} → ${o.pod}, target USD 2,350.<br>Review it under special rate review.`,
    },
  },
  blSubmitted: {
    orderState: 'booked',
    title: { zh: (o) => `补料已提交：${o.orderNo}`, en: (o) => `B/L instructions received: ${o.orderNo}` },
    content: {
      zh: (o) => `订单 ${o.orderNo} 的提单补料已由客户提交。<br>请核对后发送船公司。`,
      en: (o) =>
        `The customer submitted the B/L instructions of order ${o.orderNo}.<br>Check them and send them to the carrier.`,
    },
  },
  maintenance: {
    title: { zh: () => '系统维护通知', en: () => 'Scheduled maintenance' },
    content: {
      zh: () => '平台将于 2026-03-08 02:00–04:00（北京时间）例行维护。<br>维护期间工作台可能短暂无法访问。',
      en: () =>
        'The portal is down for routine maintenance on 2026-03-08, 02:00–04:00 (UTC+8).<br>The workbench may be unavailable for a few minutes.',
    },
  },
  orderAccepted: {
    orderState: 'accepted',
    title: { zh: (o) => `订单 ${o.orderNo} 已受理`, en: (o) => `Order ${o.orderNo} accepted` },
    content: {
      zh: (o) =>
        `您的订单 ${o.orderNo}（${o.pol} → ${o.pod}）已受理，工作号 ${o.jobNo}。<br>我们将尽快为您向船公司订舱。`,
      en: (o) =>
        `Your order ${o.orderNo} (${o.pol} → ${o.pod}) has been accepted, job no. ${o.jobNo}.<br>We are booking it with the carrier.`,
    },
  },
  booked: {
    orderState: 'booked',
    title: { zh: (o) => `订单 ${o.orderNo} 订舱成功`, en: (o) => `Order ${o.orderNo} booked` },
    content: {
      zh: (o) => `船名航次 ${o.vessel} / ${o.voyage}，预计开船 ${o.etd}。<br>请于截关前完成提单补料。`,
      en: (o) =>
        `Vessel and voyage ${o.vessel} / ${o.voyage}, ETD ${o.etd}.<br>Please send the B/L instructions before the cut-off.`,
    },
  },
  blDraft: {
    orderState: 'booked',
    title: { zh: (o) => `提单草稿已出：${o.orderNo}`, en: (o) => `B/L draft ready: ${o.orderNo}` },
    content: {
      zh: (o) => `订单 ${o.orderNo} 的提单草稿（HBL ${o.hbl}）已生成。<br>请在 2 个工作日内核对并确认。`,
      en: (o) =>
        `The B/L draft of order ${o.orderNo} (HBL ${o.hbl}) is ready.<br>Please check and confirm it within 2 working days.`,
    },
  },
  spaApproved: {
    orderState: 'bargaining',
    title: { zh: () => '特价申请已通过', en: () => 'Special rate approved' },
    content: {
      zh: (o) => `您申请的 ${o.pol} → ${o.pod} 航线特价已审核通过，有效期至 2026-03-31。<br>请在有效期内下单。`,
      en: (o) =>
        `Your special rate for ${o.pol} → ${o.pod} is approved and valid until 2026-03-31.<br>Book before it expires.`,
    },
  },
  returned: {
    orderState: 'returned',
    title: { zh: (o) => `订单 ${o.orderNo} 被退回`, en: (o) => `Order ${o.orderNo} returned` },
    content: {
      zh: (o) => `操作员退回了订单 ${o.orderNo}。<br>请补充货物品名及 HS 编码后重新提交。`,
      en: (o) =>
        `The operator returned order ${o.orderNo}.<br>Add the goods description and HS code, then submit it again.`,
    },
  },
  invoice: {
    title: { zh: () => '2 月账单已生成', en: () => 'February statement ready' },
    content: {
      zh: () => '2026 年 2 月账单已生成，共 3 票，合计 USD 12,480.00。<br>请在账单管理中查看并确认。',
      en: () =>
        'Your statement for February 2026 is ready: 3 shipments, USD 12,480.00 in total.<br>Review and confirm it under billing.',
    },
  },
  welcome: {
    title: { zh: () => '欢迎使用在线订舱', en: () => 'Welcome to online booking' },
    content: {
      zh: () => '您可以在运价查询中比较航线价格，并直接在线下单。<br>如需帮助，请联系在线客服。',
      en: () => 'Compare lane rates under rate inquiry and book online.<br>Our customer service is happy to help.',
    },
  },
  certification: {
    title: { zh: () => '完成企业认证', en: () => 'Certify your company' },
    content: {
      zh: () => '完成企业认证后，即可以企业身份订舱并查看企业账单。',
      en: () => 'Once your company is certified you can book on its behalf and see its statements.',
    },
  },
} satisfies Record<string, LetterTemplate>

type TemplateName = keyof typeof TEMPLATES

/** Each account's letters, oldest first; a tenant missing from here gets none. */
const PLAN: Record<string, { language: Language; users: Record<string, TemplateName[]> }> = {
  demo: {
    language: 'zh',
    users: {
      platform: ['maintenance', 'orderSubmitted'],
      opadmin: ['maintenance', 'blSubmitted', 'spaReview', 'orderSubmitted'],
      opcs: ['blSubmitted', 'orderSubmitted'],
      // Six unread: more than the bell's page of five.
      entadmin: ['maintenance', 'orderAccepted', 'booked', 'blDraft', 'spaApproved', 'returned', 'invoice'],
      entop: ['orderAccepted', 'blDraft', 'spaApproved'],
      personal: ['welcome', 'spaApproved', 'certification'],
    },
  },
  acme: {
    language: 'en',
    users: {
      // An overflowing inbox: 119 unread of 120, more than the bell's badge counts (it says 99+).
      opadmin: [...Array<TemplateName>(117).fill('orderSubmitted'), 'maintenance', 'spaReview', 'orderSubmitted'],
      entadmin: ['orderAccepted', 'blDraft', 'spaApproved', 'invoice'],
    },
  },
}

/** The newest letter of every account was sent on this day; older ones a day apart before it. */
const LAST_DAY = Date.UTC(2026, 2, 1, 9, 30)

/** The letters of one account: the oldest is read when there are more than two, the rest unread. */
export function lettersFor(
  names: readonly TemplateName[],
  language: Language,
  orderFor: (state: string | undefined) => OrderFacts,
): Omit<NewLetter, 'tenantId' | 'recipient'>[] {
  return names.map((name, i) => {
    const template: LetterTemplate = TEMPLATES[name]
    const order = orderFor(template.orderState)
    const sent = new Date(LAST_DAY - (names.length - 1 - i) * 86_400_000 - i * 17 * 60_000)
    return {
      title: template.title[language](order),
      content: template.content[language](order),
      status: names.length > 2 && i === 0 ? READ : UNREAD,
      sentAt: sent.toISOString(),
    }
  })
}

export async function seedLetters(db: Kysely<DB>, manifest: Manifest): Promise<void> {
  await syncEntityTables(db, manifest)
  for (const [code, plan] of Object.entries(PLAN)) {
    const tenant = await db.selectFrom('tenant').select('id').where('code', '=', code).executeTakeFirst()
    if (!tenant) continue
    await withTenant(db, tenant.id, async (trx) => {
      const orders = (
        await sql<OrderFacts & { state: string }>`
          select order_no as "orderNo", coalesce(job_no, '') as "jobNo", coalesce(hbl, '') as hbl, pol, pod,
                 coalesce(to_char(etd, 'YYYY-MM-DD'), '') as etd, coalesce(vessel, '') as vessel,
                 coalesce(voyage, '') as voyage, state
          from booking_order where tenant_id = ${tenant.id} order by order_no`.execute(trx)
      ).rows
      if (!orders.length) throw new Error(`seed: tenant ${code} has no orders to write letters about`)
      const orderFor = (state: string | undefined) => orders.find((o) => o.state === state) ?? (orders[0] as OrderFacts)
      const users = await trx
        .selectFrom('app_user')
        .select(['id', 'username'])
        .where('tenant_id', '=', tenant.id)
        .execute()
      const letters: NewLetter[] = []
      for (const [username, names] of Object.entries(plan.users)) {
        const user = users.find((u) => u.username === username)
        if (!user) throw new Error(`seed: tenant ${code} has no user ${username}`)
        for (const letter of lettersFor(names, plan.language, orderFor))
          letters.push({ ...letter, tenantId: tenant.id, recipient: user.id })
      }
      await writeLetters(trx, letters)
    })
  }
}
