import { type Kysely, sql } from 'kysely'

/**
 * FBA service requests (issue #26): when an enterprise asked for FBA direct orders and what it said it would ship
 * (POST /booking/fba/activateFbaService, server/domain/fba/service.ts). The operator then turns the
 * service on with fbaStatus (the enterprise list's services); the request's time stays as a record of it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table company add column fba_applied_at timestamptz, add column fba_apply_note text`.execute(db)
}
