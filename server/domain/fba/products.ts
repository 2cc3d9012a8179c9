import { sql } from 'kysely'
import type { FieldDef } from '../../../model/definitions.ts'
import { snakeCase } from '../../engine/index.ts'
import type { Handlers } from '../../http/endpoints.ts'
import { ApiError } from '../../http/errors.ts'
import type { Manifest } from '../../manifest.ts'
import { parseLimit } from '../reference/lookup.ts'
import { usesFba } from './service.ts'

/**
 * The SKU picker of an FBA order's product lines (screens/fba.yaml fbaProductFuzzyQuery, schemas/fbaOrder.yaml
 * `lookup: fbaProduct`): the caller's enterprise's products by SKU or name, or by ?codes= (SKUs), each option
 * carrying the product's values that the YAML's `fills:` maps name, so a pick fills the line in the browser.
 * Behind the FBA gate and the company wall, like the product list.
 */

/** The product fields some `fills:` over the fbaProduct look-up reads, in the manifest's order. */
function filledFields(manifest: Manifest): string[] {
  const wanted = new Set<string>()
  const walk = (fields: Record<string, FieldDef>) => {
    for (const field of Object.values(fields)) {
      if (field.lookup === 'fbaProduct') for (const from of Object.values(field.fills ?? {})) wanted.add(from)
      if (field.items) walk(field.items)
    }
  }
  for (const entity of Object.values(manifest.entities)) walk(entity.fields)
  const product = manifest.entities.fbaProduct?.fields ?? {}
  return Object.keys(product).filter((name) => wanted.has(name))
}

/** `%`, `_` and `\` in a keyword match themselves. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`)

export function fbaProductHandlers(manifest: Manifest) {
  const fields = filledFields(manifest)
  return {
    async fbaProductFuzzyQuery(ctx) {
      const session = ctx.request.session
      if (!session) throw new ApiError('401')
      const { keyword = '', codes = '', limit } = ctx.input
      const skus = codes
        .split(',')
        .map((c) => c.trim())
        .filter(Boolean)
      const text = keyword.trim()
      const list = await ctx.inTenant(async (trx) => {
        if (!(await usesFba(trx, session))) throw new ApiError('360005')
        // An operator has no products of their own: the picker is the enterprise's.
        if (session.companyId === null) return []
        const columns = fields.map((name) => sql`${sql.ref(snakeCase(name))}::text as ${sql.ref(name)}`)
        const match = skus.length
          ? sql`sku in (${sql.join(skus)})`
          : text
            ? sql`(sku ilike ${`${escapeLike(text)}%`} or name_en ilike ${`%${escapeLike(text)}%`}
                or name_cn ilike ${`%${escapeLike(text)}%`})`
            : sql`true`
        const { rows } = await sql<Record<string, string | null> & { sku: string }>`
          select sku, ${sql.join(columns)} from fba_product
          where tenant_id = ${session.tenantId} and company = ${session.companyId} and ${match}
          order by sku limit ${skus.length ? Math.min(skus.length, 50) : parseLimit(limit)}`.execute(trx)
        return rows
      })
      const chinese = ctx.request.language === 'zh' || ctx.request.language === 'ja'
      return {
        list: list.map((row) => {
          const name = (chinese ? row.nameCn : row.nameEn) ?? row.nameEn ?? row.nameCn ?? row.sku
          return {
            value: row.sku,
            code: row.sku,
            name,
            label: `${row.sku} — ${name}`,
            fields: Object.fromEntries(
              fields.flatMap((field) => (row[field] === null || row[field] === undefined ? [] : [[field, row[field]]])),
            ),
          }
        }),
      }
    },
  } satisfies Handlers
}
