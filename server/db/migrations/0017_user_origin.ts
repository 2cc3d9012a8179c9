import { type Kysely, sql } from 'kysely'

/**
 * What the account lists of issue #21 search and the user calls of SPEC §7 keep on an account (app_user):
 * how it came to the tenant (origin: 0 registered itself on the site, 1 invited by its enterprise, 2 created
 * by the provider's operators), who invited it, and the e-mail address price-watch alerts go to
 * (POST /b2b/user/change/pricePushEmail; none: the account's own e-mail).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table app_user
    add column origin smallint not null default 0,
    add column inviter_id integer references app_user(id) on delete set null,
    add column price_push_email text`.execute(db)
}
