import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router'
import { routes } from '../../../generated/routes.ts'
import type { ManifestScreen } from '../../../model/resolve.ts'
import { fieldRulesOf, inactiveFields, withoutInactive } from '../../../rules/uiRules.ts'
import { RequestError } from '../../api.ts'
import { useClient } from '../../client.tsx'
import { downloadFrom, refusalText } from '../../download.ts'
import { useEffects } from '../../effects.tsx'
import { chatAddress, openChatTab } from '../../flows/chat/open.ts'
import { canOpen } from '../../routing/access.ts'
import { WHOLE_MANIFEST } from '../../routing/manifestPart.ts'
import { useSession } from '../../session.ts'
import { useSiteSettings } from '../../site/SiteSettings.tsx'
import { useLatestId } from '../latest.ts'
import {
  type ActionContext,
  type ActionDef,
  confirmKey,
  type RowData,
  recordSent,
  revealedText,
  routeTarget,
} from '../list/actions.ts'
import { useDialogState } from '../list/dialogState.ts'
import {
  clientCall,
  engineCall,
  entityDef,
  loadManifest,
  manifest,
  namedEndpoint,
  type PortalEntity,
  screenDef,
  screenEndpoint,
  transitionCall,
} from '../manifest.ts'
import { detailSections, type HistoryEntry, historyView, linkingLists, offeredActions, recordId } from './layout.ts'

/** A record as the detail call answers it: the row, its reference labels and its history. */
export type DetailRecord = RowData & { labels?: Record<string, unknown>; history?: HistoryEntry[] }

/** SPEC §8: a record that does not exist, or one the caller may not see. */
const NOT_FOUND = '404'
/** SPEC §8 330002: someone changed the record since it was loaded. */
const STALE = '330002'

/**
 * The controller of a generic detail screen (STYLE §2): the record of `?id=`, its sections, the
 * transitions the state machine and the user's permissions allow from its state, running them (with the
 * record's version, so a stale page is refused rather than overwriting), and its history. No markup:
 * DetailScreen.tsx draws what this returns.
 */
export function useDetailScreen(screen: ManifestScreen) {
  const client = useClient()
  const effects = useEffects()
  const session = useSession()
  const settings = useSiteSettings() as Record<string, unknown> | null
  const queryClient = useQueryClient()
  const { t, i18n } = useTranslation()
  const [params] = useSearchParams()
  const [running, setRunning] = useState<string | null>(null)
  /** A transition with `input:` waiting for it: the dialog the screen draws (its confirm text, the input's form). */
  const [asking, setAsking] = useState<{ action: ActionDef; input: PortalEntity; confirm: string | null } | null>(null)
  /** A call on the record (`call:` without a transition) whose `input:` dialog is open. */
  const calling = useDialogState<{ action: ActionDef; input: PortalEntity }>()
  const { show: askFor, close: closeCalling } = calling
  /** What a call answered to be shown this once (`reveals:`, a tracking link): closed, it is gone. */
  const revealed = useDialogState<{ title: string; value: string }>()
  const { show: reveal, close: closeReveal } = revealed
  const entity = entityDef(screen.entity)
  // Without ?id=, a screen with a list binding shows the caller's latest record (../latest.ts).
  const latest = useLatestId(screen, recordId(params.get('id')))
  const id = latest.id
  const recordKey = useMemo(() => ['detail', screen.name, id] as const, [screen.name, id])

  const query = useQuery({
    // The labels (port and company names) are in the caller's language: a switch asks again.
    queryKey: [...recordKey, i18n.language],
    queryFn: async ({ signal }): Promise<DetailRecord | null> => {
      const call = engineCall(client, screen.endpoints?.detail, 'detail')
      if (!call)
        throw new Error(`The generated client has no call for ${screen.name}'s detail: run \`waybill generate\``)
      if (id === null) return null
      try {
        return (await call({ id }, signal)).content
      } catch (error) {
        if (error instanceof RequestError && error.code === NOT_FOUND) return null
        throw error
      }
    },
    enabled: id !== null,
    // A failed call has been toasted already; asking again would toast twice.
    retry: false,
  })
  const record = query.data ?? null

  const sections = useMemo(() => detailSections(screen, entity), [screen, entity])
  /** Fields the YAML's UI rules hide for this record (a goods value without insurance): not shown either. */
  const hidden = useMemo(() => {
    const rules = fieldRulesOf(entity?.fields ?? {}, screen.form?.sections)
    if (!record || !rules.size) return new Set<string>()
    const context = { settings }
    const states = inactiveFields(rules, withoutInactive(rules, record, context), context)
    return new Set([...states].filter(([, state]) => state.hidden).map(([name]) => name))
  }, [entity, screen, record, settings])

  const actionContext: ActionContext = useMemo(
    () => ({
      screen,
      entity,
      permissions: session.permissions,
      endpoint: (kind) => screenEndpoint(screen, kind),
      call: (name) => namedEndpoint(name),
      route: (name) => routes.find((route) => route.name === name),
    }),
    [screen, entity, session.permissions],
  )
  const actions = useMemo(
    () => offeredActions(screen.actions?.toolbar, actionContext, record),
    [screen, actionContext, record],
  )

  const history = useMemo(
    () => (screen.history ? (record?.history ?? []).map((entry) => historyView(entry, entity)) : null),
    [screen.history, record, entity],
  )

  /** Where "back" goes: the first list linking here that the user may open. */
  const back = useMemo(() => {
    for (const name of linkingLists(screen.name, manifest.screens)) {
      const route = routes.find((r) => r.name === name)
      const list = screenDef(name)
      if (route && list && canOpen(route, session.permissions)) return { path: route.path, title: list.title }
    }
    return null
  }, [screen.name, session.permissions])

  const reload = useCallback(() => queryClient.invalidateQueries({ queryKey: recordKey }), [queryClient, recordKey])

  /**
   * Fires a transition (with what its dialog asked, if anything). A refusal of the input itself is thrown
   * back to the dialog's form, which shows it under its fields; anything else ends with the page reloaded.
   */
  const fire = useCallback(
    async (action: ActionDef, input?: Record<string, unknown>) => {
      if (!record || !action.transition) return
      // Through the SPEC endpoint the action names (`call:`), else the entity's transition endpoint.
      const call = transitionCall(client, screen.entity, action)
      if (!call) return
      setRunning(action.name)
      try {
        await call(record, input)
        effects.toast(t('ui.actionDone'), { intent: 'success' })
        setAsking(null)
      } catch (error) {
        if (input && error instanceof RequestError && error.fieldErrors.length) throw error
        setAsking(null)
        // The client has toasted the server's message; a stale page says why it now looks different.
        if (error instanceof RequestError && error.code === STALE)
          effects.toast(t('detail.staleReloaded'), { intent: 'warning' })
      } finally {
        setRunning(null)
      }
      // Either way the page shows the record as it is now, with its new history entry; lists showing it
      // ask again when they are next opened.
      await Promise.all([reload(), queryClient.invalidateQueries({ queryKey: ['list'] })])
    },
    [client, effects, queryClient, record, reload, screen.entity, t],
  )

  /**
   * A call on the record (`call:` without a transition, issue #29: Share): the record's id as the action's `param`
   * names it, its fixed values and what its dialog asked. What the answer `reveals:` is shown once; a refusal of
   * what was asked goes back to the dialog's fields, anything else was said by the client.
   */
  const callRecord = useCallback(
    async (action: ActionDef, asked?: Record<string, unknown>) => {
      if (!record) return
      const call = clientCall(client, namedEndpoint(action.call))
      if (!call) return
      setRunning(action.name)
      try {
        const answer = await call({ ...asked, ...recordSent(action, record) })
        closeCalling()
        const value = revealedText(action, answer.content, window.location.origin)
        if (value !== undefined) reveal({ title: action.label, value })
        else effects.toast(t('ui.actionDone'), { intent: 'success' })
      } catch (error) {
        if (asked && error instanceof RequestError && error.fieldErrors.length) throw error
        closeCalling()
      } finally {
        setRunning(null)
      }
      await reload()
    },
    [client, closeCalling, effects, record, reload, reveal, t],
  )

  /**
   * Runs a header action: a transition that takes input (`input:` in the YAML) asks for it in a dialog, which
   * is its confirmation too; otherwise asks first when it has a confirm text, then fires it or opens the route.
   */
  const run = useCallback(
    async (action: ActionDef) => {
      if (!record) return
      const confirm = confirmKey(action, entity)
      const inputName = action.transition ? entity?.states?.transitions[action.transition]?.input : undefined
      // A screen's part of the manifest carries its own entities; the input's may need the rest of it.
      if (inputName && !entityDef(inputName)) await loadManifest(WHOLE_MANIFEST)
      const input = entityDef(inputName)
      if (input) {
        setAsking({ action, input, confirm })
        return
      }
      if (confirm && !(await effects.confirm({ title: t(action.label), body: t(confirm) }))) return
      if (action.route) {
        const route = routes.find((r) => r.name === action.route)
        if (route) effects.navigate(routeTarget(route.path, action, record.id))
        return
      }
      if (action.chat && session.user) {
        const user = session.user
        const contextRef = String(record[action.chat.contextRef] ?? '')
        const address = (cacheKey: string) =>
          chatAddress(user, settings?.tenantId as number | undefined, i18n.language, cacheKey)
        // A refusal was said by the client, in the reader's language.
        await openChatTab(client, { contextType: action.chat.contextType, contextRef }, address).catch(() => undefined)
        return
      }
      if (action.call && !action.transition) {
        if (action.input && !entityDef(action.input)) await loadManifest(WHOLE_MANIFEST)
        const callInput = entityDef(action.input)
        if (callInput) askFor({ action, input: callInput })
        else await callRecord(action)
        return
      }
      if (action.download) {
        const endpoint = namedEndpoint(action.download)
        if (!endpoint) return
        setRunning(action.name)
        try {
          await downloadFrom(endpoint.path, { id: String(record.id) }, `${action.name}-${record.id}`)
        } catch (error) {
          // Why the server refused the file (the fields the document lacks), in the reader's language.
          effects.toast(refusalText(error), { intent: 'error' })
        } finally {
          setRunning(null)
        }
        return
      }
      await fire(action)
    },
    [askFor, callRecord, client, effects, entity, fire, i18n.language, record, session.user, settings, t],
  )

  /** The dialog's answer: the transition fired with it. */
  const answer = useCallback(
    async (input: Record<string, unknown>) => {
      if (asking) await fire(asking.action, input)
    },
    [asking, fire],
  )
  const cancelInput = useCallback(() => setAsking(null), [])
  /** The call's dialog answered: the call made with what it asked. */
  const answerCall = useCallback(
    async (asked: Record<string, unknown>) => {
      if (calling.shown && calling.open) await callRecord(calling.shown.action, asked)
    },
    [calling.shown, calling.open, callRecord],
  )
  const cancelCall = useCallback(() => closeCalling(), [closeCalling])
  // A secret is not kept in the closing dialog.
  const closeRevealed = useCallback(() => closeReveal((shown) => ({ ...shown, value: '' })), [closeReveal])

  const status =
    id === null && latest.pending
      ? ('loading' as const)
      : id === null && screen.endpoints?.list
        ? ('none' as const)
        : id === null
          ? ('noId' as const)
          : query.isPending
            ? ('loading' as const)
            : query.isError
              ? ('error' as const)
              : record === null
                ? ('notFound' as const)
                : ('ready' as const)

  return {
    screen,
    entity,
    id,
    record,
    status,
    error: query.error,
    fetching: query.isFetching,
    sections,
    hidden,
    actions,
    history,
    back,
    running,
    run,
    asking,
    answer,
    cancelInput,
    calling,
    answerCall,
    cancelCall,
    revealed,
    closeRevealed,
    reload,
  }
}

export type DetailController = ReturnType<typeof useDetailScreen>
