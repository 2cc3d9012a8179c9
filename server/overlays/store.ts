import type { Transaction } from 'kysely'
import type { OverlayDocument } from '../../model/overlay.ts'
import type { DB } from '../db/schema.ts'

/**
 * Tenant screen overlays in the database (migration 0005): one row per saved version, the newest in
 * force. Reads run in the caller's tenant transaction, so row-level security keeps tenants apart too.
 */

export interface OverlayVersion {
  screen: string
  version: number
  source: string
  document: OverlayDocument
  rolledBackFrom: number | null
  createdBy: string | null
  createdAt: string
}

/** The overlays in force, by screen (every screen of the tenant, or those named). Empty documents are none. */
export async function overlaysInForce(
  trx: Transaction<DB>,
  tenantId: number,
  screens?: readonly string[],
): Promise<Map<string, { version: number; document: OverlayDocument }>> {
  if (screens && !screens.length) return new Map()
  let query = trx
    .selectFrom('screen_overlay')
    .distinctOn('screen')
    .select(['screen', 'version', 'document'])
    .where('tenant_id', '=', tenantId)
    .orderBy('screen')
    .orderBy('version', 'desc')
  if (screens) query = query.where('screen', 'in', [...screens])
  const rows = await query.execute()
  return new Map(rows.map((row) => [row.screen, { version: row.version, document: row.document as OverlayDocument }]))
}

/** Every version of one screen's overlay, newest first, with who saved it. */
export async function overlayVersions(
  trx: Transaction<DB>,
  tenantId: number,
  screen: string,
): Promise<OverlayVersion[]> {
  const rows = await trx
    .selectFrom('screen_overlay')
    .leftJoin('app_user', (join) =>
      join
        .onRef('app_user.id', '=', 'screen_overlay.created_by')
        .onRef('app_user.tenant_id', '=', 'screen_overlay.tenant_id'),
    )
    .select([
      'screen_overlay.screen',
      'screen_overlay.version',
      'screen_overlay.source',
      'screen_overlay.document',
      'screen_overlay.rolled_back_from',
      'screen_overlay.created_at',
      'app_user.username',
      'app_user.real_name',
    ])
    .where('screen_overlay.tenant_id', '=', tenantId)
    .where('screen_overlay.screen', '=', screen)
    .orderBy('screen_overlay.version', 'desc')
    .execute()
  return rows.map((row) => ({
    screen: row.screen,
    version: row.version,
    source: row.source,
    document: row.document as OverlayDocument,
    rolledBackFrom: row.rolled_back_from,
    createdBy: row.real_name ? `${row.real_name} (${row.username})` : (row.username ?? null),
    createdAt: new Date(row.created_at as unknown as string).toISOString(),
  }))
}

/**
 * Writes the next version. `after` is the version the editor started from (0 for none): if someone saved
 * in between, the unique (tenant, screen, version) index refuses the row and the caller answers 330002.
 */
export async function insertOverlayVersion(
  trx: Transaction<DB>,
  row: {
    tenantId: number
    screen: string
    after: number
    source: string
    document: OverlayDocument
    userId: number
    rolledBackFrom?: number
  },
): Promise<number> {
  const version = row.after + 1
  await trx
    .insertInto('screen_overlay')
    .values({
      tenant_id: row.tenantId,
      screen: row.screen,
      version,
      source: row.source,
      document: JSON.stringify(row.document),
      rolled_back_from: row.rolledBackFrom ?? null,
      created_by: row.userId,
    })
    .execute()
  return version
}
