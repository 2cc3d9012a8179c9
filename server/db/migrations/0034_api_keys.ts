import type { Kysely } from 'kysely'
import { enableTenantIsolation, runStatements } from './0001_core.ts'

/**
 * API keys (issue #29, "Open platform"): a program's way in, owned by an enterprise (`company_id`) or, with no
 * company, by the tenant (an operation administrator's key). Only the SHA-256 of the secret is stored
 * (`secret_hash`), never the secret; `prefix` (the first characters, shown in lists) tells keys apart. A key
 * acts as the user who made it (`user_id`), with the permissions in `scopes` that the user still holds
 * (server/auth/apiKeys.ts). Rotation writes a new hash over the old one: the old secret stops at once.
 *
 * The per-key rate limit is a token bucket kept on the row (`bucket_tokens` as of `bucket_at`), taken from in
 * the same statement that finds the key, so every replica draws from one bucket.
 *
 * Keys lead with tenant_id (issue #29's distribution by tenant), with row-level security like the session.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create table api_key (
      tenant_id int not null references tenant(id),
      id int generated always as identity,
      company_id int references company(id),
      user_id int not null references app_user(id) on delete cascade,
      name text not null,
      prefix text not null,
      secret_hash text not null,
      scopes jsonb not null,
      created_at timestamptz not null default now(),
      rotated_at timestamptz,
      last_used_at timestamptz,
      expires_at timestamptz,
      revoked_at timestamptz,
      revoked_by int,
      bucket_tokens double precision,
      bucket_at timestamptz,
      primary key (tenant_id, id)
    );
    create unique index api_key_secret on api_key (tenant_id, secret_hash);
    create index api_key_owner on api_key (tenant_id, company_id)
  `,
  )
  await enableTenantIsolation(db, ['api_key'])
}
