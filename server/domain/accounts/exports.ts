import { exportProgress } from '../../engine/index.ts'
import type { Handlers } from '../../http/endpoints.ts'
import { ApiError } from '../../http/errors.ts'

/**
 * How far the caller's own export has got (issue #24): the portal asks while an .xlsx streams down, with the
 * id it sent as the export's progressId. Only the caller's own exports, in this tenant, are ever found.
 */
export const exportHandlers = {
  async exportProgress(ctx) {
    const session = ctx.request.session
    if (!session) throw new ApiError('401')
    const { progressId } = ctx.input
    const found = exportProgress(session.tenantId, session.userId, progressId)
    return found
      ? { progressId, ...found, known: true }
      : { progressId, written: 0, total: 0, done: false, known: false }
  },
} satisfies Handlers
