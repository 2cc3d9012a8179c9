import { sql } from 'kysely'
import { DEFAULT_TIME_ZONE } from '../../../rules/calendar.ts'
import type { EngineRegistry } from '../../engine/index.ts'
import { now } from '../../tenancy/clock.ts'

/** The container type whose freight stands beside a sailing: a 40'HQ, as the rate search prices by default. */
export const SAILING_RATE_CONTAINER = '45G1'

/**
 * Sailing schedules (issue #25; schemas/vesselVoyage.yaml, voyageCall.yaml, sailing.yaml): the sailings view the
 * schedule query lists. A sailing is a pair of calls of one voyage in two countries, the port of loading before the
 * port of discharge, leaving after now (the server's clock). The voyages are shared; the rate beside a sailing is the
 * caller's tenant's own — its cheapest FCL rate on the same ports and carrier, valid on the day the vessel leaves
 * (the tenant's calendar), by the 40'HQ freight — read in the tenant's transaction, so row-level security holds
 * it to that tenant as well.
 */
export function register(engine: EngineRegistry): void {
  engine.view('sailing', ({ trx, call }) => {
    const zone = sql`coalesce((select settings ->> 'timeZone' from tenant where id = ${call.tenantId}), ${DEFAULT_TIME_ZONE})`
    const leaves = sql`(d.etd at time zone ${zone})::date`
    return (
      trx
        .selectFrom(sql`schedule_call`.as('d'))
        .innerJoin(sql`schedule_call`.as('a'), (join) =>
          join.on(sql`a.voyage`, '=', sql`d.voyage`).on(sql`a.sequence`, '>', sql`d.sequence`),
        )
        .innerJoin(sql`schedule_voyage`.as('v'), (join) => join.on(sql`v.id`, '=', sql`d.voyage`))
        .leftJoin(
          sql`lateral (
          select r.id, r.rate_no, r.currency, (p.value ->> 'price')::numeric as price
          from freight_rate r cross join lateral jsonb_array_elements(r.container_prices) p
          where r.tenant_id = ${call.tenantId} and r.mode = 'FCL' and r.pol = d.port and r.pod = a.port
            and r.carrier = v.carrier and r.valid_from <= ${leaves} and r.valid_to >= ${leaves}
            and p.value ->> 'containerType' = ${SAILING_RATE_CONTAINER}
          order by (p.value ->> 'price')::numeric, r.id
          limit 1
        )`.as('r'),
          (join) => join.onTrue(),
        )
        .select([
          sql<number>`${call.tenantId}::integer`.as('tenant_id'),
          // One id per pair of calls: a call's id and the later call's place in the voyage (at most 99 calls).
          sql<number>`d.id * 100 + a.sequence`.as('id'),
          sql<number>`1`.as('version'),
          sql<Date>`v.created_at`.as('created_at'),
          sql<Date>`v.updated_at`.as('updated_at'),
          sql<number | null>`null::integer`.as('created_by'),
          sql<string>`v.carrier`.as('carrier'),
          sql<string>`v.service_code`.as('service_code'),
          sql<string>`v.service_name`.as('service_name'),
          sql<string>`v.vessel_name`.as('vessel_name'),
          sql<string>`v.vessel_imo`.as('vessel_imo'),
          sql<string>`v.voyage_no`.as('voyage_no'),
          sql<string>`d.port`.as('pol'),
          sql<string | null>`coalesce(d.terminal_name, d.terminal)`.as('pol_terminal'),
          sql<Date | null>`d.cut_off`.as('cut_off'),
          sql<Date>`d.etd`.as('etd'),
          sql<string>`a.port`.as('pod'),
          sql<string | null>`coalesce(a.terminal_name, a.terminal)`.as('pod_terminal'),
          sql<Date>`a.eta`.as('eta'),
          sql<number>`ceil(extract(epoch from a.eta - d.etd) / 86400)::integer`.as('transit_days'),
          sql<number | null>`r.id`.as('rate_id'),
          sql<string | null>`r.rate_no`.as('rate_no'),
          sql<string | null>`r.currency`.as('rate_currency'),
          sql<string | null>`r.price`.as('rate_price'),
        ])
        .where(sql`d.etd`, '>', now())
        // Between countries only: a foreign carrier's leg between two ports of one country (Ningbo to Shanghai) is
        // a repositioning call, not a sailing it sells (cabotage).
        .where(sql`left(d.port, 2)`, '<>', sql`left(a.port, 2)`) as never
    )
  })
  /** The next sailing first. */
  engine.listOrder('sailing', { field: 'etd', order: 'asc' })
}
