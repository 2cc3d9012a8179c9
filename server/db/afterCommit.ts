/**
 * Work to do once a transaction has committed, never if it rolls back: what a change tells this process after
 * the fact (the outbox worker's wake-up). `withTenant` (server/tenancy/scope.ts), the one way a request opens a
 * transaction, runs them after its commit; a callback that throws is the caller's bug and is logged, not raised.
 */
const pending = new WeakMap<object, (() => void)[]>()

export function afterCommit(trx: object, callback: () => void): void {
  const list = pending.get(trx)
  if (list) list.push(callback)
  else pending.set(trx, [callback])
}

/** Runs (once) what `afterCommit` queued on this transaction. */
export function committed(trx: object): void {
  const list = pending.get(trx)
  if (!list) return
  pending.delete(trx)
  for (const callback of list) {
    try {
      callback()
    } catch (error) {
      console.error(error)
    }
  }
}
