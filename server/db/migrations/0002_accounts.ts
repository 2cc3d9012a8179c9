import type { Kysely } from 'kysely'

/** Sessions, verification codes and login attempts (filled in by the accounts work). */
export async function up(_db: Kysely<unknown>): Promise<void> {}
