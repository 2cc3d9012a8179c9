import { type SqlBool, sql } from 'kysely'
import type { EngineRegistry } from '../../engine/index.ts'
import { notify } from './events.ts'

/**
 * Letters (schemas/letter.yaml) as the engine reads them: only their recipient ever sees one, whatever
 * their data scope, and the newest comes first.
 */
export function register(engine: EngineRegistry): void {
  engine.visibility('letter', ({ call, table }) => [
    sql<SqlBool>`${sql.ref(`${table}.recipient`)} = ${call.session.userId}`,
  ])
  engine.listOrder('letter', { field: 'updatedAt', order: 'desc' })
  // Business events → letters and mail (./events.ts), named on transitions as `effects: [notify]`.
  engine.effect('notify', notify)
  // Receiving settings: a user reads and changes only their own.
  engine.visibility('letterSetting', ({ call, table }) => [
    sql<SqlBool>`${sql.ref(`${table}.recipient`)} = ${call.session.userId}`,
  ])
}
