import { sql } from 'kysely'
import type { DerivationContext } from '../../engine/index.ts'
import { fieldRefusal } from './join.ts'

/** Rich text as one line of plain text, for the refusal that quotes the notice. */
function plainText(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 500)
}

/**
 * SPEC §3 newContactInformationCheck (docs/DECISIONS.md): while the site setting is on, a new contact is saved
 * only when its author acknowledged the notice of newContactInformation (noticeConfirmed true); the refusal
 * quotes the notice. Edits of a contact already saved are not asked again.
 */
export async function contactNoticeCheck(context: DerivationContext): Promise<Record<string, unknown>> {
  if (context.before) return {}
  const { rows } = await sql<{ check: boolean | null; notice: string | null }>`
    select (settings->>'newContactInformationCheck')::boolean as check, settings->>'newContactInformation' as notice
    from tenant where id = ${context.call.tenantId}`.execute(context.trx)
  const setting = rows[0]
  if (setting?.check !== true || context.data.noticeConfirmed === true) return {}
  throw fieldRefusal('noticeConfirmed', 'contact.noticeRequired', { notice: plainText(setting.notice ?? '') })
}
