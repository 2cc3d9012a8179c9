import { sql } from 'kysely'
import type { DerivationContext } from '../../engine/index.ts'
import { ApiError } from '../../http/errors.ts'

/**
 * An inquiry names only container types its tenant offers (schemas/containerSetting.yaml, issue #25): with
 * enabled container settings, a line of another type is refused at its cell; a tenant with none offers the
 * whole reference list. The inquiry's look-up (offeredContainerTypes) lists the same.
 */
export async function offeredContainers(context: DerivationContext): Promise<Record<string, unknown>> {
  const { trx, call, data } = context
  const lines = Array.isArray(data.containers) ? (data.containers as { containerType?: unknown }[]) : []
  if (!lines.length) return {}
  const { rows } = await sql<{ container_type: string }>`
    select container_type from container_setting
    where tenant_id = ${call.tenantId} and enabled is not false`.execute(trx)
  if (!rows.length) return {}
  const offered = new Set(rows.map((row) => row.container_type))
  const refused = lines.flatMap((line, i) =>
    typeof line?.containerType === 'string' && !offered.has(line.containerType)
      ? [{ field: `containers[${i}].containerType`, message: 'container.notOffered', params: {} }]
      : [],
  )
  if (refused.length) throw new ApiError('validation', {}, refused)
  return {}
}
