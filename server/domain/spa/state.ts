import { sql } from 'kysely'

/** companyUserType of the provider (the tenant's own staff). */
export const PROVIDER = 1

/**
 * The state a reader sees: the stored one, or expired / passed once the rate's validity is over — judged on
 * the tenant's day (server/tenancy/clock.ts), not the database's. `table` is the table's name or alias.
 */
export const effectiveState = (table: string, today: string) => {
  const state = sql.ref(`${table}.state`)
  const validTo = sql.ref(`${table}.valid_to`)
  return sql<string>`case
  when ${state} = 'approved' and ${validTo} < ${today}::date then 'expired'
  when ${state} in ('pending', 'reapply', 'accepted') and ${validTo} < ${today}::date then 'passed'
  else ${state} end`
}
