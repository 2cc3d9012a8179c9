import type { Kysely } from 'kysely'
import { enableTenantIsolation, runStatements } from './0001_core.ts'

/**
 * Sessions, verification codes, failed logins, one-time tickets and the outbox. Limits (resend waits,
 * codes per hour, lockouts) are counted from these rows rather than in memory, so every replica agrees.
 * Secrets are stored hashed only: a session token, a code, a ticket never appear in clear in a table —
 * except in the outbox payload, which is the message the user is sent.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create table session (
      tenant_id int not null references tenant(id),
      id serial primary key,
      user_id int not null references app_user(id) on delete cascade,
      token_hash text not null,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      revoked_at timestamptz,
      last_seen_at timestamptz not null default now(),
      user_agent text,
      ip text
    );
    create unique index session_token on session (tenant_id, token_hash);
    create index session_by_user on session (tenant_id, user_id) where revoked_at is null;
    create table verification_code (
      tenant_id int not null references tenant(id),
      id serial primary key,
      channel text not null check (channel in ('sms', 'email')),
      target text not null,
      purpose text not null check (purpose in ('login', 'reset', 'bind', 'register')),
      user_id int references app_user(id) on delete cascade,
      code_hash text not null,
      attempts smallint not null default 0,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      used_at timestamptz,
      ip text
    );
    create index verification_code_target on verification_code (tenant_id, target, created_at);
    create index verification_code_ip on verification_code (tenant_id, ip, created_at);
    create table login_failure (
      tenant_id int not null references tenant(id),
      username text not null,
      at timestamptz not null default now(),
      ip text
    );
    create index login_failure_username on login_failure (tenant_id, username, at);
    create index login_failure_ip on login_failure (tenant_id, ip, at);
    create table auth_ticket (
      tenant_id int not null references tenant(id),
      id serial primary key,
      kind text not null check (kind in ('handoff', 'reset')),
      user_id int not null references app_user(id) on delete cascade,
      token_hash text not null,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      used_at timestamptz
    );
    create unique index auth_ticket_token on auth_ticket (tenant_id, token_hash);
    create index auth_ticket_user on auth_ticket (tenant_id, user_id);
    create table outbox (
      tenant_id int not null references tenant(id),
      id serial primary key,
      kind text not null,
      payload jsonb not null,
      created_at timestamptz not null default now(),
      sent_at timestamptz,
      attempts int not null default 0,
      last_error text
    );
    create index outbox_pending on outbox (tenant_id, id) where sent_at is null;
  `,
  )
  await enableTenantIsolation(db, ['session', 'verification_code', 'login_failure', 'auth_ticket', 'outbox'])
}
