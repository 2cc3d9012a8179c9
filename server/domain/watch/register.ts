import type { EngineRegistry } from '../../engine/index.ts'
import { tenantDay } from '../../tenancy/clock.ts'
import { evaluateAfterRateWrite, evaluateOneWatch } from './evaluate.ts'
import { watchState } from './state.ts'

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
