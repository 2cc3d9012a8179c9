import { type Kysely, sql } from 'kysely'

/**
 * The name a customer enterprise's users appear under in the chat (issue #27, /EnterpriseAccountManagementList,
 * schemas/company.yaml imDisplayName); null: the company's name.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table company add column im_display_name text`.execute(db)
}
