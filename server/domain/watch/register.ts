import { sql } from 'kysely'
import type { EngineRegistry } from '../../engine/index.ts'
import { tenantDay } from '../../tenancy/clock.ts'
import { evaluateAfterRateWrite, evaluateOneWatch } from './evaluate.ts'

/**
 * Price watches (schemas/priceWatch.yaml, /priceMonitor, issue #22): the state a reader sees — notStarted
 * before the start date, ended once start + period days have passed, on the tenant's day — and the
 * evaluation that alerts a watcher when the tenant's rates change (./evaluate.ts).
 */
export function register(engine: EngineRegistry): void {
  engine.computedState('priceWatch', async ({ trx, call, table, at }) =>
    watchState(table, await tenantDay(trx, call.tenantId, at)),
  )
  engine.listOrder('priceWatch', { field: 'updatedAt', order: 'desc' })
  engine.effect('priceWatchEvaluate', async ({ trx, call, after, at }) => {
    await evaluateOneWatch(trx, call.tenantId, Number(after.id), at)
  })
  engine.effect('rateChangedWatches', async ({ trx, call, after, at }) => {
    await evaluateAfterRateWrite(trx, call.tenantId, Number(after.id), at)
  })
}

/** The state a reader sees (stored: inProgress or cancelled). `table` is the table's name or alias. */
export const watchState = (table: string, today: string) => {
  const status = sql.ref(`${table}.status`)
  const start = sql.ref(`${table}.start_date`)
  const period = sql.ref(`${table}.period`)
  return sql<string>`case
  when ${status} = 'inProgress' and ${start} > ${today}::date then 'notStarted'
  when ${status} = 'inProgress' and ${start} + ${period}::int <= ${today}::date then 'ended'
  else ${status} end`
}
