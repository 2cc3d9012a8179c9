import { sql } from 'kysely'
import type { DerivationContext } from '../../engine/index.ts'
import { fieldRefusal } from './join.ts'

/**
 * SPEC §3 newContactInformationCheck (docs/DECISIONS.md): while the site setting is on, a new contact is saved
 * only when its author acknowledged the notice of newContactInformation (noticeConfirmed true), which the form
 * shows above it (screens/enterprise.yaml notice:). Edits of a contact already saved are not asked again.
 */
export async function contactNoticeCheck(context: DerivationContext): Promise<Record<string, unknown>> {
  if (context.before) return {}
  const { rows } = await sql<{ check: boolean | null }>`
    select coalesce(settings->'newContactInformationCheck' = 'true'::jsonb, false) as check
    from tenant where id = ${context.call.tenantId}`.execute(context.trx)
  const setting = rows[0]
  if (setting?.check !== true || context.data.noticeConfirmed === true) return {}
  throw fieldRefusal('noticeConfirmed', 'contact.noticeRequired')
}
