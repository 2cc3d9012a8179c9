import { sql } from 'kysely'
import type { EngineRegistry } from '../../engine/index.ts'
import { tenantDay } from '../../tenancy/clock.ts'
import { effectiveState, PROVIDER } from './state.ts'

/**
 * Special-rate applications (schemas/spaApplication.yaml) as the engine reads them: the state a reader sees
 * (`expired`, `passed` once the rate's validity is over, on the tenant's day), the names the lists show, and
 * the operator side seeing the tenant's applications whatever its data scope.
 */
export function register(engine: EngineRegistry): void {
  engine.computedState('spaApplication', async ({ trx, call, table, at }) =>
    effectiveState(table, await tenantDay(trx, call.tenantId, at)),
  )
  engine.computedColumn('spaApplication', 'storedState', ({ table }) => sql.ref(`${table}.state`))
  engine.computedColumn(
    'spaApplication',
    'customerCompanyName',
    ({ table }) => sql`(select c.name from company c
      where c.id = ${sql.ref(`${table}.customer_company`)} and c.tenant_id = ${sql.ref(`${table}.tenant_id`)})`,
  )
  engine.computedColumn(
    'spaApplication',
    'createdByName',
    ({ table }) => sql`(select u.real_name from app_user u
      where u.id = ${sql.ref(`${table}.created_by`)} and u.tenant_id = ${sql.ref(`${table}.tenant_id`)})`,
  )
  // The application last acted on first, as the bargaining goes back and forth.
  engine.listOrder('spaApplication', { field: 'updatedAt', order: 'desc' })
  // The operator's desk reviews every application of the tenant, a self-scoped one (OperationCS) included.
  engine.visibility('spaApplication', ({ call, defaults }) =>
    call.session.companyUserType === PROVIDER ? [] : defaults,
  )
}
