import type { ValidateFunction } from 'ajv'
import type { Transaction } from 'kysely'
import { combineOverlays, type OverlayDocument, overlayRuleSchema } from '../../model/overlay.ts'
import type { ManifestEndpoint, ManifestEntity } from '../../model/resolve.ts'
import { createAjv } from '../../rules/ajv.ts'
import { toFieldErrors } from '../../rules/messages.ts'
import type { DB } from '../db/schema.ts'
import { ApiError } from '../http/errors.ts'
import { overlaysInForce } from './store.ts'

/**
 * The server's side of tenant overlays: what the portal hides or locks, the server neither sends nor
 * takes, and rules an overlay tightens are checked here as well as in the form. An endpoint is governed
 * by the overlays of the screens that bind it (manifest `screens`).
 */

export interface EndpointOverlay {
  /** The screens' overlays as one (hidden and locked names united). */
  document: OverlayDocument
  /** The overlays' extra rules, compiled; null when they add none. */
  rules: ValidateFunction | null
}

const ajv = createAjv()
/** Compiled rule schemas by their text: a tenant's overlay compiles once, not on every call. */
const compiled = new Map<string, ValidateFunction>()
const COMPILED_LIMIT = 500

function compileRules(schema: Record<string, unknown>): ValidateFunction {
  const key = JSON.stringify(schema)
  let validate = compiled.get(key)
  if (!validate) {
    if (compiled.size >= COMPILED_LIMIT) compiled.delete(compiled.keys().next().value as string)
    validate = ajv.compile(schema)
    compiled.set(key, validate)
  }
  return validate
}

/**
 * Overlays read before, by database, tenant, stamp and screens. The stamp is the tenant's newest overlay row
 * id, which the caller's session brings (waybill_session, migration 0012): overlays are only ever added, so an
 * unchanged stamp means unchanged overlays, on every replica, and a save is seen by the very next call. A
 * stamp means something only in its own database: a process serving two (the test suites, which run many
 * apps in one process) keeps one memory per database.
 */
const knownByDatabase = new WeakMap<object, Map<string, EndpointOverlay | undefined>>()
const KNOWN_LIMIT = 2_000

function knownIn(database: object): Map<string, EndpointOverlay | undefined> {
  let known = knownByDatabase.get(database)
  if (!known) {
    known = new Map()
    knownByDatabase.set(database, known)
  }
  return known
}

const knownKey = (tenantId: number, endpoint: Pick<ManifestEndpoint, 'screens'>, stamp: number) =>
  `${tenantId}:${stamp}:${endpoint.screens.join(',')}`

/** The overlay of an endpoint as read before at this stamp, without a query; undefined when not known. */
export function knownOverlay(
  database: object,
  tenantId: number,
  endpoint: Pick<ManifestEndpoint, 'screens'>,
  stamp: number | undefined,
): { overlay: EndpointOverlay | undefined } | undefined {
  if (!endpoint.screens.length) return { overlay: undefined }
  if (stamp === undefined) return undefined
  const key = knownKey(tenantId, endpoint, stamp)
  const known = knownIn(database)
  return known.has(key) ? { overlay: known.get(key) } : undefined
}

/**
 * The overlays in force over an endpoint for the caller's tenant, or undefined when none applies. With the
 * session's overlay stamp, read once per stamp (knownOverlay).
 */
export async function endpointOverlay(
  database: object,
  trx: Transaction<DB>,
  tenantId: number,
  endpoint: Pick<ManifestEndpoint, 'screens'>,
  stamp?: number,
): Promise<EndpointOverlay | undefined> {
  const hit = knownOverlay(database, tenantId, endpoint, stamp)
  if (hit) return hit.overlay
  const documents = [...(await overlaysInForce(trx, tenantId, endpoint.screens)).values()].map((o) => o.document)
  const document = combineOverlays(documents)
  const schema = document ? overlayRuleSchema(documents) : null
  const overlay = document ? { document, rules: schema ? compileRules(schema) : null } : undefined
  if (stamp !== undefined) {
    const known = knownIn(database)
    if (known.size >= KNOWN_LIMIT) known.delete(known.keys().next().value as string)
    known.set(knownKey(tenantId, endpoint, stamp), overlay)
  }
  return overlay
}

/** Fields a caller may not set through this endpoint: hidden or read-only on its screens. */
export function lockedFields(overlay: EndpointOverlay | undefined): Set<string> {
  const fields = overlay?.document.fields
  return new Set([...(fields?.hidden ?? []), ...(fields?.readOnly ?? [])])
}

/** The overlay's defaults for what a new record leaves out (hidden fields in particular). */
export function overlayDefaults(overlay: EndpointOverlay | undefined): Record<string, unknown> {
  return { ...(overlay?.document.fields?.defaults ?? {}) }
}

/**
 * Checks a record (as it will be stored) against the overlays' extra rules; an emptied field counts as
 * missing, as in the base validation. Answers 'validation' with field messages like any other rule.
 */
export function checkOverlayRules(
  overlay: EndpointOverlay | undefined,
  record: Record<string, unknown>,
  entity?: Pick<ManifestEntity, 'fields'>,
): void {
  if (!overlay?.rules) return
  const data = Object.fromEntries(Object.entries(record).filter(([, value]) => value !== null && value !== ''))
  if (!overlay.rules(data))
    throw new ApiError('validation', {}, toFieldErrors(overlay.rules.errors, entity ? { fields: entity.fields } : {}))
}

/** A row without some fields, its `labels` of them included (`containers.containerType` goes with containers). */
function withoutFields<T extends Record<string, unknown>>(row: T, names: readonly string[]): T {
  const out: Record<string, unknown> = { ...row }
  for (const name of names) delete out[name]
  if (out.labels && typeof out.labels === 'object') {
    const labels = { ...(out.labels as Record<string, unknown>) }
    for (const key of Object.keys(labels))
      if (names.some((name) => key === name || key.startsWith(`${name}.`))) delete labels[key]
    out.labels = labels
  }
  return out as T
}

/** List and export rows without the columns the overlays hide (and their labels). */
export function withoutHiddenColumns<T extends Record<string, unknown>>(
  overlay: EndpointOverlay | undefined,
  rows: T[],
): T[] {
  const hidden = overlay?.document.columns?.hidden
  return hidden?.length ? rows.map((row) => withoutFields(row, hidden)) : rows
}

/** A record without the fields the overlays hide (a detail screen's hidden fields are not sent either). */
export function withoutHiddenFields<T extends Record<string, unknown>>(
  overlay: EndpointOverlay | undefined,
  row: T,
): T {
  const hidden = overlay?.document.fields?.hidden
  return hidden?.length ? withoutFields(row, hidden) : row
}
