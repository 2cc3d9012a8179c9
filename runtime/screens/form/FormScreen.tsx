import { Button, MessageBar, MessageBarBody, makeStyles, Spinner, Title3, tokens } from '@fluentui/react-components'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router'
import type { ManifestScreen } from '../../../model/resolve.ts'
import { useClient } from '../../client.tsx'
import { useEffects } from '../../effects.tsx'
import { EntityForm } from '../../forms/EntityForm.tsx'
import { useTenantScreen } from '../../overlays/useTenantScreen.ts'
import type { ScreenProps } from '../../registry.ts'
import { reloadSession, type SessionUser, useSession } from '../../session.ts'
import { useSiteSettings } from '../../site/SiteSettings.tsx'
import { clientCall, type PortalEntity } from '../manifest.ts'
import { labelledRecord } from './labels.ts'

const useStyles = makeStyles({
  panel: {
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusLarge,
    boxShadow: tokens.shadow2,
    padding: '20px 24px',
    display: 'flex',
    flexDirection: 'column',
    gap: '20px',
    maxWidth: '960px',
  },
  buttons: { display: 'flex', gap: '8px' },
})

type Data = Record<string, unknown>

/**
 * A screen's notice (`notice:` in the YAML, e.g. the new-contact notice of SPEC §3): the site setting's text,
 * as plain text, while its switch is on; null otherwise. Rich text is read by the browser's parser and only
 * its text is shown, so nothing of it runs.
 */
function useNotice(screen: ManifestScreen): string | null {
  const settings = useSiteSettings() as Record<string, unknown> | null
  if (!screen.notice || settings?.[screen.notice.when] !== true) return null
  const html = settings[screen.notice.text]
  if (typeof html !== 'string' || !html.trim()) return null
  const text = new DOMParser().parseFromString(html, 'text/html').body.textContent ?? ''
  return text.replace(/\s+/g, ' ').trim() || null
}

/** The user's own profile is the session user: getCurrentUserInfo answers the profile fields too. */
function profileRecord(user: SessionUser | null): Data | null {
  if (!user) return null
  return { ...(user.currentUserInfo ?? {}), ...user, username: user.userInfo.username }
}

function GenericForm({ screen, entity }: { screen: ManifestScreen; entity: PortalEntity }) {
  const styles = useStyles()
  const { t, i18n } = useTranslation()
  const client = useClient()
  const effects = useEffects()
  const session = useSession()
  const queryClient = useQueryClient()
  const [params] = useSearchParams()
  const [busy, setBusy] = useState(false)
  const id = params.get('id')
  const notice = useNotice(screen)
  const detail = clientCall(client, screen.endpoints?.detail)
  const record = useQuery({
    // The record's labels are in the caller's language: a switch asks again.
    queryKey: ['record', screen.name, id, i18n.language],
    queryFn: async ({ signal }) => ((await detail?.({ id }, signal))?.content ?? null) as Data | null,
    enabled: detail !== null && id !== null,
    retry: false,
  })
  const ownProfile = entity.entity === 'userProfile'
  const data = useMemo(
    () => (ownProfile ? profileRecord(session.user) : (record.data ?? null)),
    [ownProfile, session.user, record.data],
  )
  // Read-only refs show their names (row.labels); the edited fields keep the ids and codes they send back.
  const shown = useMemo(() => labelledRecord(entity, data), [entity, data])
  const kind = screen.endpoints?.update && (data?.id !== undefined || ownProfile) ? 'update' : 'create'
  const formId = `form-${screen.name}`

  const save = async (values: Data) => {
    const call = clientCall(client, screen.endpoints?.[kind])
    if (!call) return
    setBusy(true)
    try {
      const identity = data?.id !== undefined ? { id: data.id, version: data.version } : {}
      await call({ ...values, ...identity })
      effects.toast(t('ui.saved'), { intent: 'success' })
      if (ownProfile || screen.reloadsSession) await reloadSession(queryClient)
      else await queryClient.invalidateQueries({ queryKey: ['record', screen.name] })
    } finally {
      setBusy(false)
    }
  }

  if (!ownProfile && detail && id !== null && record.isPending) return <Spinner label={t('ui.loading')} />
  return (
    <div className={styles.panel}>
      <Title3 as="h1">{t(screen.title)}</Title3>
      {notice && (
        <MessageBar intent="info">
          <MessageBarBody>{notice}</MessageBarBody>
        </MessageBar>
      )}
      {/* A new record (after saving, or another id) starts the form again from it. */}
      <EntityForm
        key={JSON.stringify(data)}
        id={formId}
        entity={entity}
        sections={screen.form?.sections}
        record={shown}
        disabled={busy}
        onSubmit={save}
      />
      <div className={styles.buttons}>
        <Button type="submit" form={formId} appearance="primary" disabled={busy}>
          {t('ui.save')}
        </Button>
      </div>
    </div>
  )
}

/** `kind: form` (DESIGN §4): the manifest screen's entity form, loaded and saved through its endpoints. */
export default function FormScreen({ route }: ScreenProps) {
  const { t } = useTranslation()
  const { ready, screen, entity } = useTenantScreen(route.name)
  if (!ready) return <Spinner />
  if (!screen || !entity) {
    return (
      <MessageBar intent="warning">
        <MessageBarBody>{t('ui.screenMissing', { name: route.name })}</MessageBarBody>
      </MessageBar>
    )
  }
  return <GenericForm screen={screen} entity={entity} />
}
