import type { Kysely } from 'kysely'
import { enableTenantIsolation, runStatements } from './0001_core.ts'

/**
 * The chat's one-time keys (issue #27, SPEC §7 "IM open" answers content.cacheKey): POST /b2b/im/open writes
 * one, the chat tab opened with it in its URL exchanges it once (POST /b2b/im/enter) for its conversation. Only
 * the key's hash is kept, as for sessions. The conversations and messages themselves are engine tables
 * (schemas/imConversation.yaml, imMessage.yaml), created from the manifest.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create table im_open_key (
      tenant_id int not null references tenant(id),
      key_hash text primary key,
      user_id int not null,
      conversation_id int not null,
      expires_at timestamptz not null,
      used_at timestamptz
    );
    create index im_open_key_expiry on im_open_key (tenant_id, expires_at);
  `,
  )
  await enableTenantIsolation(db, ['im_open_key'])
}
