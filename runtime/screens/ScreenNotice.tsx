import { MessageBar, MessageBarBody } from '@fluentui/react-components'
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import type { ManifestScreen } from '../../model/resolve.ts'
import { useClient } from '../client.tsx'
import { useSiteSettings } from '../site/SiteSettings.tsx'
import { clientCall, namedEndpoint } from './manifest.ts'

/** The answer's plain values, a message's parameters; anything else is left out. */
function parametersOf(content: unknown): Record<string, string | number | boolean> {
  if (!content || typeof content !== 'object') return {}
  const out: Record<string, string | number | boolean> = {}
  for (const [key, value] of Object.entries(content))
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') out[key] = value
  return out
}

/**
 * A screen's notice (`notice:` in the YAML), as plain text, or null while it does not apply. From site settings
 * (SPEC §3's new-contact notice): the setting's rich text, read by the browser's parser so only its text is
 * shown and nothing of it runs. From the server: the locale text `message` while the boolean `when` of the
 * hand-written call's answer is true, the answer's values its parameters (mail kept in the local mailbox).
 */
export function useScreenNotice(screen: ManifestScreen): string | null {
  const { t } = useTranslation()
  const client = useClient()
  const settings = useSiteSettings() as Record<string, unknown> | null
  const notice = screen.notice
  const fromServer = notice && 'call' in notice ? notice : undefined
  const call = fromServer ? clientCall(client, namedEndpoint(fromServer.call)) : null
  const answer = useQuery({
    queryKey: ['notice', screen.name],
    queryFn: async ({ signal }) => (call ? (await call({}, signal)).content : null),
    enabled: call !== null,
    retry: false,
  })
  if (!notice) return null
  if ('call' in notice) {
    const values = parametersOf(answer.data)
    return values[notice.when] === true ? t(notice.message, values) : null
  }
  if (settings?.[notice.when] !== true) return null
  const html = settings[notice.text]
  if (typeof html !== 'string' || !html.trim()) return null
  const text = new DOMParser().parseFromString(html, 'text/html').body.textContent ?? ''
  return text.replace(/\s+/g, ' ').trim() || null
}

/** The notice above a screen, if one applies. */
export function ScreenNotice({ screen }: { screen: ManifestScreen }) {
  const text = useScreenNotice(screen)
  if (!text) return null
  return (
    <MessageBar intent="info" data-notice={screen.name}>
      <MessageBarBody>{text}</MessageBarBody>
    </MessageBar>
  )
}
