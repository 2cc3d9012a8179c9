import { type Kysely, sql } from 'kysely'

/**
 * The enterprise code (issue #21, SPEC §8 "enterprise code not correct"): what a personal user types to ask to
 * join an enterprise (server/domain/membership). Eight letters and digits worked out from the company's tenant,
 * id and name when the row is written, so every company has one whoever creates it (the seed, a certification
 * approved) and the seed's codes are the same on every run. Not a secret: a request to join still waits for
 * the enterprise administrator, and the full name finds the enterprise too.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table company add column join_code text`.execute(db)
  await sql`
    create function company_join_code() returns trigger language plpgsql as $$
    begin
      if new.join_code is null then
        new.join_code := upper(substr(md5(new.tenant_id::text || ':' || new.id::text || ':' || new.name), 1, 8));
      end if;
      return new;
    end $$`.execute(db)
  await sql`create trigger company_join_code before insert on company
    for each row execute function company_join_code()`.execute(db)
  await sql`update company set join_code = upper(substr(md5(tenant_id::text || ':' || id::text || ':' || name), 1, 8))`.execute(
    db,
  )
  await sql`create unique index company_join_code_unique on company (tenant_id, join_code)`.execute(db)
}
