import type { Kysely } from 'kysely'
import type { TradeTermOption } from '../../../rules/tradeTerms.ts'
import { syncEntityTables } from '../../engine/storage.ts'
import type { Manifest } from '../../manifest.ts'
import { withTenant } from '../../tenancy/scope.ts'
import type { DB } from '../schema.ts'

/**
 * Each tenant's trade-term configuration (/tradeTermConfiguration): which Incoterms 2020 terms the pallet
 * inquiry offers a buyer or a seller for each transport mode the tenant supports, and which services each
 * pre-ticks. The services follow who carries which cost and risk under the term: e.g. a seller on FOB
 * clears export customs (locked) and needs a pick-up; a buyer on CIF only needs import customs and delivery;
 * CIP obliges all-risks cover (Institute Cargo Clauses A), CIF only the minimum.
 */

type Party = TradeTermOption['tradeParty']
/** The service flags of a configuration row; those left out are off. */
type Services = Partial<Omit<TradeTermOption, 'tradeParty' | 'tradeTerm' | 'transportMode' | 'isDefault'>>
interface TermSeed {
  party: Party
  term: string
  isDefault?: boolean
  enabled?: boolean
  services: Services
}

const SEA_TERMS: TermSeed[] = [
  {
    party: 'buyer',
    term: 'EXW',
    services: {
      needPickUp: true,
      customsDeclaration: true,
      lockedCustomsDeclaration: true,
      deliveryToConsignee: true,
      insurance: true,
    },
  },
  {
    party: 'buyer',
    term: 'FOB',
    isDefault: true,
    services: { customsDeclaration: true, deliveryToConsignee: true, insurance: true, unloadingWarehouse: true },
  },
  { party: 'buyer', term: 'CFR', services: { customsDeclaration: true, deliveryToConsignee: true, insurance: true } },
  { party: 'buyer', term: 'CIF', services: { customsDeclaration: true, deliveryToConsignee: true } },
  {
    party: 'seller',
    term: 'FOB',
    isDefault: true,
    services: { needPickUp: true, collectWarehouse: true, customsDeclaration: true, lockedCustomsDeclaration: true },
  },
  {
    party: 'seller',
    term: 'CFR',
    services: { needPickUp: true, collectWarehouse: true, customsDeclaration: true, lockedCustomsDeclaration: true },
  },
  {
    party: 'seller',
    term: 'CIF',
    services: {
      needPickUp: true,
      collectWarehouse: true,
      customsDeclaration: true,
      lockedCustomsDeclaration: true,
      insurance: true,
    },
  },
  {
    party: 'seller',
    term: 'DAP',
    services: {
      needPickUp: true,
      customsDeclaration: true,
      lockedCustomsDeclaration: true,
      deliveryToConsignee: true,
      insurance: true,
    },
  },
  {
    party: 'seller',
    term: 'DDP',
    services: {
      needPickUp: true,
      customsDeclaration: true,
      lockedCustomsDeclaration: true,
      deliveryToConsignee: true,
      insurance: true,
      allRisks: true,
      unloadingWarehouse: true,
    },
  },
  // Offered once, switched off: DPU needs unloading at the consignee's site, which the desk does not sell yet.
  {
    party: 'seller',
    term: 'DPU',
    enabled: false,
    services: { needPickUp: true, deliveryToConsignee: true, unloadingWarehouse: true },
  },
]

/** Air, rail and truck: the multimodal terms only (no FAS, FOB, CFR, CIF). */
const OTHER_TERMS: TermSeed[] = [
  {
    party: 'buyer',
    term: 'EXW',
    services: {
      needPickUp: true,
      customsDeclaration: true,
      lockedCustomsDeclaration: true,
      deliveryToConsignee: true,
      insurance: true,
    },
  },
  {
    party: 'buyer',
    term: 'FCA',
    isDefault: true,
    services: { customsDeclaration: true, deliveryToConsignee: true, insurance: true },
  },
  { party: 'buyer', term: 'CPT', services: { customsDeclaration: true, deliveryToConsignee: true, insurance: true } },
  { party: 'buyer', term: 'CIP', services: { customsDeclaration: true, deliveryToConsignee: true } },
  {
    party: 'seller',
    term: 'FCA',
    isDefault: true,
    services: { needPickUp: true, collectWarehouse: true, customsDeclaration: true, lockedCustomsDeclaration: true },
  },
  {
    party: 'seller',
    term: 'CPT',
    services: { needPickUp: true, customsDeclaration: true, lockedCustomsDeclaration: true },
  },
  {
    party: 'seller',
    term: 'CIP',
    services: {
      needPickUp: true,
      customsDeclaration: true,
      lockedCustomsDeclaration: true,
      insurance: true,
      allRisks: true,
    },
  },
  {
    party: 'seller',
    term: 'DAP',
    services: {
      needPickUp: true,
      customsDeclaration: true,
      lockedCustomsDeclaration: true,
      deliveryToConsignee: true,
      insurance: true,
    },
  },
  {
    party: 'seller',
    term: 'DDP',
    services: {
      needPickUp: true,
      customsDeclaration: true,
      lockedCustomsDeclaration: true,
      deliveryToConsignee: true,
      insurance: true,
      allRisks: true,
    },
  },
]

const SEA = 1

/** The rows of one tenant: every term of every transport mode it supports. */
export function tradeTermRows(modes: readonly number[]) {
  return [...new Set(modes)]
    .sort((a, b) => a - b)
    .flatMap((mode) =>
      (mode === SEA ? SEA_TERMS : OTHER_TERMS).map((seed) => ({
        trade_party: seed.party,
        trade_term: seed.term,
        transport_mode: mode,
        is_default: seed.isDefault ?? false,
        enabled: seed.enabled ?? true,
        need_pick_up: seed.services.needPickUp ?? false,
        delivery_to_consignee: seed.services.deliveryToConsignee ?? false,
        collect_warehouse: seed.services.collectWarehouse ?? false,
        customs_declaration: seed.services.customsDeclaration ?? false,
        locked_customs_declaration: seed.services.lockedCustomsDeclaration ?? false,
        insurance: seed.services.insurance ?? false,
        all_risks: seed.services.allRisks ?? false,
        unloading_warehouse: seed.services.unloadingWarehouse ?? false,
        other_services: seed.services.otherServices ?? false,
      })),
    )
}

export async function seedInquiries(db: Kysely<DB>, manifest: Manifest): Promise<void> {
  await syncEntityTables(db, manifest)
  const tenants = await db.selectFrom('tenant').select(['id', 'settings']).execute()
  for (const tenant of tenants) {
    const settings = (typeof tenant.settings === 'string' ? JSON.parse(tenant.settings) : tenant.settings) as {
      transportationSupport?: number[]
    } | null
    const modes = settings?.transportationSupport ?? []
    if (!modes.length) continue
    await withTenant(db, tenant.id, async (trx) => {
      await (trx as unknown as Kysely<Record<string, Record<string, unknown>>>)
        .insertInto('trade_term_config')
        .values(tradeTermRows(modes).map((row) => ({ ...row, tenant_id: tenant.id })))
        .execute()
    })
  }
}
