import type { Kysely } from 'kysely'
import type { DB } from '../db/schema.ts'

/**
 * The delivery channels the outbox worker (./worker.ts) hands messages to, keyed by the outbox row's
 * `kind` (issue #22). A channel is registered once at start by the module that implements it:
 *
 *   registerChannel('sms', { async send(message, ctx) { … return { ok: true } } })
 *
 * The worker leases a row, opens it (./sealed.ts) and calls `send` with an {@link OutboxMessage}; the
 * answer decides what happens to the row:
 *   - `{ ok: true }`                               → sent_at is set; a sealed text is cleared (a code is then
 *                                                    kept only as its hash in verification_code);
 *   - `{ ok: false, retryable: true, reason }`     → tried again after an exponential back-off
 *                                                    (30 s, 1 min, 2 min … capped at 1 h) until the row's
 *                                                    max attempts, then failed with the reason;
 *   - `{ ok: false, retryable: false, reason }`    → failed at once (failed_at + last_error): a bad address,
 *                                                    a channel the tenant has not configured.
 * A `send` that throws counts as retryable with the error's message as the reason. `send` must not
 * write to the database in the caller's name: the worker owns the outbox row.
 *
 * A message may be delivered twice when a process dies between the gateway's acceptance and the row's
 * sent_at (at-least-once): `message.id` (the outbox id) is stable across attempts, so a channel passes it
 * on as an idempotency key where the provider takes one (mail: the Message-ID `<outbox-<id>@<host>>`).
 *
 * ## Payloads (what `enqueue(trx, tenantId, kind, payload)` writes; JSON)
 * Every payload has `to` (the recipient, kept in clear so the worker can address it and support can find
 * it). The rest is per kind:
 *
 * **mail** ({@link MailPayload}) — one of
 *   1. rendered:  `{ to, subject, text, html?, language? }` — the worker wraps `text` (or `html`) in the
 *      tenant's branded layout (name, logo, theme colour from the site settings) in `language`;
 *   2. template:  `{ to, template, params?, language? }` — `template` names a mail template
 *      (server/jobs/mail/templates.ts: `<template>` with a subject and a body per language zh, en, ja, es;
 *      `{name}` placeholders filled from `params`, and `{tenant}` from the tenant's name);
 *   3. sealed:    `{ to, sealed }` — a secret (a code, an initial password) sealed by ./sealed.ts with
 *      subject and text inside; cleared after delivery.
 *   `language` is 'zh' | 'en' | 'ja' | 'es' (default: the tenant's default language, else zh).
 *   Optional `replyTo`.
 *
 * **sms** — `{ to, sealed }` or `{ to, text }`, or a provider template `{ to, template, params }`
 * (helper "providers" documents the template mapping with its channel).
 *
 * **wechat** — `{ to: openid, template, params, url? }` (helper "providers").
 *
 * ## Configuration
 * A channel reads the tenant's settings through `ctx.tenant` (the tenant row's id, host, names and its
 * site settings JSON, as schemas/ define them) and, for anything else, `ctx.db` (the owner's
 * connection: read-only use, e.g. a per-tenant provider configuration row). Process-wide settings
 * (SMTP_URL, DATA_DIR) come from `ctx.env`.
 */

/** A kind of outbox row; the worker delivers the kinds that have a registered channel. */
export type ChannelKind = 'mail' | 'sms' | 'wechat' | (string & {})

/** The languages a message may be written in. */
export type MessageLanguage = 'zh' | 'en' | 'ja' | 'es'

/** One outbox row as a channel sees it. */
export interface OutboxMessage<P = Record<string, unknown>> {
  /** The outbox id: stable across attempts, the idempotency key. */
  id: number
  tenantId: number
  kind: ChannelKind
  /** The recipient (`payload.to`). */
  to: string
  /** The payload as enqueued, with a sealed body opened into `body` (the `sealed` field is removed). */
  payload: P
  /** What a sealed or rendered message says, when it says it itself (sms / mail). */
  body?: { subject?: string; text: string }
  /** 1 on the first try. */
  attempt: number
  maxAttempts: number
  createdAt: Date
}

/** The tenant a message is sent for: its branding and settings. */
export interface ChannelTenant {
  id: number
  code: string
  nameZh: string
  nameEn: string
  /** The tenant's first domain (e.g. `demo.example` or `localhost`): Message-ID host, links. */
  host: string
  /** Site settings (SPEC §3, schemas/siteSettings): logo, theme colour, default language, provider keys. */
  settings: Record<string, unknown>
}

export interface ChannelContext {
  tenant: ChannelTenant
  /** The owner's connection (read what a channel's configuration needs; do not write the outbox). */
  db: Kysely<DB>
  env: NodeJS.ProcessEnv
  /** The directory the server keeps its files in (the local mailbox lives under it). */
  dataDir: string
  log: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void }
}

export type SendResult =
  | { ok: true; detail?: string }
  | { ok: false; retryable: boolean; reason: string; retryAfterMs?: number }

export interface Channel {
  send(message: OutboxMessage, ctx: ChannelContext): Promise<SendResult>
  /** Called once when the worker stops (close an SMTP pool, …). */
  close?(): Promise<void>
}

const channels = new Map<string, Channel>()

/** Registers (or replaces, e.g. in a test) the channel for an outbox kind. */
export function registerChannel(kind: ChannelKind, channel: Channel): void {
  channels.set(kind, channel)
}

export function channelFor(kind: string): Channel | undefined {
  return channels.get(kind)
}

export function registeredKinds(): string[] {
  return [...channels.keys()]
}

/**
 * A failure worth another try (a timeout, a 4xx from SMTP, a provider's rate limit), after the worker's back-off —
 * or `afterMs` from now, when the channel knows when it is worth it (a message leased before it is due).
 */
export function retry(reason: string, afterMs?: number): SendResult {
  return {
    ok: false,
    retryable: true,
    reason,
    ...(afterMs === undefined ? {} : { retryAfterMs: Math.max(0, afterMs) }),
  }
}

/** A failure no retry mends (an invalid address, a channel the tenant has not configured). */
export function fail(reason: string): SendResult {
  return { ok: false, retryable: false, reason }
}

export const delivered: SendResult = { ok: true }
