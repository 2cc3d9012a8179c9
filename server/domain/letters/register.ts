import { type SqlBool, sql } from 'kysely'
import type { EngineRegistry } from '../../engine/index.ts'

/**
 * Letters (schemas/letter.yaml) as the engine reads them: only their recipient ever sees one, whatever
 * their data scope, and the newest comes first.
 */
export function register(engine: EngineRegistry): void {
  engine.visibility('letter', ({ call, table }) => [
    sql<SqlBool>`${sql.ref(`${table}.recipient`)} = ${call.session.userId}`,
  ])
  engine.listOrder('letter', { field: 'updatedAt', order: 'desc' })
}
