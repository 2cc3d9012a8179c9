import { type Kysely, sql } from 'kysely'
import type { DB } from '../db/schema.ts'
import { withTenant } from '../tenancy/scope.ts'
import { type ChannelContext, type ChannelTenant, channelFor, registeredKinds, type SendResult } from './channels.ts'
import { onOutboxCommitted } from './outbox.ts'
import { outboxBody } from './sealed.ts'

/**
 * The outbox worker (issue #22). Each round it leases due rows tenant by tenant (row-level security stays on:
 * withTenant) with `for update skip locked` in a short transaction that stamps `leased_until` and counts the
 * attempt, then sends them outside any transaction through the channel of their kind (./channels.ts) and
 * settles each row: sent (a sealed text is dropped, so a code is kept only as its hash), due again after an
 * exponential back-off, or failed with its reason. A process that dies mid-send leaves its lease to run out;
 * the row is then sent again (at-least-once; the Message-ID tells a retry). Several processes on one
 * PostgreSQL never lease the same row at the same time.
 */

export interface WorkerOptions {
  db: Kysely<DB>
  dataDir: string
  env?: NodeJS.ProcessEnv
  log?: ChannelContext['log']
  /** Idle wait between scans (ms). */
  pollMs?: number
  /** Scan right after a commit in this process enqueued (default); off, only polling finds new rows (bench). */
  wakeOnCommit?: boolean
  /** Rows leased per tenant and round. */
  batch?: number
  /** Sends in flight at once. */
  concurrency?: number
  /** How long a lease lasts (ms): longer than the slowest send. */
  leaseMs?: number
  /** Tries before a message is failed. */
  maxAttempts?: number
  /** First retry delay (ms); doubled each try, capped at one hour. */
  retryBaseMs?: number
}

interface LeasedRow {
  id: number
  tenant_id: number
  kind: string
  payload: Record<string, unknown>
  attempts: number
  created_at: Date
}

const quiet: ChannelContext['log'] = { info() {}, warn() {} }
const HOUR = 3_600_000

/** The delay before try `attempts + 1`: base · 2^(attempts − 1), at most an hour. */
export function backoffMs(attempts: number, baseMs: number): number {
  return Math.min(HOUR, baseMs * 2 ** Math.max(0, attempts - 1))
}

function numberFrom(value: string | undefined, fallback: number): number {
  const n = Number(value)
  return value && Number.isFinite(n) && n > 0 ? n : fallback
}

export class OutboxWorker {
  private readonly db: Kysely<DB>
  private readonly env: NodeJS.ProcessEnv
  private readonly log: ChannelContext['log']
  private readonly options: Required<Omit<WorkerOptions, 'db' | 'env' | 'log' | 'wakeOnCommit'>>
  private readonly wakeOnCommit: boolean
  private running = false
  private loop: Promise<void> | undefined
  private wake: (() => void) | undefined
  /** A commit wrote the outbox since the last scan began: scan again before any idle wait. */
  private poked = false
  private unsubscribe: (() => void) | undefined
  private readonly tenants = new Map<number, ChannelTenant>()

  constructor(options: WorkerOptions) {
    const env = options.env ?? process.env
    this.db = options.db
    this.env = env
    this.log = options.log ?? quiet
    this.wakeOnCommit = options.wakeOnCommit ?? true
    this.options = {
      dataDir: options.dataDir,
      pollMs: options.pollMs ?? numberFrom(env.OUTBOX_POLL_MS, 1000),
      batch: options.batch ?? 50,
      concurrency: options.concurrency ?? numberFrom(env.OUTBOX_CONCURRENCY, 8),
      leaseMs: options.leaseMs ?? numberFrom(env.OUTBOX_LEASE_MS, 120_000),
      maxAttempts: options.maxAttempts ?? numberFrom(env.OUTBOX_MAX_ATTEMPTS, 8),
      retryBaseMs: options.retryBaseMs ?? numberFrom(env.OUTBOX_RETRY_BASE_MS, 30_000),
    }
  }

  /** Starts the loop in the background; the API never waits for it. */
  start(): void {
    if (this.running) return
    this.running = true
    // A commit in this process that enqueued wakes the loop (server/jobs/outbox.ts); polling covers the rest.
    if (this.wakeOnCommit) this.unsubscribe = onOutboxCommitted(() => this.poke())
    this.loop = this.run()
  }

  /** Stops after the sends in flight are settled; leased rows not yet sent are released. */
  async stop(): Promise<void> {
    this.running = false
    this.unsubscribe?.()
    this.unsubscribe = undefined
    this.wake?.()
    await this.loop
    this.loop = undefined
  }

  /** Scans now instead of after the idle wait (e.g. right after a commit that enqueued). */
  poke(): void {
    this.poked = true
    this.wake?.()
  }

  private async run(): Promise<void> {
    while (this.running) {
      let handled = 0
      this.poked = false
      try {
        handled = await this.runOnce()
      } catch (error) {
        this.log.warn({ err: error }, 'outbox scan failed; trying again')
      }
      if (handled === 0 && this.running && !this.poked)
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.options.pollMs)
          this.wake = () => {
            clearTimeout(timer)
            resolve()
          }
        })
      this.wake = undefined
    }
  }

  /** One round over every tenant: leases, sends and settles; answers how many rows it handled. */
  async runOnce(): Promise<number> {
    const kinds = registeredKinds()
    if (!kinds.length) return 0
    // A suspended tenant's messages wait, neither sent nor failed, until it is resumed (docs/DECISIONS.md).
    const live = await this.db.selectFrom('tenant').select('id').where('state', '=', 1).orderBy('id').execute()
    const tenantIds = live.map((t) => t.id)
    let handled = 0
    for (const tenantId of tenantIds) {
      if (!this.running && this.loop) break
      const rows = await this.lease(tenantId, kinds)
      if (!rows.length) continue
      handled += rows.length
      await this.deliver(tenantId, rows)
    }
    return handled
  }

  private lease(tenantId: number, kinds: string[]): Promise<LeasedRow[]> {
    const { batch, leaseMs } = this.options
    return withTenant(this.db, tenantId, async (trx) => {
      const { rows } = await sql<LeasedRow>`
        update outbox set leased_until = now() + ${`${leaseMs} milliseconds`}::interval, attempts = attempts + 1
        where id in (
          select id from outbox
          where tenant_id = ${tenantId} and sent_at is null and failed_at is null and next_attempt_at <= now()
            and (leased_until is null or leased_until < now()) and kind = any(${kinds}::text[])
          order by next_attempt_at, id
          limit ${batch}
          for update skip locked)
        returning id, tenant_id, kind, payload, attempts, created_at`.execute(trx)
      return rows.sort((a, b) => a.id - b.id)
    })
  }

  private async deliver(tenantId: number, rows: LeasedRow[]): Promise<void> {
    const tenant = await this.tenant(tenantId)
    const ctx: ChannelContext = { tenant, db: this.db, env: this.env, dataDir: this.options.dataDir, log: this.log }
    const queue = [...rows]
    const unsent: number[] = []
    const workers = Array.from({ length: Math.min(this.options.concurrency, rows.length) }, async () => {
      for (let row = queue.shift(); row; row = queue.shift()) {
        if (!this.running && this.loop) {
          unsent.push(row.id)
          continue
        }
        const result = await this.sendOne(row, ctx)
        await this.settle(tenantId, row, result)
      }
    })
    await Promise.all(workers)
    if (unsent.length) await this.release(tenantId, unsent)
  }

  private async sendOne(row: LeasedRow, ctx: ChannelContext): Promise<SendResult> {
    const channel = channelFor(row.kind)
    if (!channel) return { ok: false, retryable: true, reason: `no channel for ${row.kind}` }
    const { sealed: _sealed, ...payload } = row.payload
    const to = String(row.payload.to ?? '')
    let body: { subject?: string; text: string } | undefined
    try {
      if (typeof row.payload.sealed === 'string' || typeof row.payload.text === 'string')
        body = outboxBody(row.kind, row.payload)
    } catch {
      return {
        ok: false,
        retryable: false,
        reason: 'the sealed message cannot be opened (WAYBILL_AUTH_SECRET changed?)',
      }
    }
    try {
      return await channel.send(
        {
          id: row.id,
          tenantId: row.tenant_id,
          kind: row.kind,
          to,
          payload,
          ...(body ? { body } : {}),
          attempt: row.attempts,
          maxAttempts: this.options.maxAttempts,
          createdAt: row.created_at,
        },
        ctx,
      )
    } catch (error) {
      return { ok: false, retryable: true, reason: error instanceof Error ? error.message : String(error) }
    }
  }

  private async settle(tenantId: number, row: LeasedRow, result: SendResult): Promise<void> {
    await withTenant(this.db, tenantId, async (trx) => {
      if (result.ok) {
        // A secret is not kept once delivered: the verification code lives on only as its hash.
        await sql`
          update outbox set sent_at = now(), leased_until = null, last_error = null,
            payload = case when payload ? 'sealed' then (payload - 'sealed') || '{"sealedCleared": true}'::jsonb else payload end
          where id = ${row.id}`.execute(trx)
        return
      }
      const reason = result.reason.slice(0, 2000)
      if (!result.retryable || row.attempts >= this.options.maxAttempts) {
        await sql`update outbox set failed_at = now(), leased_until = null, last_error = ${reason} where id = ${row.id}`.execute(
          trx,
        )
        this.log.warn({ outboxId: row.id, kind: row.kind, reason }, 'outbox message failed')
        return
      }
      const delay = Math.round(result.retryAfterMs ?? backoffMs(row.attempts, this.options.retryBaseMs))
      await sql`
        update outbox set leased_until = null, last_error = ${reason},
          next_attempt_at = now() + ${`${delay} milliseconds`}::interval
        where id = ${row.id}`.execute(trx)
    })
  }

  /** Gives back leased rows this process will not send (stopping): due at once, the attempt not counted. */
  private async release(tenantId: number, ids: number[]): Promise<void> {
    await withTenant(this.db, tenantId, (trx) =>
      sql`update outbox set leased_until = null, attempts = greatest(attempts - 1, 0) where id = any(${ids}::int[])`.execute(
        trx,
      ),
    )
  }

  private async tenant(id: number): Promise<ChannelTenant> {
    const known = this.tenants.get(id)
    if (known) return known
    const row = await this.db
      .selectFrom('tenant')
      .select(['id', 'code', 'name_zh', 'name_en', 'settings'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    // A name rather than an address (localhost before 127.0.0.1): the Message-ID's host, links.
    const domains = (
      await this.db.selectFrom('tenant_domain').select('domain').where('tenant_id', '=', id).orderBy('domain').execute()
    ).map((d) => d.domain)
    const host = domains.find((d) => !/^[\d.:]+$/.test(d)) ?? domains[0]
    const tenant: ChannelTenant = {
      id: row.id,
      code: row.code,
      nameZh: row.name_zh,
      nameEn: row.name_en,
      host: host ?? `${row.code}.waybill.invalid`,
      settings: (row.settings ?? {}) as Record<string, unknown>,
    }
    this.tenants.set(id, tenant)
    return tenant
  }

  /** Forgets cached tenant settings (after a settings save; the cache lives one process). */
  forgetTenants(): void {
    this.tenants.clear()
  }
}

/** The outbox as operators follow it: counts by state per kind, for one tenant. */
export async function outboxStatus(db: Kysely<DB>, tenantId: number) {
  return withTenant(db, tenantId, async (trx) => {
    const { rows } = await sql<{ kind: string; state: string; count: number }>`
      select kind,
        case when sent_at is not null then 'sent' when failed_at is not null then 'failed'
             when attempts > 0 then 'retrying' else 'pending' end as state,
        count(*)::int as count
      from outbox where tenant_id = ${tenantId} group by 1, 2 order by 1, 2`.execute(trx)
    return rows
  })
}
