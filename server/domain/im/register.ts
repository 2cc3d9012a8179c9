import { sql } from 'kysely'
import type { DerivationContext, EngineRegistry } from '../../engine/index.ts'
import { ApiError } from '../../http/errors.ts'
import { waitMs } from './autoReply.ts'
import { foldFilterText, patternProblem } from './filter.ts'

/**
 * Chat administration (issue #27, screens/im.yaml): the checks the engine runs before it writes a tag, a
 * chat filter, the auto-reply, the tenant's chat settings or a chat account. Each refuses at the field, in the
 * caller's language, rather than let the database's unique index answer a bare 400003.
 */

const refuse = (field: string, message: string) => new ApiError('validation', {}, [{ field, message, params: {} }])

/** The id of the row being changed (null on create): its own name is not a duplicate of itself. */
const ownId = (context: DerivationContext) => (context.before?.id as number | undefined) ?? null

/** A tag's name is unique in the tenant whatever its case (SPEC §5); `nameKey` holds it folded. */
async function imTagName(context: DerivationContext): Promise<Record<string, unknown>> {
  const name = String(context.data.name ?? '').trim()
  const nameKey = name.toLocaleLowerCase('und')
  const { rows } = await sql<{ id: number }>`
    select id from im_tag where tenant_id = ${context.call.tenantId} and name_key = ${nameKey}
      and id is distinct from ${ownId(context)} limit 1`.execute(context.trx)
  if (rows.length) throw refuse('name', 'imAdmin.tagNameTaken')
  return { name, nameKey }
}

/**
 * A pattern the linear matcher takes (server/domain/im/filter.ts); a word is any text. The filter matches
 * whatever the case, so an entry differing from another only by case is a duplicate (`textKey`, folded as the
 * matcher folds). A row written before textKey existed is compared by its text.
 */
async function imChatFilterPattern(context: DerivationContext): Promise<Record<string, unknown>> {
  const text = String(context.data.text ?? '').trim()
  if (context.data.kind === 'pattern') {
    const problem = patternProblem(text)
    if (problem) throw refuse('text', problem)
  }
  if (!text) throw refuse('text', 'validation.required')
  const textKey = foldFilterText(text)
  const { rows } = await sql<{ id: number }>`
    select id from im_chat_filter where tenant_id = ${context.call.tenantId}
      and (text_key = ${textKey} or (text_key is null and lower(text) = ${textKey}))
      and id is distinct from ${ownId(context)} limit 1`.execute(context.trx)
  if (rows.length) throw refuse('text', 'imAdmin.filterTextTaken')
  return { text, textKey }
}

/** The tenant's one auto-reply (`slot` 1, unique), its wait at most a day. */
async function imAutoReplyCheck(context: DerivationContext): Promise<Record<string, unknown>> {
  const { waitValue, waitUnit } = context.data
  if (waitMs({ waitValue: Number(waitValue), waitUnit: waitUnit as 'seconds' }) > 86_400_000)
    throw refuse('waitValue', 'imAdmin.waitTooLong')
  return { slot: 1 }
}

/** SPEC §5's tenant selection: a tenant's operators may select their own tenant only. */
async function imOwnTenant(context: DerivationContext): Promise<Record<string, unknown>> {
  if (Number(context.data.tenantId) !== context.call.tenantId) throw refuse('tenantId', 'imAdmin.notOwnTenant')
  return {}
}

/** A chat account is one of the tenant's enabled operation accounts (provider side, companyUserType 1). */
async function imAccountUser(context: DerivationContext): Promise<Record<string, unknown>> {
  const user = await context.trx
    .selectFrom('app_user')
    .select('id')
    .where('tenant_id', '=', context.call.tenantId)
    .where('id', '=', Number(context.data.user))
    .where('company_user_type', '=', 1)
    .executeTakeFirst()
  if (!user) throw refuse('user', 'imAdmin.notOperationAccount')
  return {}
}

export function register(engine: EngineRegistry): void {
  engine.derivation('imTagName', imTagName)
  engine.derivation('imChatFilterPattern', imChatFilterPattern)
  engine.derivation('imAutoReplyCheck', imAutoReplyCheck)
  engine.derivation('imOwnTenant', imOwnTenant)
  engine.derivation('imAccountUser', imAccountUser)
}
