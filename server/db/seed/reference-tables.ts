import { type Kysely, sql } from 'kysely'
import {
  CARGO_AIRLINES,
  CARGO_AIRPORTS,
  CONTAINER_TYPES,
  CURRENCIES,
  DEMO_EXCHANGE_RATES_TO_CNY,
  FULFILMENT_CENTRES,
  listCountries,
  listHsCodes,
  OCEAN_CARRIERS,
  SEA_PORTS,
} from './reference/index.ts'

type Row = Record<string, unknown>

/** The rows of each reference-list table (schemas/<list>.yaml, scope global), from the curated lists in reference/. */
function referenceRows(): Record<string, Row[]> {
  const rates = new Map(DEMO_EXCHANGE_RATES_TO_CNY.map((r) => [r.currency, r.rate_to_cny]))
  return {
    ref_country: listCountries().map((c) => ({
      code: c.code,
      name_en: c.name_en,
      name_zh: c.name_zh,
      name_ja: c.name_ja,
      name_es: c.name_es,
    })),
    ref_port: SEA_PORTS.map((p) => ({
      code: p.code,
      name_en: p.name_en,
      name_zh: p.name_zh,
      country: p.country,
      region: p.region,
    })),
    ref_airport: CARGO_AIRPORTS.map((a) => ({
      code: a.iata,
      icao: a.icao,
      name_en: a.name_en,
      name_zh: a.name_zh,
      city: a.city_en,
      country: a.country,
    })),
    ref_carrier: [
      ...OCEAN_CARRIERS.map((c) => ({
        code: c.scac,
        mode: 'sea',
        name_en: c.name_en,
        name_zh: c.name_zh,
        awb_prefix: null,
      })),
      ...CARGO_AIRLINES.map((c) => ({
        code: c.iata,
        mode: 'air',
        name_en: c.name_en,
        name_zh: c.name_zh,
        awb_prefix: c.awb_prefix,
      })),
    ],
    ref_currency: CURRENCIES.map((c) => ({
      code: c.code,
      numeric: c.numeric,
      minor_units: c.minor_units,
      name_en: c.name_en,
      name_zh: c.name_zh,
      symbol: c.symbol,
      rate_to_cny: rates.get(c.code) ?? null,
    })),
    ref_container_type: CONTAINER_TYPES.map((t) => ({
      code: t.code,
      label: t.label,
      payload_tons: t.payload_t,
      volume_cbm: t.volume_cbm,
      description_en: t.description_en,
      description_zh: t.description_zh,
    })),
    ref_amazon_fc: FULFILMENT_CENTRES.map((f) => ({
      code: f.code,
      country: f.country,
      state: f.state,
      city: f.city,
      address_line1: f.address,
      zip_code: f.zip,
    })),
    ref_hs_code: listHsCodes().map((h) => ({ code: h.code, description_en: h.description_en })),
  }
}

/**
 * Columns added to a list after deployments had loaded it (the engine adds the column, empty): filled
 * where a row has no value yet, so a name an operator wrote is kept.
 */
const ADDED_COLUMNS: Record<string, readonly string[]> = { ref_country: ['name_ja', 'name_es'] }

/** Fills the added columns that are still empty in rows whose code the list knows; answers the rows changed. */
async function fillAddedColumns(db: Kysely<unknown>, table: string, rows: Row[]): Promise<number> {
  let changed = 0
  for (const column of ADDED_COLUMNS[table] ?? []) {
    const { rows: empty } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}
      where ${sql.ref(column)} is null`.execute(db)
    if ((empty[0]?.n ?? 0) === 0) continue
    const values = rows.map((row) => sql`(${row.code}::text, ${row[column]}::text)`)
    const result = await sql`update ${sql.table(table)} as t set ${sql.ref(column)} = v.value
      from (values ${sql.join(values)}) as v(code, value)
      where t.code = v.code and ${sql.ref(`t.${column}`)} is null`.execute(db)
    changed += Number(result.numAffectedRows ?? 0)
  }
  return changed
}

/**
 * Fills each empty reference-list table. Runs on every start: a new deployment gets the lists, an
 * existing one keeps what its operators have edited (columns added since are filled where empty).
 */
export async function loadReferenceData(db: Kysely<unknown>): Promise<number> {
  let inserted = 0
  const any = db as Kysely<Record<string, Row>>
  for (const [table, rows] of Object.entries(referenceRows())) {
    const { rows: count } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(db)
    if ((count[0]?.n ?? 0) > 0) {
      inserted += await fillAddedColumns(db, table, rows)
      continue
    }
    for (let i = 0; i < rows.length; i += 200) {
      await any
        .insertInto(table)
        .values(rows.slice(i, i + 200))
        .execute()
    }
    inserted += rows.length
  }
  return inserted
}
