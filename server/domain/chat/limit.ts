import { ApiError } from '../../http/errors.ts'

/**
 * Messages a user may send: at most MESSAGES in WINDOW_MS, over the socket and the send call together. Kept in
 * the process (a user's socket and their calls reach the process their connection is on); with N processes a
 * user who spreads connections over all of them gets N times the allowance, which still bounds them.
 */
export const MESSAGES = 20
export const WINDOW_MS = 10_000
const sent = new Map<string, number[]>()

/** Counts one message of the user, or refuses it with 381005. */
export function countMessage(tenantId: number, userId: number, at: number = Date.now()): void {
  const key = `${tenantId}:${userId}`
  const recent = (sent.get(key) ?? []).filter((t) => at - t < WINDOW_MS)
  if (recent.length >= MESSAGES) {
    sent.set(key, recent)
    throw new ApiError('381005')
  }
  recent.push(at)
  sent.set(key, recent)
  // Users gone quiet are forgotten, so the map stays as large as the users of the last window.
  if (sent.size > 10_000) for (const [k, times] of sent) if (!times.some((t) => at - t < WINDOW_MS)) sent.delete(k)
}
