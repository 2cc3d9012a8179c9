import type { Kysely } from 'kysely'
import { foldFilterText } from '../../domain/im/filter.ts'
import type { Manifest } from '../../manifest.ts'
import type { DB } from '../schema.ts'
import { insertAll } from './rates.ts'

/**
 * The demo tenants' chat administration (issue #27): a few tags their service desks use, the words their
 * chats mask or refuse, the auto-reply set up in the tenant's language, its IM settings with app ids, and the
 * operators who chat. The demo tenant (zh) writes in Chinese, acme (en) in English — and acme's tags differ,
 * so a leak between the two shows.
 */
const IM_SEED = {
  demo: {
    tags: [
      { name: 'VIP', nameKey: 'vip', color: '#C50F1F', description: '重点客户，优先接待' },
      { name: '报关', nameKey: '报关', color: '#0F6CBD', description: '报关、退税相关咨询' },
      { name: '冷链', nameKey: '冷链', color: '#0F7B6C', description: '冷藏箱、温控货物' },
      { name: '新客户', nameKey: '新客户', color: '#8764B8' },
    ],
    filters: [
      { kind: 'word', text: '返点', action: 'mask', enabled: true, remarks: '不在聊天中谈返点' },
      { kind: 'word', text: '私下转账', action: 'refuse', enabled: true, remarks: '付款只走对账单' },
      { kind: 'pattern', text: '微*信', action: 'mask', enabled: true, remarks: '不把客户引到私人微信' },
      { kind: 'word', text: '现金', action: 'mask', enabled: false },
    ],
    autoReply: {
      enabled: true,
      message: '您好，客服正在接待其他客户，请稍候，我们会尽快回复您。',
      waitValue: 2,
      waitUnit: 'minutes',
      serviceDays: [1, 2, 3, 4, 5],
      serviceStart: '09:00',
      serviceEnd: '18:00',
      outsideHoursMessage: '您好，现在是非工作时间（工作日 9:00–18:00）。请留言，我们上班后第一时间回复您。',
      slot: 1,
    },
    imTenant: {
      imEnabled: true,
      wechatAppId: 'wx8a3f5c2e1b9d0476',
      qqAppId: '1109876543',
      remarks: '公众号：华远国际物流',
    },
    accounts: [
      { username: 'opcs', displayName: '客服 张敏', chatState: 1 },
      { username: 'opadmin', displayName: '李伟（主管）', chatState: 0 },
    ],
  },
  acme: {
    tags: [
      { name: 'Key account', nameKey: 'key account', color: '#C50F1F', description: 'Answer first' },
      { name: 'Amazon FBA', nameKey: 'amazon fba', color: '#CA5010' },
      { name: 'Reefer', nameKey: 'reefer', color: '#0F7B6C' },
    ],
    filters: [
      { kind: 'word', text: 'kickback', action: 'refuse', enabled: true },
      {
        kind: 'pattern',
        text: 'w?atsapp',
        action: 'mask',
        enabled: true,
        remarks: 'Keep customers in the portal chat',
      },
    ],
    autoReply: {
      enabled: true,
      message: 'Thanks for your message. All our agents are busy; one will be with you shortly.',
      waitValue: 90,
      waitUnit: 'seconds',
      serviceDays: [1, 2, 3, 4, 5],
      serviceStart: '08:30',
      serviceEnd: '17:30',
      outsideHoursMessage: 'Our desk is open Monday to Friday, 08:30–17:30. Leave a message and we will reply then.',
      slot: 1,
    },
    imTenant: { imEnabled: false },
    accounts: [{ username: 'opadmin', displayName: 'Maria (Acme desk)', chatState: 1 }],
  },
} as const

export async function seedIm(db: Kysely<DB>, manifest: Manifest): Promise<void> {
  for (const [code, seed] of Object.entries(IM_SEED)) {
    const tenant = await db.selectFrom('tenant').select('id').where('code', '=', code).executeTakeFirst()
    if (!tenant) continue
    await insertAll(
      db,
      manifest,
      tenant.id,
      'imTag',
      seed.tags.map((t) => ({ ...t })),
    )
    await insertAll(
      db,
      manifest,
      tenant.id,
      'imChatFilter',
      seed.filters.map((f) => ({ ...f, textKey: foldFilterText(f.text) })),
    )
    await insertAll(db, manifest, tenant.id, 'imAutoReply', [
      { ...seed.autoReply, serviceDays: [...seed.autoReply.serviceDays] },
    ])
    await insertAll(db, manifest, tenant.id, 'imTenant', [{ tenantId: tenant.id, ...seed.imTenant }])
    const users = await db
      .selectFrom('app_user')
      .select(['id', 'username'])
      .where('tenant_id', '=', tenant.id)
      .where(
        'username',
        'in',
        seed.accounts.map((a) => a.username),
      )
      .execute()
    const idOf = new Map(users.map((u) => [u.username, u.id]))
    await insertAll(
      db,
      manifest,
      tenant.id,
      'imAccount',
      seed.accounts.map(({ username, ...account }) => ({ ...account, user: idOf.get(username) })),
    )
  }
}
