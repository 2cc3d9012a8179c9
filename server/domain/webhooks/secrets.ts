import { randomBytes } from 'node:crypto'
import { sql, type Transaction } from 'kysely'
import type { DB } from '../../db/schema.ts'
import { openMessage, sealMessage } from '../../jobs/sealed.ts'

/**
 * Webhook signing secrets (issue #29). A secret must be readable by the server to sign with (HMAC), so it cannot
 * be kept as a hash: it is sealed (AES-256-GCM under WAYBILL_AUTH_SECRET, ../../jobs/sealed.ts) and bound to its
 * tenant and endpoint, so a copy of the database holds no usable secret and one endpoint's sealed value does not
 * open as another's. It is answered once, when issued; the endpoint keeps only its last four characters to show.
 */

const sealedFor = (tenantId: number, endpoint: number) => `${tenantId}:${endpoint}`

/** Issues a new secret for an endpoint (replacing the one it had) and answers it. */
export async function issueSecret(trx: Transaction<DB>, tenantId: number, endpoint: number): Promise<string> {
  const secret = `whsec_${randomBytes(24).toString('base64url')}`
  const sealed = sealMessage('webhook', sealedFor(tenantId, endpoint), { text: secret })
  await sql`
    insert into webhook_secret (tenant_id, endpoint, sealed) values (${tenantId}, ${endpoint}, ${sealed})
    on conflict (tenant_id, endpoint) do update set sealed = excluded.sealed, created_at = now()`.execute(trx)
  await sql`
    update webhook_endpoint set secret_tail = ${secret.slice(-4)}, secret_issued_at = now(), updated_at = now(),
      version = version + 1
    where tenant_id = ${tenantId} and id = ${endpoint}`.execute(trx)
  return secret
}

export function openSecret(tenantId: number, endpoint: number, sealed: string): string {
  return openMessage('webhook', sealedFor(tenantId, endpoint), sealed).text
}
