import { type SqlBool, sql } from 'kysely'
import { shiftDay, withinDays } from '../../../rules/dateSpan.ts'
import type { Handlers } from '../../http/endpoints.ts'
import { ApiError } from '../../http/errors.ts'
import { tenantToday } from '../../tenancy/clock.ts'
import { type CallRow, serviceSchedules, type VoyageRow } from './ovs.ts'

/**
 * The DCSA export of the sailing schedules (screens/rates.yaml dcsaServiceSchedules): whole voyages with a call
 * in the window, as OVS 3.0.2 ServiceSchedules (./ovs.ts). The schedules are shared reference data, so the
 * answer is the same on every tenant's host; only the default window is the tenant's today.
 */

/** The longest window one call reads, as the schedule query's (screens/rates.yaml: maxDays of etd). */
export const WINDOW_DAYS = 90

interface OvsQuery {
  carrierServiceCode?: string
  vesselIMONumber?: string
  UNLocationCode?: string
  carrierVoyageNumber?: string
  startDate?: string
  endDate?: string
  limit?: number
}

export const scheduleHandlers = {
  async dcsaServiceSchedules(ctx) {
    const query = ctx.input as OvsQuery
    const today = tenantToday(ctx.request.tenant)
    const start = query.startDate ?? (query.endDate ? shiftDay(query.endDate, 1 - WINDOW_DAYS) : today)
    const end = query.endDate ?? shiftDay(start, WINDOW_DAYS - 1)
    if (!withinDays(start, end, WINDOW_DAYS))
      throw new ApiError('validation', {}, [
        { field: 'endDate', message: 'validation.dateSpan', params: { limit: WINDOW_DAYS } },
      ])
    const limit = query.limit ?? 100
    const document = await ctx.inTenant(async (trx) => {
      const conditions: ReturnType<typeof sql<SqlBool>>[] = [
        sql<SqlBool>`exists (select 1 from schedule_call c where c.voyage = v.id
          and c.etd >= ${start}::date and c.eta < ${end}::date + 1)`,
      ]
      if (query.carrierServiceCode) conditions.push(sql<SqlBool>`v.service_code = ${query.carrierServiceCode}`)
      if (query.vesselIMONumber) conditions.push(sql<SqlBool>`v.vessel_imo = ${query.vesselIMONumber}`)
      if (query.carrierVoyageNumber) conditions.push(sql<SqlBool>`v.voyage_no = ${query.carrierVoyageNumber}`)
      if (query.UNLocationCode)
        conditions.push(
          sql<SqlBool>`exists (select 1 from schedule_call c where c.voyage = v.id and c.port = ${query.UNLocationCode})`,
        )
      // The first `limit` services (OVS's root array), each with every voyage of theirs the query matches.
      const { rows: voyages } = await sql<VoyageRow>`
        with matched as (select v.* from schedule_voyage v where ${sql.join(conditions, sql` and `)}),
        services as (select distinct carrier, service_code from matched order by carrier, service_code limit ${limit})
        select m.id, m.carrier, m.service_code as "serviceCode", m.service_name as "serviceName",
          m.vessel_imo as "vesselImo", m.vessel_name as "vesselName", m.vessel_call_sign as "vesselCallSign",
          m.voyage_no as "voyageNo", m.universal_voyage as "universalVoyage"
        from matched m join services s on s.carrier = m.carrier and s.service_code = m.service_code
        order by m.carrier, m.service_code, m.id`.execute(trx)
      const ids = voyages.map((v) => v.id)
      const { rows: calls } = ids.length
        ? await sql<CallRow>`
            select c.voyage, c.sequence, c.port, p.name_en as "portName", c.eta, c.etd
            from schedule_call c left join ref_port p on p.code = c.port
            where c.voyage = any(${ids}::int[]) order by c.voyage, c.sequence`.execute(trx)
        : { rows: [] as CallRow[] }
      return serviceSchedules(
        voyages,
        calls.map((c) => ({ ...c, eta: new Date(c.eta), etd: new Date(c.etd) })),
      )
    })
    const bytes = Buffer.from(`${JSON.stringify(document)}\n`, 'utf8')
    await ctx.reply
      .header('content-type', 'application/json; charset=utf-8')
      .header('content-length', String(bytes.length))
      .header('API-Version', '3.0.2')
      .header('x-content-type-options', 'nosniff')
      .send(bytes)
    return null
  },
} satisfies Handlers
