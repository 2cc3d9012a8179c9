import type { Kysely } from 'kysely'

/** The generic engine's own tables: audit log (filled in by the engine work). */
export async function up(_db: Kysely<unknown>): Promise<void> {}
