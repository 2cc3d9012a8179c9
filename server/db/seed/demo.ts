import { type Kysely, sql } from 'kysely'
import { hashPassword } from '../../auth/password.ts'
import type { Language } from '../../http/errors.ts'
import type { Manifest } from '../../manifest.ts'
import { defaultSettings } from '../../tenancy/defaults.ts'
import { withTenant } from '../../tenancy/scope.ts'
import { insertPresetRole } from '../presetRoles.ts'
import type { DB } from '../schema.ts'
import { seedBookingAgents } from './agents.ts'
import { seedAnalytics } from './analytics.ts'
import { seedBills } from './bills.ts'
import { seedBlInstructions } from './blInstructions.ts'
import { seedCertifications } from './certifications.ts'
import { seedClients } from './clients.ts'
import { seedCommercialFlow } from './commercial.ts'
import { seedContainerSettings } from './containers.ts'
import { seedFba } from './fba.ts'
import { seedIm } from './im.ts'
import { seedInquiries } from './inquiries.ts'
import { seedLetters } from './letters.ts'
import { seedMembership } from './membership.ts'
import { seedNews } from './news.ts'
import { seedOperatingOrders } from './operating.ts'
import { seedOrderDetails } from './orderDetails.ts'
import { seedOrderNumberRules } from './orderNumbers.ts'
import { seedOrders } from './orders.ts'
import { seedQuoteConfig } from './quotes.ts'
import { seedRates } from './rates.ts'
import { seedRoleGroups } from './roles.ts'
import { seedSchedules } from './schedules.ts'
import { BACKGROUND_IMAGES, privacyAgreements, seedSpecialRoutes, serviceAgreements } from './site.ts'
import { seedTracking } from './tracking.ts'
import { seedTruckingFees } from './trucking.ts'
import { seedUlds } from './ulds.ts'
import { seedWebhooks } from './webhooks.ts'

/** Users who followed the tenant's WeChat official account and bound it (issue #22): their openids there. */
const WECHAT_OPENIDS: Record<string, Record<string, string>> = {
  demo: {
    entadmin: 'oX7Lh6Nq3cYp9TfR2kWm5bJd8aZe',
    entop: 'oX7Lh6Dk4rVs8QwE1tYu6nMb2cXf',
    opcs: 'oX7Lh6Pz5gHj3LkS9aDf7mNq4wEr',
  },
  acme: { entadmin: 'oQ2mK8Tn6vBx4ZcR1yWp9sLd3fGh' },
}
export const DEMO_PASSWORD = 'Demo@2026'

/**
 * Where the seeded personal users are and how they came (UserPortrait, issue #28): a Shanghai shipper who
 * registered with their mobile number. Enterprise and provider users carry neither (they are not charted).
 */
const PERSONAL_PORTRAITS: Record<string, Record<string, { region: string; channel: string }>> = {
  demo: { personal: { region: 'CN', channel: 'mobile' } },
}

/** The demo accounts the README lists and the tests log in with. */
export const DEMO_USERS = [
  { username: 'platform', realName: 'Platform Admin', role: 'SystemAdministrator', company: 'provider', type: 1 },
  { username: 'opadmin', realName: 'Li Wei', role: 'OperationAdministrator', company: 'provider', type: 1 },
  { username: 'opcs', realName: 'Zhang Min', role: 'OperationCS', company: 'provider', type: 1 },
  { username: 'entadmin', realName: 'Chen Jing', role: 'EnterpriseAdministrator', company: 'customer', type: 2 },
  { username: 'entop', realName: 'Wang Fang', role: 'EnterpriseOperation', company: 'customer', type: 2 },
  { username: 'personal', realName: 'Liu Yang', role: 'PersonalUser', company: null, type: 2 },
  /*
   * Users that make the hand-written permission and scope checks reachable (issue #20): every preset role
   * that books also orders directly, and no preset user is of type 3. Both work for a second client of the
   * demo tenant, a Ningbo parts exporter, so the Minghui orders the seed places (server/db/seed/orders.ts, the
   * first enterprise's) stay theirs and their counts do not move.
   * - nbclerk: a booking clerk whose custom role books from published rates and quotes but may not order
   *   directly (booking without directlyEntrusted, SPEC §2: Direct order needs directlyEntrusted).
   * - nbtrack: a type-3 user (SPEC §6: no profile entry, the workbench is the order list) who follows the
   *   company's orders: the company wall of server/engine/scope.ts must hold for them as for type 2.
   */
  { username: 'nbclerk', realName: 'Sun Hao', role: 'BookingClerk', company: 'secondCustomer', type: 2 },
  { username: 'nbtrack', realName: 'Zhou Qian', role: 'OrderFollowUp', company: 'secondCustomer', type: 3 },
] as const

/** Roles the demo tenant made itself (preset false), as a tenant administrator would in role management. */
const DEMO_CUSTOM_ROLES: CustomRoleSeed[] = [
  {
    code: 'BookingClerk',
    name: '订舱专员',
    dataScope: 'self',
    permissions: [
      'personalInfo',
      'fclPriceList',
      'informationCenter',
      'myOrders',
      'booking',
      'draftList',
      'templateList',
      'letterList',
      'letterSettings',
    ],
  },
  {
    code: 'OrderFollowUp',
    name: '订单跟踪',
    dataScope: 'all',
    permissions: ['informationCenter', 'myOrders', 'letterList', 'letterSettings'],
  },
]

const ACME_USERS = [
  { username: 'opadmin', realName: 'Maria Lopez', role: 'OperationAdministrator', company: 'provider', type: 1 },
  { username: 'entadmin', realName: 'John Carter', role: 'EnterpriseAdministrator', company: 'customer', type: 2 },
] as const

interface CustomRoleSeed {
  code: string
  name: string
  dataScope: 'all' | 'self'
  permissions: string[]
}

/**
 * A company as its licence and certification describe it (schemas/company.yaml, SPEC §3 Enterprise). The
 * provider carries its names only; a customer enterprise carries what its certification gave it.
 */
interface CompanySeed {
  name: string
  nameEn: string
  enterprise?: {
    enterpriseType: number
    certificateType: number
    uniqueNumber: string
    registeredCapital: string
    foundingDate: string
    corporateName: string
    contactName: string
    contactMobile: string
    contactEmail: string
    address: string
    businessStartDate: string
    businessEndDate: string
    /** 0 certified by a registered user, 1 invited, 2 created by an operator. */
    origin: number
    fbaStatus: number
    /** The provider user (username) who sells to it; its branch is the provider itself. */
    salesman: string
  }
}

interface TenantSeed {
  code: string
  /** The language its own texts are written in: the preset roles' names (its users read their letters in it too). */
  language: Language
  domains: string[]
  nameZh: string
  nameEn: string
  version: 'flagship' | 'standard' | 'basic'
  /** The platform's own tenant: its walltechAdmin holders (the `platform` user) administer every tenant. */
  platform?: boolean
  settings: Record<string, unknown>
  provider: CompanySeed
  customer: CompanySeed
  /** A second client enterprise, created after the first (the seeded orders are the first's). */
  secondCustomer?: CompanySeed
  customRoles?: CustomRoleSeed[]
  users: readonly {
    username: string
    realName: string
    role: string
    company: 'provider' | 'customer' | 'secondCustomer' | null
    type: number
  }[]
}

export const TENANTS: TenantSeed[] = [
  {
    code: 'demo',
    language: 'zh',
    domains: ['localhost', '127.0.0.1'],
    nameZh: '华远国际货运代理（上海）有限公司',
    nameEn: 'Huayuan International Freight Forwarding (Shanghai) Co., Ltd.',
    version: 'flagship',
    platform: true,
    settings: defaultSettings({
      websiteName: '华远国际物流',
      websiteNameEn: 'Huayuan Logistics',
      // A flagship tenant: its customers choose the booking agent (server/db/seed/agents.ts).
      hasBookingAgent: true,
      mail: 'service@huayuan-logistics.example',
      companyDomainName: 'localhost',
      copyright: '© 2026 华远国际货运代理（上海）有限公司',
      copyrightEn: '© 2026 Huayuan International Freight Forwarding (Shanghai) Co., Ltd.',
      icp: '沪ICP备2026000001号',
      companyAddress: '上海市浦东新区东方路 1217 号陆家嘴金融服务广场 18 楼',
      companyAddressEn: '18/F, Lujiazui Financial Plaza, 1217 Dongfang Road, Pudong, Shanghai 200122, China',
      backgroundImageList: BACKGROUND_IMAGES,
      serviceAgreementList: serviceAgreements({
        zh: '华远国际货运代理（上海）有限公司',
        en: 'Huayuan International Freight Forwarding (Shanghai) Co., Ltd.',
      }),
      privacyAgreementList: privacyAgreements(
        { zh: '华远国际货运代理（上海）有限公司', en: 'Huayuan International Freight Forwarding (Shanghai) Co., Ltd.' },
        'privacy@huayuan-logistics.example',
      ),
      // The direct-order service the top bar's tenant check answers (acme has none: "a warm reminder").
      directOrder: {
        contactName: '周丽',
        phone: '021-6888 1200',
        email: 'booking@huayuan-logistics.example',
        note: '工作日 9:00–18:00 受理直接委托，截关前 24 小时停止接单。',
      },
    }),
    // English company names hold letters, digits and spaces only (SPEC §5, schemas/company.yaml).
    provider: {
      name: '华远国际货运代理（上海）有限公司',
      nameEn: 'Huayuan International Freight Forwarding Shanghai Co Ltd',
    },
    customer: {
      name: '杭州明辉纺织品进出口有限公司',
      nameEn: 'Hangzhou Minghui Textile Import and Export Co Ltd',
      enterprise: {
        enterpriseType: 1,
        certificateType: 1,
        uniqueNumber: '91330106MA2H3K7X5B',
        registeredCapital: '500.00',
        foundingDate: '2012-03-15',
        corporateName: '陈明辉',
        contactName: '陈静',
        contactMobile: '13857112345',
        contactEmail: 'chenjing@minghui-textile.example',
        address: '浙江省杭州市西湖区文三路 478 号华星科技大厦 9 楼',
        businessStartDate: '2012-03-15',
        businessEndDate: '2042-03-14',
        origin: 0,
        fbaStatus: 1,
        salesman: 'opadmin',
      },
    },
    secondCustomer: {
      name: '宁波海通汽车零部件有限公司',
      nameEn: 'Ningbo Haitong Auto Parts Co Ltd',
      enterprise: {
        enterpriseType: 1,
        certificateType: 1,
        uniqueNumber: '91330206MA2AH6L84R',
        registeredCapital: '1200.00',
        foundingDate: '2015-08-20',
        corporateName: '周海通',
        contactName: '孙浩',
        contactMobile: '13967823456',
        contactEmail: 'sunhao@haitong-autoparts.example',
        address: '浙江省宁波市北仑区新碶街道明州路 318 号',
        businessStartDate: '2015-08-20',
        businessEndDate: '2045-08-19',
        origin: 2,
        fbaStatus: 0,
        salesman: 'opcs',
      },
    },
    customRoles: DEMO_CUSTOM_ROLES,
    users: DEMO_USERS,
  },
  {
    code: 'acme',
    language: 'en',
    domains: ['acme.localhost'],
    nameZh: '艾克美物流（深圳）有限公司',
    nameEn: 'Acme Logistics (Shenzhen) Ltd.',
    version: 'standard',
    settings: defaultSettings({
      websiteName: '艾克美物流',
      websiteNameEn: 'Acme Logistics',
      themeColor: '#0f7b6c',
      servicePhone: '+86 755 8888 6600',
      mail: 'hello@acme-logistics.example',
      // acme's customer service chats on an IM website (the top bar's IM link); the demo tenant has none.
      imUrl: 'https://im.acme-logistics.example/chat',
      pageTemplate: 2,
      homeMode: 2,
      transportationSupport: [1, 2],
      companyDomainName: 'acme.localhost',
      copyright: '© 2026 艾克美物流（深圳）有限公司',
      copyrightEn: '© 2026 Acme Logistics (Shenzhen) Ltd.',
      icp: '粤ICP备2026000002号',
      companyAddress: '深圳市南山区前海深港合作区前湾一路 35 号 9 楼',
      companyAddressEn: '9/F, 35 Qianwan 1st Road, Qianhai, Nanshan District, Shenzhen 518052, China',
      // No carousel: acme's hero shows its first image still.
      backgroundImageList: BACKGROUND_IMAGES.slice(1),
      backgroundImagePlay: false,
      configuration: { visitorQueryLimit: 20, homeSpecialRouteCount: 4 },
      serviceAgreementList: serviceAgreements({
        zh: '艾克美物流（深圳）有限公司',
        en: 'Acme Logistics (Shenzhen) Ltd.',
      }),
      privacyAgreementList: privacyAgreements(
        { zh: '艾克美物流（深圳）有限公司', en: 'Acme Logistics (Shenzhen) Ltd.' },
        'privacy@acme-logistics.example',
      ),
    }),
    provider: { name: '艾克美物流（深圳）有限公司', nameEn: 'Acme Logistics Shenzhen Ltd' },
    customer: {
      name: '东莞恒达电子有限公司',
      nameEn: 'Dongguan Hengda Electronics Co Ltd',
      enterprise: {
        enterpriseType: 5,
        certificateType: 1,
        uniqueNumber: '91441900MA4W8R2N6K',
        registeredCapital: '800.00',
        foundingDate: '2016-05-10',
        corporateName: '黄志恒',
        contactName: '黄丽',
        contactMobile: '13712345678',
        contactEmail: 'huangli@hengda-electronics.example',
        address: '广东省东莞市长安镇振安中路 168 号恒达工业园 3 栋',
        businessStartDate: '2016-05-10',
        businessEndDate: '2046-05-09',
        origin: 0,
        // An electronics exporter that sells on Amazon: acme's FBA calls are open to it, so the tenant guards
        // sweep the FBA address book and products as a customer who may use them (issue #26).
        fbaStatus: 1,
        salesman: 'opadmin',
      },
    },
    users: ACME_USERS,
  },
]

/** True when the database has no tenant yet: the only time the embedded default seeds itself. */
export async function isEmpty(db: Kysely<DB>): Promise<boolean> {
  const row = await db.selectFrom('tenant').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()
  return row.n === 0
}

/**
 * Creates the demo and acme tenants with their companies, preset roles and users. Deterministic: the
 * same rows in the same order every time, but for the password hashes: every user's is made on its own, with
 * its own random salt, so two demo users never share one (issue #17, finding 9: one hash for all of them
 * told anyone with the table that they share a password, and cracking one cracked all).
 */
export async function seedDemo(db: Kysely<DB>, manifest: Manifest): Promise<void> {
  for (const seed of TENANTS) {
    // On the thread pool, side by side: argon2 takes its time for each.
    const passwordHashes = await Promise.all(seed.users.map(() => hashPassword(DEMO_PASSWORD)))
    const tenant = await db
      .insertInto('tenant')
      .values({
        code: seed.code,
        name_zh: seed.nameZh,
        name_en: seed.nameEn,
        version: seed.version,
        platform: seed.platform ?? false,
        settings: JSON.stringify(seed.settings),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await db
      .insertInto('tenant_domain')
      .values(seed.domains.map((domain) => ({ domain, tenant_id: tenant.id })))
      .execute()
    const providerId = await withTenant(db, tenant.id, async (trx) => {
      const company = async (c: CompanySeed, type: number) => {
        const e = c.enterprise
        const details = e && {
          enterprise_type: e.enterpriseType,
          certificate_type: e.certificateType,
          unique_number: e.uniqueNumber,
          registered_capital: e.registeredCapital,
          founding_date: e.foundingDate,
          corporate_name: e.corporateName,
          contact_name: e.contactName,
          contact_mobile: e.contactMobile,
          contact_email: e.contactEmail,
          address: e.address,
          business_start_date: e.businessStartDate,
          business_end_date: e.businessEndDate,
          origin: e.origin,
          fba_status: e.fbaStatus,
        }
        return (
          await trx
            .insertInto('company')
            .values({ tenant_id: tenant.id, name: c.name, name_en: c.nameEn, company_type: type, ...details })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id
      }
      const companies: Record<string, number> = {
        provider: await company(seed.provider, 1),
        customer: await company(seed.customer, 2),
      }
      if (seed.secondCustomer) companies.secondCustomer = await company(seed.secondCustomer, 2)
      const userIds: Record<string, number> = {}
      const roleIds: Record<string, number> = {}
      for (const [code, role] of Object.entries(manifest.roles))
        roleIds[code] = (await insertPresetRole(trx, tenant.id, code, role, seed.language)) as number
      for (const role of seed.customRoles ?? []) {
        const unknown = role.permissions.filter((p) => !manifest.permissions[p])
        if (unknown.length) throw new Error(`seed: role ${role.code} names unknown permissions ${unknown.join(', ')}`)
        roleIds[role.code] = (
          await trx
            .insertInto('role')
            .values({
              tenant_id: tenant.id,
              code: role.code,
              name: role.name,
              preset: false,
              data_scope: role.dataScope,
              permissions: JSON.stringify([...role.permissions].sort()),
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id
      }
      for (const [index, user] of seed.users.entries()) {
        const row = await trx
          .insertInto('app_user')
          .values({
            tenant_id: tenant.id,
            company_id: user.company ? companies[user.company] : null,
            username: user.username,
            real_name: user.realName,
            email: `${user.username}@${seed.code}.example`,
            password_hash: passwordHashes[index] as string,
            company_user_type: user.type,
            wechat_openid: WECHAT_OPENIDS[seed.code]?.[user.username] ?? null,
            region: PERSONAL_PORTRAITS[seed.code]?.[user.username]?.region ?? null,
            register_channel: PERSONAL_PORTRAITS[seed.code]?.[user.username]?.channel ?? null,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
        userIds[user.username] = row.id
        const roleId = roleIds[user.role]
        if (roleId === undefined) throw new Error(`seed: role ${user.role} is neither preset nor the tenant's own`)
        await trx.insertInto('user_role').values({ tenant_id: tenant.id, user_id: row.id, role_id: roleId }).execute()
      }
      // Each client's salesman, at the provider's own office.
      for (const key of ['customer', 'secondCustomer'] as const) {
        const salesman = seed[key]?.enterprise?.salesman
        if (!salesman) continue
        await trx
          .updateTable('company')
          .set({ sales_branch: companies.provider, salesman: userIds[salesman] ?? null })
          .where('id', '=', companies[key] as number)
          .execute()
      }
      return companies.provider
    })
    await db
      .updateTable('tenant')
      .set({ settings: JSON.stringify({ ...seed.settings, companyId: providerId }) })
      .where('id', '=', tenant.id)
      .execute()
  }
  await seedCertifications(db, manifest)
  await seedClients(db)
  await seedOrders(db, manifest)
  await seedOrderDetails(db, manifest)
  await seedInquiries(db, manifest)
  await seedOrderNumberRules(db)
  await seedRates(db, manifest)
  await seedSchedules(db)
  await seedQuoteConfig(db)
  await seedTruckingFees(db, manifest)
  await seedContainerSettings(db, manifest)
  await seedBookingAgents(db, manifest)
  await seedCommercialFlow(db, manifest)
  await seedTracking(db)
  await seedLetters(db, manifest)
  await seedNews(db, manifest)
  await seedSpecialRoutes(db, manifest)
  await seedRoleGroups(db, manifest)
  await seedMembership(db, manifest)
  await seedOperatingOrders(db, manifest)
  await seedBlInstructions(db, manifest)
  await seedBills(db, manifest)
  await seedUlds(db, manifest)
  await seedFba(db, manifest)
  await seedIm(db, manifest)
  await seedAnalytics(db, manifest)
  await seedWebhooks(db, manifest)
}
