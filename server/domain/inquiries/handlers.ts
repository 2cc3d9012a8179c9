import { sql } from 'kysely'
import type { RuleDef } from '../../../model/definitions.ts'
import type { TradeTermOption } from '../../../rules/tradeTerms.ts'
import type { Handlers } from '../../http/endpoints.ts'
import { ApiError } from '../../http/errors.ts'
import type { Manifest } from '../../manifest.ts'

/**
 * The inquiry form's trade terms (schemas/tradeTermConfig.yaml): what the tenant enabled for a trade party
 * and a transport mode, with the services each pre-ticks. The inquiry itself is stored by the engine
 * (POST /booking/inquiry/save), which checks the same Incoterms rule again.
 */

const one = (value: unknown): string | undefined => {
  const first = Array.isArray(value) ? value[0] : value
  return first === undefined || first === null || first === '' ? undefined : String(first)
}

/**
 * The terms the trade-term configuration's own rule refuses off the sea (schemas/tradeTermConfig.yaml
 * `excludedWhen`), and the Incoterms order of its enum: read from the YAML, never repeated here.
 */
function termRules(manifest: Manifest) {
  const entity = manifest.entities.tradeTermConfig
  const rule = entity?.rules?.find((r): r is Extract<RuleDef, { kind: 'excludedWhen' }> => r.kind === 'excludedWhen')
  const terms = (entity?.fields.tradeTerm?.values ?? []).map((v) => String(v.value))
  return {
    /** True when the term may be offered for the mode. */
    allowed: (term: string, mode: number) =>
      !(rule?.values.map(String).includes(term) && (rule.when.includesAny as unknown[]).includes(mode)),
    order: (term: string) => terms.indexOf(term),
  }
}

export const inquiryHandlers = (manifest: Manifest) => {
  const terms = termRules(manifest)
  return {
    async inquiryTradeTerms(ctx) {
      // Checked against schemas/tradeTermQuery.yaml before it gets here.
      const query = ctx.input
      const party = one(query.tradeParty)
      const modeText = one(query.transportMode)
      if (party !== undefined && party !== 'buyer' && party !== 'seller')
        throw new ApiError('validation', {}, [{ field: 'tradeParty', message: 'validation.enum', params: {} }])
      const mode = modeText === undefined ? undefined : Number(modeText)
      if (mode !== undefined && ![1, 2, 3, 4].includes(mode))
        throw new ApiError('validation', {}, [{ field: 'transportMode', message: 'validation.enum', params: {} }])
      const tenantId = ctx.request.tenant.id
      const rows = await ctx.inTenant(async (trx) => {
        const { rows } = await sql<TradeTermOption>`
        select trade_party as "tradeParty", trade_term as "tradeTerm", transport_mode as "transportMode",
          coalesce(is_default, false) as "isDefault", coalesce(need_pick_up, false) as "needPickUp",
          coalesce(delivery_to_consignee, false) as "deliveryToConsignee",
          coalesce(collect_warehouse, false) as "collectWarehouse",
          coalesce(customs_declaration, false) as "customsDeclaration",
          coalesce(locked_customs_declaration, false) as "lockedCustomsDeclaration",
          coalesce(insurance, false) as insurance, coalesce(all_risks, false) as "allRisks",
          coalesce(unloading_warehouse, false) as "unloadingWarehouse",
          coalesce(other_services, false) as "otherServices"
        from trade_term_config
        where tenant_id = ${tenantId} and enabled is not false
          ${party === undefined ? sql`` : sql`and trade_party = ${party}`}
          ${mode === undefined ? sql`` : sql`and transport_mode = ${mode}`}`.execute(trx)
        return rows
      })
      // A configuration saved before the rule existed must still never offer a sea-only term off the sea.
      const allowed = rows.filter((row) => terms.allowed(row.tradeTerm, row.transportMode))
      const order = terms.order
      allowed.sort(
        (a, b) =>
          Number(b.isDefault) - Number(a.isDefault) ||
          order(a.tradeTerm) - order(b.tradeTerm) ||
          a.tradeParty.localeCompare(b.tradeParty) ||
          a.transportMode - b.transportMode,
      )
      return { list: allowed }
    },
  } satisfies Handlers
}
