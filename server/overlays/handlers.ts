import { overlayable, savesThroughCustomEndpoint } from '../../model/overlay.ts'
import { readOverlaySource } from '../../model/overlay-source.ts'
import type { FieldError } from '../../rules/messages.ts'
import type { HandlerContext } from '../http/context.ts'
import type { Handlers } from '../http/endpoints.ts'
import { ApiError } from '../http/errors.ts'
import { loadManifest } from '../manifest.ts'
import { insertOverlayVersion, overlaysInForce, overlayVersions } from './store.ts'

/**
 * The overlay calls of screens/system.yaml: the portal reads the overlays in force; a tenant
 * administrator (permission screenOverlay) reads a screen's versions, saves a new one, or rolls back.
 * A save is checked exactly as the editor checks it while typing (model/overlay-source.ts).
 */

function overlayTarget(name: string) {
  const manifest = loadManifest()
  const screen = manifest.screens.find((s) => s.name === name)
  const entity = screen?.entity ? manifest.entities[screen.entity] : undefined
  if (!screen || !entity || !overlayable(screen))
    throw new ApiError('validation', {}, [{ field: 'screen', message: 'overlay.unknownScreen', params: { name } }])
  return { screen, entity, customSave: savesThroughCustomEndpoint(manifest.endpoints, name) }
}

async function latestVersion(ctx: HandlerContext, screen: string): Promise<number> {
  const tenantId = ctx.request.tenant.id
  return ctx.inTenant(async (trx) => {
    const row = await trx
      .selectFrom('screen_overlay')
      .select((eb) => eb.fn.max('version').as('version'))
      .where('tenant_id', '=', tenantId)
      .where('screen', '=', screen)
      .executeTakeFirst()
    return Number(row?.version ?? 0)
  })
}

/** A duplicate version means another save got there first: the editor's copy is stale (330002). */
async function saveVersion(work: Promise<number>): Promise<number> {
  try {
    return await work
  } catch (error) {
    if ((error as { code?: unknown }).code === '23505') throw new ApiError('330002')
    throw error
  }
}

export const overlayHandlers = {
  async screenOverlays(ctx) {
    const tenantId = ctx.request.tenant.id
    const inForce = await ctx.inTenant((trx) => overlaysInForce(trx, tenantId))
    return { screens: Object.fromEntries(inForce) }
  },

  async screenOverlayVersions(ctx) {
    const name = ctx.input.screen
    overlayTarget(name)
    const tenantId = ctx.request.tenant.id
    return { list: await ctx.inTenant((trx) => overlayVersions(trx, tenantId, name)) }
  },

  async screenOverlaySave(ctx) {
    const { input } = ctx
    const { screen, entity, customSave } = overlayTarget(input.screen)
    const source = input.source ?? ''
    const read = readOverlaySource(source, screen, entity, { customSave })
    if (!read.document) {
      const errors: FieldError[] = read.problems.map((p) => ({
        field: 'source',
        message: p.message,
        params: { ...p.params, path: p.path, line: p.line ?? 0, column: p.column ?? 0 },
      }))
      throw new ApiError('validation', {}, errors)
    }
    if ((await latestVersion(ctx, input.screen)) !== input.after) throw new ApiError('330002')
    const tenantId = ctx.request.tenant.id
    const userId = ctx.request.session?.userId as number
    const document = read.document
    const version = await saveVersion(
      ctx.inTenant((trx) =>
        insertOverlayVersion(trx, { tenantId, screen: input.screen, after: input.after, source, document, userId }),
      ),
    )
    return { screen: input.screen, version }
  },

  async screenOverlayRollback(ctx) {
    const { input } = ctx
    const { screen, entity, customSave } = overlayTarget(input.screen)
    const tenantId = ctx.request.tenant.id
    const userId = ctx.request.session?.userId as number
    const version = await saveVersion(
      ctx.inTenant(async (trx) => {
        const versions = await overlayVersions(trx, tenantId, input.screen)
        if ((versions[0]?.version ?? 0) !== input.after) throw new ApiError('330002')
        const earlier = versions.find((v) => v.version === input.version)
        if (!earlier)
          throw new ApiError('validation', {}, [
            { field: 'version', message: 'overlay.unknownVersion', params: { version: input.version } },
          ])
        // The screen may have changed since that version was saved: it must still fit.
        const read = readOverlaySource(earlier.source, screen, entity, { customSave })
        if (!read.document)
          throw new ApiError(
            'validation',
            {},
            read.problems.map((p) => ({ field: 'version', message: p.message, params: { ...p.params, path: p.path } })),
          )
        return insertOverlayVersion(trx, {
          tenantId,
          screen: input.screen,
          after: input.after,
          source: earlier.source,
          document: read.document,
          userId,
          rolledBackFrom: earlier.version,
        })
      }),
    )
    return { screen: input.screen, version }
  },
} satisfies Handlers
