import type { Kysely } from 'kysely'
import type { Manifest } from '../../manifest.ts'
import type { DB } from '../schema.ts'
import { insertAll } from './rates.ts'
import { OCEAN_CARRIERS } from './reference/index.ts'

/**
 * Regions, branch offices and booking agents of the demo tenants (issue #25, SPEC §7 basic data): the demo
 * forwarder books through the Shanghai, Ningbo and Shenzhen offices, with the ports' shipping agencies
 * (Penavico) for COSCO and OOCL and the carriers' own China booking desks for Maersk, MSC and CMA CGM. acme,
 * a standard tenant without booking agents, keeps one office and agent of its own, which the demo tenant
 * never sees. Telephone numbers are the agencies' switchboards' shape, not real lines.
 */

interface AgentSeed {
  code: string
  name: string
  nameEn: string
  carriers: string[]
  office: string
  contactName: string
  phone: string
  mail: string
  partyCode?: string
  enabled?: boolean
}

interface TenantAgents {
  tenant: string
  regions: { code: string; nameZh: string; nameEn: string }[]
  offices: {
    code: string
    nameZh: string
    nameEn: string
    region: string
    port: string
    address: string
    phone: string
    mail: string
  }[]
  agents: AgentSeed[]
}

export const SEEDED_AGENTS: TenantAgents[] = [
  {
    tenant: 'demo',
    regions: [
      { code: 'EC', nameZh: '华东区', nameEn: 'East China' },
      { code: 'SC', nameZh: '华南区', nameEn: 'South China' },
    ],
    offices: [
      {
        code: 'SHA',
        nameZh: '上海总部',
        nameEn: 'Shanghai Head Office',
        region: 'EC',
        port: 'CNSHA',
        address: '上海市浦东新区东方路 1217 号陆家嘴金融服务广场 18 楼',
        phone: '+86 21 6886 1200',
        mail: 'sha@huayuan-logistics.example',
      },
      {
        code: 'NGB',
        nameZh: '宁波分公司',
        nameEn: 'Ningbo Branch',
        region: 'EC',
        port: 'CNNGB',
        address: '浙江省宁波市鄞州区宁东路 269 号环球航运广场 21 楼',
        phone: '+86 574 8780 3300',
        mail: 'ngb@huayuan-logistics.example',
      },
      {
        code: 'SZX',
        nameZh: '深圳分公司',
        nameEn: 'Shenzhen Branch',
        region: 'SC',
        port: 'CNSZX',
        address: '广东省深圳市南山区蛇口望海路 1187 号招商局广场 12 楼',
        phone: '+86 755 2688 5100',
        mail: 'szx@huayuan-logistics.example',
      },
    ],
    agents: [
      {
        code: 'PENAVICO-SH',
        name: '中国上海外轮代理有限公司',
        nameEn: 'China Ocean Shipping Agency Shanghai Co., Ltd.',
        carriers: ['COSU', 'OOLU'],
        office: 'SHA',
        contactName: '陈立',
        phone: '+86 21 3512 6000',
        mail: 'booking@penavico-sh.example',
        partyCode: 'PNVSH',
      },
      {
        code: 'MAERSK-SH',
        name: '马士基（中国）航运有限公司上海分公司',
        nameEn: 'Maersk (China) Shipping Co., Ltd. Shanghai Branch',
        carriers: ['MAEU'],
        office: 'SHA',
        contactName: 'Li Na',
        phone: '+86 21 2312 8000',
        mail: 'cn.export@maersk.example',
        partyCode: 'MAEU-SHA',
      },
      {
        code: 'MSC-NB',
        name: '地中海航运（中国）有限公司宁波分公司',
        nameEn: 'MSC Mediterranean Shipping (China) Co., Ltd. Ningbo Branch',
        carriers: ['MSCU'],
        office: 'NGB',
        contactName: '王强',
        phone: '+86 574 2788 9000',
        mail: 'ningbo.booking@msc.example',
      },
      {
        code: 'PENAVICO-NB',
        name: '宁波外轮代理有限公司',
        nameEn: 'Ningbo Ocean Shipping Agency Co., Ltd.',
        carriers: ['COSU', 'CMDU', 'EGLV'],
        office: 'NGB',
        contactName: '周敏',
        phone: '+86 574 2769 6000',
        mail: 'booking@penavico-nb.example',
      },
      {
        code: 'CMA-SZ',
        name: '达飞轮船（中国）有限公司深圳分公司',
        nameEn: 'CMA CGM (China) Shipping Co., Ltd. Shenzhen Branch',
        carriers: ['CMDU'],
        office: 'SZX',
        contactName: 'Huang Wei',
        phone: '+86 755 2399 8000',
        mail: 'szx.booking@cma-cgm.example',
        enabled: false,
      },
    ],
  },
  {
    tenant: 'acme',
    regions: [{ code: 'SC', nameZh: '华南区', nameEn: 'South China' }],
    offices: [
      {
        code: 'SZX',
        nameZh: '艾克美深圳',
        nameEn: 'Acme Shenzhen',
        region: 'SC',
        port: 'CNYTN',
        address: '广东省深圳市盐田区沙头角深盐路 2002 号',
        phone: '+86 755 8888 6600',
        mail: 'ops@acme-logistics.example',
      },
    ],
    agents: [
      {
        code: 'ACME-ONE',
        name: '艾克美海洋网联订舱专线',
        nameEn: 'Acme ONE booking desk',
        carriers: ['ONEY', 'MAEU'],
        office: 'SZX',
        contactName: 'Acme Ops',
        phone: '+86 755 8888 6601',
        mail: 'one@acme-logistics.example',
      },
    ],
  },
]

export async function seedBookingAgents(db: Kysely<DB>, manifest: Manifest): Promise<void> {
  const known = new Set(OCEAN_CARRIERS.map((c) => c.scac))
  for (const seed of SEEDED_AGENTS) {
    for (const agent of seed.agents)
      for (const carrier of agent.carriers)
        if (!known.has(carrier)) throw new Error(`seed: ${carrier} is not a reference carrier`)
    const tenant = await db.selectFrom('tenant').select('id').where('code', '=', seed.tenant).executeTakeFirst()
    if (!tenant) continue
    const regionIds = await insertAll(db, manifest, tenant.id, 'region', seed.regions)
    const regionOf = (code: string) => regionIds[seed.regions.findIndex((r) => r.code === code)]
    const officeIds = await insertAll(
      db,
      manifest,
      tenant.id,
      'office',
      seed.offices.map((office) => ({ ...office, region: regionOf(office.region), enabled: true })),
    )
    const officeOf = (code: string) => seed.offices.findIndex((o) => o.code === code)
    await insertAll(
      db,
      manifest,
      tenant.id,
      'bookingAgent',
      seed.agents.map((agent) => {
        const office = seed.offices[officeOf(agent.office)]
        return {
          ...agent,
          enabled: agent.enabled ?? true,
          office: officeIds[officeOf(agent.office)],
          region: office ? regionOf(office.region) : undefined,
        }
      }),
    )
  }
}
