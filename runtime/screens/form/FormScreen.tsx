import { Button, MessageBar, MessageBarBody, makeStyles, Spinner, Title3, tokens } from '@fluentui/react-components'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { use, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router'
import type { ManifestScreen } from '../../../model/resolve.ts'
import { timeZoneOf } from '../../../rules/calendar.ts'
import { editClosed } from '../../../rules/editDeadline.ts'
import { RequestError } from '../../api.ts'
import { useClient } from '../../client.tsx'
import { downloadFrom } from '../../download.ts'
import { useEffects } from '../../effects.tsx'
import { EntityForm } from '../../forms/EntityForm.tsx'
import { hasTexts, textsReady } from '../../i18n.ts'
import { useTenantScreen } from '../../overlays/useTenantScreen.ts'
import type { ScreenProps } from '../../registry.ts'
import { holdsAny } from '../../routing/access.ts'
import { reloadSession, type SessionUser, useSession } from '../../session.ts'
import type { TextBundle } from '../../shell/texts.ts'
import { useSiteSettings } from '../../site/SiteSettings.tsx'
import { History } from '../detail/History.tsx'
import { type HistoryEntry, historyView } from '../detail/layout.ts'
import { useLatestId } from '../latest.ts'
import { type ActionDef, asList, confirmKey } from '../list/actions.ts'
import { clientCall, mayCall, namedEndpoint, type PortalEntity, transitionCall } from '../manifest.ts'
import { ScreenNotice } from '../ScreenNotice.tsx'
import { StateBadge } from '../StateBadge.tsx'
import { stateMachineOf } from '../useStateMachine.ts'
import { labelledRecord } from './labels.ts'
import { prefilledRecord, recordOf, usePrefill } from './prefill.ts'

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: '16px', maxWidth: '960px' },
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
  heading: { display: 'flex', alignItems: 'center', gap: '12px' },
})

type Data = Record<string, unknown>

/** The id a create answered with, if its content is a record. */
function idOf(content: unknown): string | undefined {
  if (!content || typeof content !== 'object' || !('id' in content)) return undefined
  const id = content.id
  return typeof id === 'number' || typeof id === 'string' ? String(id) : undefined
}

const DEADLINE_TEXTS: readonly TextBundle[] = ['server']

/**
 * Whether the record is past its entity's edit deadline (SPEC §9's ETD warning): the rule the engine's update
 * refuses by (rules/editDeadline.ts), with the tenant's settings and this page's clock (the server's, in tests).
 */
function useEditClosed(entity: PortalEntity, record: Data | null): boolean {
  const settings = useSiteSettings() as Record<string, unknown> | null
  // The warning is SPEC §9's client message, kept with the server's (the `server` texts, not loaded up front).
  if (entity.editDeadline && !hasTexts(DEADLINE_TEXTS)) use(textsReady(DEADLINE_TEXTS))
  if (!entity.editDeadline || !record) return false
  return editClosed(entity.editDeadline, record, settings, new Date(), timeZoneOf(settings))
}

/** The user's own profile is the session user: getCurrentUserInfo answers the profile fields too. */
function profileRecord(user: SessionUser | null): Data | null {
  if (!user) return null
  return { ...(user.currentUserInfo ?? {}), ...user, username: user.userInfo.username }
}

export interface GenericFormProps {
  screen: ManifestScreen
  entity: PortalEntity
  /** Shown, not edited (the B/L editor's view mode): no save; the toolbar's transitions fire on the record. */
  readOnly?: boolean
}

/** The form of a `kind: form` screen, and of the hand-written flows built from a screen's sections. */
export function GenericForm({ screen, entity, readOnly = false }: GenericFormProps) {
  const styles = useStyles()
  const { t, i18n } = useTranslation()
  const client = useClient()
  const effects = useEffects()
  const session = useSession()
  const queryClient = useQueryClient()
  const [params, setParams] = useSearchParams()
  const [busy, setBusy] = useState(false)
  // Without ?id=, a screen with a list binding edits the caller's latest record (../latest.ts).
  const latest = useLatestId(screen, params.get('id'))
  const id = latest.id
  const detail = clientCall(client, screen.endpoints?.detail)
  const record = useQuery({
    // The record's labels are in the caller's language: a switch asks again.
    queryKey: ['record', screen.name, id, i18n.language],
    queryFn: async ({ signal }) => recordOf((await detail?.({ id }, signal))?.content),
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
  // `history: true`: the record's change log under the form, as its detail call answers it.
  const history = useMemo(() => {
    const entries = screen.history ? (data?.history as HistoryEntry[] | undefined) : undefined
    return entries ? entries.map((entry) => historyView(entry, entity)) : null
  }, [screen.history, data, entity])
  // A new record opened for another one (?order=<id>): the fields the YAML names start filled in.
  const fromQuery = useMemo(
    () => (id === null ? prefilledRecord(screen, entity, params) : null),
    [id, screen, entity, params],
  )
  // …and, with a prefill call, what the server answers for them (the B/L instruction its order knows).
  const prefill = usePrefill(screen, fromQuery)
  const prefilled = prefill.values
  const kind = screen.endpoints?.update && (data?.id !== undefined || ownProfile) ? 'update' : 'create'
  const formId = `form-${screen.name}`
  const machine = stateMachineOf(entity)
  const state = machine.field ? ((data?.[machine.field] as string | undefined) ?? entity.states?.initial) : undefined
  // Past the record's edit deadline (the ETD limit): warned, shown, not saved; the server refuses it alike.
  const closed = useEditClosed(entity, data)
  // A state the YAML lets no one edit in (an application under review): shown, not saved.
  const stateAllows = !state || !entity.states?.editableIn || entity.states.editableIn.includes(state)
  // A screen that only changes records (/webhookEdit: an endpoint is made from its list, with its secret) offers
  // no Save for a new one: without the call, it would save nothing.
  const savable = screen.endpoints?.[kind] !== undefined
  const editable = savable && !readOnly && !closed && stateAllows
  const stateLocked = savable && !readOnly && !closed && !stateAllows
  // The toolbar's transitions (submit a draft): the form is saved first, then the transition fired on it.
  const allowed = new Set(machine.allowed(state, session.permissions).map((tr) => tr.name))
  const transitions = (screen.actions?.toolbar ?? []).filter((a) => a.transition && allowed.has(a.transition))
  // The record's files (`download:`, the B/L editor's DCSA JSON and draft PDF): offered while it is shown.
  const downloads = (screen.actions?.toolbar ?? []).filter(
    (a) =>
      holdsAny(asList(a.permission), session.permissions) && mayCall(namedEndpoint(a.download), session.permissions),
  )
  const then = useRef<ActionDef | null>(null)

  const save = async (values: Data) => {
    const call = clientCall(client, screen.endpoints?.[kind])
    const action = then.current
    then.current = null
    if (!call) return
    setBusy(true)
    try {
      const identity = data?.id !== undefined ? { id: data.id, version: data.version } : {}
      const answer = (await call({ ...values, ...identity })).content
      const saved = recordOf(answer)
      if (action?.transition && saved?.id !== undefined) {
        await transitionCall(client, screen.entity, action)?.(saved)
        effects.toast(t('ui.actionDone'), { intent: 'success' })
      } else effects.toast(t('ui.saved'), { intent: 'success' })
      // A new record is now the form's record: a second save changes it rather than creating another.
      const created = idOf(answer)
      if (!ownProfile && kind === 'create' && detail && created !== undefined)
        setParams({ id: created }, { replace: true })
    } finally {
      setBusy(false)
      if (ownProfile || screen.reloadsSession) await reloadSession(queryClient)
      else
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: ['record', screen.name] }),
          queryClient.invalidateQueries({ queryKey: ['list'] }),
          ...(screen.reloadsSiteSettings ? [queryClient.invalidateQueries({ queryKey: ['siteSettings'] })] : []),
        ])
    }
  }

  /** A toolbar transition: asked first when it has a confirm text, then the form is submitted with it. */
  const saveAnd = async (action: ActionDef) => {
    const confirm = confirmKey(action, entity)
    if (confirm && !(await effects.confirm({ title: t(action.label), body: t(confirm) }))) return
    if (readOnly) {
      // Nothing to save in a shown record: the transition fires on it as it is.
      const fire = transitionCall(client, screen.entity, action)
      if (!fire || data?.id === undefined) return
      setBusy(true)
      try {
        await fire(data)
        effects.toast(t('ui.actionDone'), { intent: 'success' })
      } finally {
        setBusy(false)
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: ['record', screen.name] }),
          queryClient.invalidateQueries({ queryKey: ['list'] }),
        ])
      }
      return
    }
    then.current = action
    const form = document.getElementById(formId)
    if (form instanceof HTMLFormElement) form.requestSubmit()
  }

  /** A file of the shown record, by its id; a refusal says why (the fields the document lacks). */
  const download = async (action: ActionDef) => {
    const endpoint = namedEndpoint(action.download)
    if (!endpoint || data?.id === undefined) return
    setBusy(true)
    try {
      await downloadFrom(endpoint.path, { id: String(data.id) }, `${action.name}-${String(data.id)}`)
    } catch (error) {
      const fields = error instanceof RequestError ? error.fieldErrors.map((f) => `${f.field}: ${f.message}`) : []
      effects.toast([error instanceof Error ? error.message : String(error), ...fields].join('\n'), {
        intent: 'error',
      })
    } finally {
      setBusy(false)
    }
  }

  if (latest.pending || prefill.pending || (!ownProfile && detail && id !== null && record.isPending))
    return <Spinner label={t('ui.loading')} />
  // The state machine's moves the screen offers, each saving first: in view mode and under the edit form.
  const transitionButtons = transitions.map((action) => (
    <Button
      key={action.name}
      appearance="primary"
      disabled={busy}
      data-action={action.name}
      onClick={() => void saveAnd(action)}
    >
      {t(action.label)}
    </Button>
  ))

  return (
    <div className={styles.page}>
      <div className={styles.panel}>
        <div className={styles.heading}>
          <Title3 as="h1">{t(screen.title)}</Title3>
          {data && state && <StateBadge entity={entity} state={state} />}
        </div>
        {closed && entity.editDeadline && (
          <MessageBar intent="warning" role="alert" data-testid="edit-deadline">
            <MessageBarBody>{t(entity.editDeadline.message)}</MessageBarBody>
          </MessageBar>
        )}
        {stateLocked && (
          <MessageBar intent="info">
            <MessageBarBody>{t('ui.notEditableNow')}</MessageBarBody>
          </MessageBar>
        )}
        <ScreenNotice screen={screen} />
        {/* A new record (after saving, or another id) starts the form again from it. */}
        <EntityForm
          key={JSON.stringify(data ?? prefilled)}
          id={formId}
          entity={entity}
          sections={screen.form?.sections}
          record={shown}
          prefill={prefilled}
          disabled={busy || !editable}
          onSubmit={save}
        />
        {readOnly && data && transitions.length + downloads.length > 0 && (
          <div className={styles.buttons}>
            {transitionButtons}
            {downloads.map((action) => (
              <Button
                key={action.name}
                appearance="secondary"
                disabled={busy}
                data-action={action.name}
                onClick={() => void download(action)}
              >
                {t(action.label)}
              </Button>
            ))}
          </div>
        )}
        {editable && (
          <div className={styles.buttons}>
            <Button
              type="submit"
              form={formId}
              appearance={transitions.length ? 'secondary' : 'primary'}
              disabled={busy}
            >
              {t('ui.save')}
            </Button>
            {transitionButtons}
          </div>
        )}
      </div>
      {history && <History entries={history} entity={entity} />}
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
