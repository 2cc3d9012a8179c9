import { sql } from 'kysely'
import type { FieldError } from '../../../rules/messages.ts'
import type { HandlerContext } from '../../http/context.ts'
import type { Handlers } from '../../http/endpoints.ts'
import { ApiError } from '../../http/errors.ts'
import { loadManifest } from '../../manifest.ts'

/**
 * A user's own settings (table user_setting): the columns each list shows, in their order (SPEC §2
 * "column settings per user"). Stored on the server, so they follow the user to any browser.
 */

interface ListColumns {
  screen: string
  columns?: { field: string; hidden?: boolean }[]
}

function listScreen(name: string) {
  const screen = loadManifest().screens.find((s) => s.name === name && s.kind === 'list' && s.columns?.length)
  if (!screen)
    throw new ApiError('validation', {}, [{ field: 'screen', message: 'validation.invalid', params: { name } }])
  return screen
}

function userOf(ctx: HandlerContext) {
  const session = ctx.request.session
  if (!session) throw new ApiError('401')
  return session
}

export const settingHandlers = {
  async listColumnsGet(ctx) {
    const { screen } = ctx.input
    listScreen(screen)
    const session = userOf(ctx)
    const row = await ctx.inTenant((trx) =>
      trx
        .selectFrom('user_setting')
        .select('value')
        .where('tenant_id', '=', session.tenantId)
        .where('user_id', '=', session.userId)
        .where('name', '=', `listColumns:${screen}`)
        .executeTakeFirst(),
    )
    return { screen, columns: (row?.value as ListColumns['columns']) ?? [] }
  },

  async listColumnsSave(ctx) {
    const { input } = ctx
    const screen = listScreen(input.screen)
    const known = new Set((screen.columns ?? []).map((c) => c.field))
    const columns = (input.columns ?? []).map((c) => ({ field: c.field, ...(c.hidden ? { hidden: true } : {}) }))
    const errors: FieldError[] = columns.flatMap((c, index) =>
      known.has(c.field)
        ? []
        : [{ field: `columns[${index}].field`, message: 'validation.enum', params: { values: [...known].join(', ') } }],
    )
    const seen = new Set<string>()
    for (const [index, c] of columns.entries()) {
      if (seen.has(c.field))
        errors.push({ field: `columns[${index}].field`, message: 'validation.uniqueItems', params: {} })
      seen.add(c.field)
    }
    if (errors.length) throw new ApiError('validation', {}, errors)
    const session = userOf(ctx)
    const name = `listColumns:${input.screen}`
    await ctx.inTenant(async (trx) => {
      if (!columns.length) {
        await trx
          .deleteFrom('user_setting')
          .where('tenant_id', '=', session.tenantId)
          .where('user_id', '=', session.userId)
          .where('name', '=', name)
          .execute()
        return
      }
      await trx
        .insertInto('user_setting')
        .values({ tenant_id: session.tenantId, user_id: session.userId, name, value: JSON.stringify(columns) })
        .onConflict((oc) =>
          oc
            .columns(['tenant_id', 'user_id', 'name'])
            .doUpdateSet({ value: JSON.stringify(columns), updated_at: sql`now()` }),
        )
        .execute()
    })
    return { screen: input.screen, columns }
  },
} satisfies Handlers
