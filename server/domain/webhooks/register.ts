import { sql } from 'kysely'
import type { EngineRegistry } from '../../engine/index.ts'
import { ApiError } from '../../http/errors.ts'
import { loopbackAllowed, urlRefusal } from './address.ts'
import { MAX_ENDPOINTS_PER_COMPANY, messageError, messageState, webhookEffect } from './events.ts'

/**
 * Webhooks (issue #29): the `webhook` effect YAML names on the transitions that make an event (order state
 * changes, B/L confirmed, bill issued; tracking events call ./events.ts where they are recorded), the URL check
 * every endpoint write passes, and the delivery log's view (schemas/webhookDelivery.yaml).
 */
export function register(engine: EngineRegistry): void {
  engine.effect('webhook', webhookEffect)

  // Registration refuses what could never be delivered to (docs/SECURITY.md "Webhooks and SSRF"), in the
  // caller's language; and an enterprise's endpoints are bounded, so an event makes a bounded number of messages.
  engine.derivation('webhookEndpointCheck', async ({ trx, call, before, data }) => {
    const refusal = urlRefusal(String(data.url ?? ''), loopbackAllowed())
    if (refusal) throw new ApiError('validation', {}, [{ field: 'url', message: refusal, params: {} }])
    if (!before) {
      const { rows } = await sql<{ count: number }>`
        select count(*)::int as count from webhook_endpoint
        where tenant_id = ${call.tenantId} and company = ${call.session.companyId ?? 0}`.execute(trx)
      if ((rows[0]?.count ?? 0) >= MAX_ENDPOINTS_PER_COMPANY)
        throw new ApiError('validation', {}, [
          { field: 'url', message: 'validation.maxItems', params: { limit: MAX_ENDPOINTS_PER_COMPANY } },
        ])
    }
    return {}
  })

  engine.view(
    'webhookDelivery',
    ({ call }) => sql`
      select d.tenant_id, d.id, d.version, d.created_at, d.updated_at, d.created_by, d.endpoint, d.company,
        d.event_id::text as event_id, d.event_type, d.occurred_at, d.attempts, d.last_status, d.last_attempt_at,
        ${messageState('o')} as status, ${messageError('o')} as last_error
      from webhook_delivery d left join outbox o on o.tenant_id = d.tenant_id and o.id = d.outbox_id
      where d.tenant_id = ${call.tenantId}`,
  )
  engine.listOrder('webhookDelivery', { field: 'id', order: 'desc' })
}
