import { type Kysely, sql } from 'kysely'

/** Tenants, their domains, companies, users and roles: the rows every other table hangs from. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create table tenant (
      id serial primary key,
      code text not null unique,
      name_zh text not null,
      name_en text not null,
      version text not null default 'standard' check (version in ('flagship', 'standard', 'basic')),
      settings jsonb not null default '{}',
      state smallint not null default 1,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create table tenant_domain (
      domain text primary key,
      tenant_id int not null references tenant(id)
    );
    create table company (
      tenant_id int not null references tenant(id),
      id serial primary key,
      name text not null,
      name_en text,
      company_type smallint not null,
      created_at timestamptz not null default now()
    );
    create index company_tenant on company (tenant_id, id);
    create table app_user (
      tenant_id int not null references tenant(id),
      id serial primary key,
      company_id int references company(id),
      username text not null,
      real_name text not null,
      email text,
      mobile text,
      password_hash text not null,
      company_user_type smallint not null,
      state smallint not null default 1,
      created_at timestamptz not null default now(),
      last_login_at timestamptz
    );
    create unique index app_user_username on app_user (tenant_id, lower(username));
    create unique index app_user_email on app_user (tenant_id, lower(email)) where email is not null;
    create unique index app_user_mobile on app_user (tenant_id, mobile) where mobile is not null;
    create table role (
      tenant_id int not null references tenant(id),
      id serial primary key,
      code text not null,
      name text not null,
      preset boolean not null default false,
      data_scope text not null default 'all' check (data_scope in ('all', 'self')),
      permissions jsonb not null default '[]',
      status smallint not null default 1,
      unique (tenant_id, code)
    );
    create table user_role (
      tenant_id int not null references tenant(id),
      user_id int not null references app_user(id) on delete cascade,
      role_id int not null references role(id) on delete cascade,
      primary key (tenant_id, user_id, role_id)
    );
  `,
  )
  await enableTenantIsolation(db, ['company', 'app_user', 'role', 'user_role'])
}

/**
 * Row-level security on tenant-owned tables: the application role sees only the rows of the tenant
 * set for the current transaction, and with no tenant set it sees nothing.
 */
export async function enableTenantIsolation(db: Kysely<unknown>, tables: string[]): Promise<void> {
  await sql`
    do $$ begin
      if not exists (select 1 from pg_roles where rolname = 'waybill_app') then
        create role waybill_app nologin;
      end if;
    -- Roles are cluster-wide: another database migrating at the same moment may have just made it.
    exception when duplicate_object or unique_violation then null;
    end $$
  `.execute(db)
  await sql`grant usage on schema public to waybill_app`.execute(db)
  for (const table of tables) {
    const t = sql.table(table)
    await sql`alter table ${t} enable row level security`.execute(db)
    await sql`alter table ${t} force row level security`.execute(db)
    await sql`
      create policy tenant_isolation on ${t}
        using (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
        with check (tenant_id = nullif(current_setting('app.tenant_id', true), '')::int)
    `.execute(db)
    await sql`grant select, insert, update, delete on ${t} to waybill_app`.execute(db)
  }
  await sql`grant usage, select on all sequences in schema public to waybill_app`.execute(db)
  await sql`grant select on tenant, tenant_domain to waybill_app`.execute(db)
}

/** One statement at a time: a prepared statement (PGlite, pg with parameters) takes only one. */
export async function runStatements(db: Kysely<unknown>, script: string): Promise<void> {
  for (const statement of script
    .split(/;\s*$/m)
    .map((s) => s.trim())
    .filter(Boolean)) {
    await sql.raw(statement).execute(db)
  }
}
