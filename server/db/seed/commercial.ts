import type { Kysely } from 'kysely'
import type { ManifestEndpoint } from '../../../model/resolve.ts'
import { addDays, DEFAULT_TIME_ZONE, dayIn } from '../../../rules/calendar.ts'
import { sessionForUser } from '../../auth/accounts.ts'
import { domainRegistry } from '../../domain/index.ts'
import { createEngine } from '../../engine/core.ts'
import type { Manifest } from '../../manifest.ts'
import { now } from '../../tenancy/clock.ts'
import { withTenant } from '../../tenancy/scope.ts'
import type { DB } from '../schema.ts'

/**
 * The demo tenant's inquiries and quotes (issue #8), placed through the engine as the demo users would
 * place them: inquiry and quote numbers, the automatic quotes of the tenant's quote configuration, totals
 * in exact decimals, state changes and their audit all come from the same code as a user's call. The
 * customer (entadmin) has one inquiry answered by a sent quote, one waiting for the operator and one they
 * withdrew, and two order templates; the operator (opadmin) sees the inquiries in /InquiryList and the
 * quotes in /quoteList. Dates are relative to now.
 */

// Days of the demo tenants' calendar (the default time zone), from the server's one clock.
const day = (offset: number) => addDays(dayIn(now(), DEFAULT_TIME_ZONE), offset)

const PACKAGE = {
  description: 'Cotton bed linen, printed',
  packageCount: 420,
  grossWeight: 8820.5,
  goodsCount: 8400,
  length: 60,
  width: 40,
  height: 35,
}

const INQUIRIES = [
  {
    transportModes: [1],
    origin: 'CNSHA',
    destination: 'USLAX',
    tradeTerm: 'FOB',
    tradeRole: 'seller',
    needPickUp: true,
    pickUpAddress: '88 Wenyi West Road, Xihu District, Hangzhou',
    goodsReady: 'withinTwoWeeks',
    containers: [
      { containerType: '22G1', quantity: 2 },
      { containerType: '45G1', quantity: 1 },
    ],
    packages: [PACKAGE],
    customsDeclaration: ['export'],
    contactName: 'Chen Jing',
    contactEmail: 'chen.jing@minghui-textile.example',
  },
  {
    transportModes: [1],
    origin: 'CNNGB',
    destination: 'DEHAM',
    tradeTerm: 'CIF',
    tradeRole: 'seller',
    goodsReady: 'ready',
    containers: [{ containerType: '45G1', quantity: 2 }],
    packages: [
      { ...PACKAGE, description: 'Solid oak dining tables', packageCount: 96, grossWeight: 14200, goodsCount: 96 },
    ],
    customsDeclaration: ['export'],
    insurance: true,
    goodsValue: '86000.000',
    goodsValueCurrency: 'USD',
    preferredCarrier: 'HLCU',
  },
  {
    transportModes: [1],
    origin: 'CNSZX',
    destination: 'SGSIN',
    tradeTerm: 'FCA',
    tradeRole: 'seller',
    goodsReady: 'afterTwoWeeks',
    containers: [{ containerType: '22G1', quantity: 1 }],
    packages: [{ ...PACKAGE, description: 'LED panel lights', packageCount: 180, grossWeight: 2600, goodsCount: 3600 }],
  },
]

/** Bookings the customer makes again and again (/orderTemplateList). */
const TEMPLATES = [
  {
    name: 'Hangzhou textiles to Long Beach',
    containerLoadType: 'FCL',
    pol: 'CNSHA',
    pod: 'USLAX',
    carrier: 'MAEU',
    shipper: 'HANGZHOU MINGHUI TEXTILE CO., LTD.\n88 WENYI WEST ROAD\nHANGZHOU 310000 CHINA',
    consignee: 'PACIFIC HOME GOODS INC.\n1200 HARBOR BLVD\nLONG BEACH CA 90802 USA',
    notifyParty: 'SAME AS CONSIGNEE',
    contactName: 'Chen Jing',
    contactPhone: '+86 571 8888 2601',
    containers: [{ containerType: '45G1', quantity: 1 }],
    cargoType: 'FCL',
    packageType: 'CARTONS',
    goodsDescription: 'COTTON BED LINEN, PRINTED',
    hsCode: '630231',
  },
  {
    name: 'Ningbo furniture to Hamburg',
    containerLoadType: 'FCL',
    pol: 'CNNGB',
    pod: 'DEHAM',
    carrier: 'HLCU',
    shipper: 'NINGBO BRIGHT HOME CO., LTD.\nNO. 88 JIANGNAN ROAD\nNINGBO 315000 CHINA',
    consignee: 'NORDHAUS MOEBEL GMBH\nSPALDINGSTRASSE 160\n20097 HAMBURG GERMANY',
    containers: [{ containerType: '45G1', quantity: 2 }],
    cargoType: 'FCL',
    packageType: 'CRATES',
    goodsDescription: 'SOLID OAK DINING TABLES',
    hsCode: '940360',
  },
]

/** The operator's quote for the first inquiry: three lines in two currencies. */
const QUOTE = {
  transportMode: 1,
  clientType: 'formal',
  contactName: 'Li Wei',
  contactEmail: 'li.wei@demo-logistics.com',
  currency: 'USD',
  carrier: 'MAEU',
  transitDays: 16,
  charges: [
    {
      chargeType: 'freight',
      name: "Ocean freight 20'GP",
      quantity: 2,
      unit: 'container',
      unitPrice: '2150.000',
      currency: 'USD',
    },
    {
      chargeType: 'freight',
      name: "Ocean freight 40'HQ",
      quantity: 1,
      unit: 'container',
      unitPrice: '3450.000',
      currency: 'USD',
    },
    {
      chargeType: 'origin',
      name: 'Terminal handling',
      quantity: 3,
      unit: 'container',
      unitPrice: '850.000',
      currency: 'CNY',
    },
  ],
}

export async function seedCommercialFlow(db: Kysely<DB>, manifest: Manifest): Promise<void> {
  const tenant = await db.selectFrom('tenant').select('id').where('code', '=', 'demo').executeTakeFirst()
  if (!tenant) return
  // The seeded history tells nobody: the demo's letters are the plan of ./letters.ts, so the quote sent here
  // writes no letter (issue #22's notify effect) that would crowd the bell's seeded ones.
  const domain = domainRegistry()
  const registry = { ...domain, effects: new Map([...domain.effects, ['notify', async () => {}]]) }
  const engine = createEngine(manifest, { registry })
  const endpoint = (path: string) => {
    const found = manifest.endpoints.find((e) => e.path === path)
    if (!found) throw new Error(`seedCommercialFlow: no endpoint ${path}`)
    return found as ManifestEndpoint
  }
  await withTenant(db, tenant.id, async (trx) => {
    const as = async (username: string) => ({
      tenantId: tenant.id,
      session: await sessionForUser(trx, tenant.id, username),
      language: 'en' as const,
    })
    const customer = await as('entadmin')
    const operator = await as('opadmin')
    const created: { id: number; version: number }[] = []
    for (const inquiry of INQUIRIES)
      created.push((await engine.handle(trx, endpoint('/booking/inquiry/save'), customer, inquiry)) as never)
    const [answered, , withdrawn] = created as [{ id: number }, unknown, { id: number; version: number }]

    for (const template of TEMPLATES)
      await engine.handle(trx, endpoint('/booking/orderTemplate/add'), customer, template)

    const quote = (await engine.handle(trx, endpoint('/b2b/quote/add'), operator, {
      ...QUOTE,
      inquiry: answered.id,
      validUntil: day(14),
      cutOff: day(7),
      departure: day(9),
      arrival: day(25),
    })) as { id: number; version: number }
    await engine.handle(trx, endpoint('/quote/transition'), operator, {
      id: quote.id,
      version: quote.version,
      transition: 'send',
    })
    await engine.handle(trx, endpoint('/inquiry/transition'), customer, {
      id: withdrawn.id,
      version: withdrawn.version,
      transition: 'withdraw',
    })
    // A notice the operators are still writing (/pushList/Email): a draft push to the customer enterprises.
    const customers = await trx
      .selectFrom('company')
      .select('id')
      .where('tenant_id', '=', tenant.id)
      .where('company_type', '=', 2)
      .orderBy('id')
      .execute()
    await engine.handle(trx, endpoint('/b2b/push/add'), operator, {
      channel: 'mail',
      contentType: 'notice',
      title: '春节期间订舱及截关安排 / Spring Festival booking and cut-off schedule',
      content:
        '<p>2027 年春节期间（2 月 5 日至 2 月 13 日），上海、宁波港截关时间提前 24 小时，请提前安排订舱与提货。</p>' +
        '<p>During the Spring Festival (5–13 February 2027) cut-offs at Shanghai and Ningbo close 24 hours earlier: please book and arrange pick-up in advance.</p>',
      companies: customers.map((c) => c.id),
    })
    // The customer watches its main lane's 40'HQ price (/priceMonitor); a price-change watch starts silently.
    await engine.handle(trx, endpoint('/priceWatch/add'), customer, {
      pol: 'CNSHA',
      pod: 'USLAX',
      carrier: 'COSU',
      containerType: '45G1',
      minCbm: 1,
      targetPrice: '1800',
      subscriptionType: 'priceChange',
      channel: 'inApp',
      period: 90,
      startDate: day(0),
    })
  })
}
