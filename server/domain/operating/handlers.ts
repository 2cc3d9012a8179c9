import { sql } from 'kysely'
import type * as C from '../../../generated/content.ts'
import type { EngineApi } from '../../engine/index.ts'
import type { HandlerContext } from '../../http/context.ts'
import type { Handlers } from '../../http/endpoints.ts'
import { ApiError } from '../../http/errors.ts'
import { parseId } from '../../http/ids.ts'

/**
 * Operating orders' calls of SPEC §7 besides the engine's list, detail and update (screens/operatorOrders.yaml):
 * the approval record (jobAuditRecord count, detail, approve) and the usages (cargo/job/updateUsages,
 * getUsageHistories). Each goes through the engine's data API, so the data scope (a customer sees their
 * company's only), the state machine, the version check and the ETD edit limit are the screens' own.
 */

const LIST = 'POST /booking/cargo/job/list'
const DETAIL = 'GET /booking/cargo/job/detail'
const UPDATE = 'POST /booking/cargo/job/update'
const TRANSITION = 'operatingOrder.transition'

function callOf(ctx: HandlerContext) {
  const session = ctx.request.session
  if (!session) throw new ApiError('401')
  return { tenantId: ctx.request.tenant.id, session, language: ctx.request.language }
}

interface HistoryItem {
  transition?: string | null
  remark?: string | null
  userId?: number | null
  userName?: string | null
  at?: string
}

/** The approval of a job file, from its row and its history (the approve transition's entry). */
function auditRecord(row: Record<string, unknown>): C.JobAuditRecord {
  const history = (Array.isArray(row.history) ? row.history : []) as HistoryItem[]
  const approval = history.find((entry) => entry.transition === 'approve')
  return {
    id: Number(row.id),
    version: Number(row.version),
    jobNo: String(row.jobNo),
    order: Number(row.order),
    approveState: String(row.approveState),
    submittedAt: String(row.createdAt),
    approvedBy: approval?.userId ?? null,
    approvedByName: approval?.userName ?? null,
    approvedAt: approval?.at ?? null,
    remark: approval?.remark || null,
  }
}

const usagesOf = (value: unknown): C.JobUsage[] =>
  (Array.isArray(value) ? value : []).map((usage: Record<string, unknown>) => ({
    containerType: String(usage.containerType),
    quantity: Number(usage.quantity),
    remark: typeof usage.remark === 'string' ? usage.remark : null,
  }))

export const operatingHandlers = (engine: EngineApi) =>
  ({
    /** The header's number: the job files awaiting approval the caller sees (the list's own total). */
    async jobAuditRecordCount(ctx) {
      const call = callOf(ctx)
      return ctx.inTenant(async (trx) => {
        const page = await engine.list(trx, LIST, call, {
          searchParams: { approveState: ['pending'] },
          pageNum: 1,
          pageSize: 1,
        })
        return page.total
      })
    },

    async jobAuditRecordDetail(ctx) {
      const call = callOf(ctx)
      const id = parseId(ctx.input.id)
      return ctx.inTenant(async (trx) => auditRecord(await engine.detail(trx, DETAIL, call, { id })))
    },

    /** The approve transition (320001 unless pending, 330002 on a stale version), its remark in the history. */
    async jobAuditRecordApprove(ctx) {
      const call = callOf(ctx)
      const { id, version, remark } = ctx.input
      return ctx.inTenant(async (trx) => {
        await engine.transition(trx, TRANSITION, call, {
          id,
          version,
          transition: 'approve',
          ...(remark ? { remark } : {}),
        })
        return auditRecord(await engine.detail(trx, DETAIL, call, { id }))
      })
    },

    /** The job's update with its usages only: checked, limited by the ETD and its history kept as any edit's. */
    async cargoJobUpdateUsages(ctx) {
      const call = callOf(ctx)
      const { id, version, usages } = ctx.input
      return ctx.inTenant(async (trx) => {
        const row = await engine.update(trx, UPDATE, call, { id, version, usages: usages ?? [] })
        return { id: Number(row.id), version: Number(row.version), usages: usagesOf(row.usages) }
      })
    },

    /** The job's usage changes, newest first, once the caller may see the job (404 otherwise). */
    async cargoJobUsageHistories(ctx) {
      const call = callOf(ctx)
      const id = parseId(ctx.input.id)
      return ctx.inTenant(async (trx) => {
        await engine.detail(trx, DETAIL, call, { id })
        const { rows } = await sql<{
          id: number
          job: number
          usages: unknown
          previous: unknown
          created_at: Date
          created_by: number | null
          real_name: string | null
        }>`
          select h.id, h.job, h.usages, h.previous, h.created_at, h.created_by, u.real_name
          from job_usage_history h
          left join app_user u on u.tenant_id = h.tenant_id and u.id = h.created_by
          where h.tenant_id = ${call.tenantId} and h.job = ${id}
          order by h.id desc
          limit 200`.execute(trx)
        return rows.map((row) => ({
          id: row.id,
          job: row.job,
          usages: usagesOf(row.usages),
          previous: usagesOf(row.previous),
          createdAt: new Date(row.created_at).toISOString(),
          createdBy: row.created_by,
          createdByName: row.real_name,
        }))
      })
    },
  }) satisfies Handlers
