import { sql } from 'kysely'

/** The state a reader sees (stored: inProgress or cancelled). `table` is the table's name or alias. */
export const watchState = (table: string, today: string) => {
  const status = sql.ref(`${table}.status`)
  const start = sql.ref(`${table}.start_date`)
  const period = sql.ref(`${table}.period`)
  return sql<string>`case
  when ${status} = 'inProgress' and ${start} > ${today}::date then 'notStarted'
  when ${status} = 'inProgress' and ${start} + ${period}::int <= ${today}::date then 'ended'
  else ${status} end`
}
