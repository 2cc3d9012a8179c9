import type { Client } from '../../../generated/client.ts'
import type { ImOpen } from '../../../generated/types.ts'
import type { SessionUser } from '../../session.ts'

/** The chat tab's address (screens/chat.yaml imChat). */
export const CHAT_PATH = '/im'

/**
 * SPEC §2's chat address: the tab's query parameters (userName, companyUserType, tenantId, fromB2B=1,
 * language) and, for a customer's conversation, the one-time cacheKey of the open call.
 */
export function chatAddress(
  user: SessionUser,
  tenantId: string | number | null | undefined,
  language: string,
  cacheKey?: string,
): string {
  const params = new URLSearchParams({
    ...(cacheKey ? { cacheKey } : {}),
    userName: user.userInfo.username,
    companyUserType: String(user.userInfo.companyUserType),
    tenantId: String(tenantId ?? ''),
    fromB2B: '1',
    language,
  })
  return `${CHAT_PATH}?${params}`
}

/**
 * Opens a customer's conversation (about a context, or none) in a new tab: the tab is opened at once, while
 * the click still counts as the user's (a popup blocker lets it through), and sent to the chat once the open
 * call answers its cacheKey; closed again when the call is refused (the client has said why).
 */
export async function openChatTab(client: Client, body: ImOpen, address: (cacheKey: string) => string): Promise<void> {
  const tab = window.open('about:blank', '_blank')
  try {
    const { content } = await client.b2b.imOpen(body)
    const target = address(content.cacheKey)
    if (tab) {
      tab.opener = null
      tab.location.href = target
    } else window.open(target, '_blank', 'noopener')
  } catch (error) {
    tab?.close()
    throw error
  }
}
