import type { Kysely } from 'kysely'
import type { Manifest } from '../../manifest.ts'
import type { DB } from '../schema.ts'
import { insertAll } from './rates.ts'
import { CONTAINER_TYPES } from './reference/index.ts'

/**
 * The demo tenant's container settings (/containerConfiguration, issue #25): the dry and reefer types it ships,
 * with the payload and loadable volume it quotes (below the reference list's nominal figures: China's road
 * limits and stowage), and the tank container it no longer offers. Inquiries of the demo tenant name only the
 * enabled ones; acme sets none and offers the whole reference list.
 */
export const DEMO_CONTAINER_SETTINGS = [
  { containerType: '22G1', payloadTons: 21.7, volumeCbm: 28, enabled: true },
  { containerType: '42G1', payloadTons: 26.5, volumeCbm: 58, enabled: true },
  { containerType: '45G1', payloadTons: 26.5, volumeCbm: 68, enabled: true },
  { containerType: 'L5G1', payloadTons: 27.5, volumeCbm: 78, enabled: true },
  { containerType: '22R1', payloadTons: 21, volumeCbm: 26, enabled: true, remarks: 'Plug-in at CNSHA and CNNGB' },
  { containerType: '45R1', payloadTons: 27, volumeCbm: 58, enabled: true, remarks: 'Plug-in at CNSHA and CNNGB' },
  { containerType: '22T1', payloadTons: 21, volumeCbm: 24, enabled: false, remarks: 'ISO tanks: no longer offered' },
] as const

export async function seedContainerSettings(db: Kysely<DB>, manifest: Manifest): Promise<void> {
  const known = new Set(CONTAINER_TYPES.map((c) => c.code))
  for (const row of DEMO_CONTAINER_SETTINGS)
    if (!known.has(row.containerType)) throw new Error(`seed: ${row.containerType} is not a reference container type`)
  const tenant = await db.selectFrom('tenant').select('id').where('code', '=', 'demo').executeTakeFirst()
  if (!tenant) return
  await insertAll(
    db,
    manifest,
    tenant.id,
    'containerSetting',
    DEMO_CONTAINER_SETTINGS.map((row) => ({ ...row })),
  )
}
