import { type Kysely, sql } from 'kysely'

/**
 * Who may download a stored file (issue #17, SPEC §6 "attachment visibility is configurable"): the uploader's
 * enterprise and the field's visibility, both fixed at upload. Files stored before carry no enterprise: with
 * the default visibility only their uploader and the tenant's operators read them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table file add column owner_company int`.execute(db)
  await sql`alter table file add column visibility text not null default 'company'
    check (visibility in ('company', 'operators', 'public'))`.execute(db)
}
