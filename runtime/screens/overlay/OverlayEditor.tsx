import {
  Badge,
  Button,
  Caption1,
  Field,
  MessageBar,
  MessageBarBody,
  makeStyles,
  Select,
  Spinner,
  Text,
  Textarea,
  Title3,
  tokens,
} from '@fluentui/react-components'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { diffLines } from 'diff'
import { useDeferredValue, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router'
import { overlayable, savesThroughCustomEndpoint } from '../../../model/overlay.ts'
import { readOverlaySource, type SourceProblem } from '../../../model/overlay-source.ts'
import { useClient } from '../../client.tsx'
import { useEffects } from '../../effects.tsx'
import { OVERLAYS_KEY } from '../../overlays/useTenantScreen.ts'
import type { ScreenProps } from '../../registry.ts'
import { DETAIL_PANEL } from '../detail/styles.ts'
import { manifest, type PortalEntity } from '../manifest.ts'

/**
 * The tenant administrator's overlay editor (issue #5, DESIGN §1): pick a screen, type its overlay in
 * YAML, see every problem with its line while typing (the same check the server runs on save, eval-free),
 * save a new version, read who saved which version and what it changed, roll back.
 */

const useStyles = makeStyles({
  screen: { display: 'flex', flexDirection: 'column', gap: '16px' },
  columns: { display: 'grid', gridTemplateColumns: 'minmax(0, 3fr) minmax(280px, 2fr)', gap: '16px' },
  panel: { ...DETAIL_PANEL, minWidth: 0 },
  source: { fontFamily: tokens.fontFamilyMonospace, minHeight: '320px' },
  problems: { margin: 0, paddingLeft: '18px', color: tokens.colorPaletteRedForeground1 },
  buttons: { display: 'flex', gap: '8px', alignItems: 'center' },
  versions: { listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: '6px' },
  version: {
    display: 'flex',
    flexDirection: 'column',
    gap: '2px',
    padding: '8px 10px',
    borderRadius: tokens.borderRadiusMedium,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    cursor: 'pointer',
    textAlign: 'left',
    backgroundColor: tokens.colorNeutralBackground1,
  },
  selected: { border: `1px solid ${tokens.colorBrandStroke1}`, backgroundColor: tokens.colorBrandBackground2 },
  diff: {
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    whiteSpace: 'pre-wrap',
    margin: 0,
    maxHeight: '320px',
    overflow: 'auto',
  },
  added: { backgroundColor: tokens.colorPaletteGreenBackground2 },
  removed: { backgroundColor: tokens.colorPaletteRedBackground2, textDecoration: 'line-through' },
})

const EXAMPLE = `# columns:
#   hidden: [jobNo]
#   order: [orderNo, customerCompany]
#   labels:
#     customerCompany: { zh: 委托单位, en: Client }
# search:
#   hidden: [hbl]
# fields:
#   readOnly: [vessel]
#   rules:
#     voyage: { required: true, maxLength: 12 }
# paging:
#   pageSize: 20
`

function Diff({ before, after }: { before: string | undefined; after: string }) {
  const styles = useStyles()
  const { t } = useTranslation()
  if (before === undefined) return <Caption1>{t('overlay.noDiff')}</Caption1>
  return (
    <pre className={styles.diff} data-testid="overlay-diff">
      {diffLines(before, after).map((part, index) => (
        <span
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one diff, drawn once in order
          key={index}
          className={part.added ? styles.added : part.removed ? styles.removed : undefined}
          data-change={part.added ? 'added' : part.removed ? 'removed' : undefined}
        >
          {part.value}
        </span>
      ))}
    </pre>
  )
}

export default function OverlayEditor(_props: ScreenProps) {
  const styles = useStyles()
  const { t } = useTranslation()
  const client = useClient()
  const effects = useEffects()
  const queryClient = useQueryClient()
  const [params, setParams] = useSearchParams()
  const screens = useMemo(() => manifest.screens.filter(overlayable), [])
  const screenName = params.get('screen') ?? screens[0]?.name ?? ''
  const screen = screens.find((s) => s.name === screenName)
  const entity = screen?.entity ? (manifest.entities[screen.entity] as PortalEntity) : undefined
  const customSave = savesThroughCustomEndpoint(manifest.endpoints, screenName)

  const versions = useQuery({
    queryKey: ['overlayVersions', screenName],
    queryFn: async ({ signal }) =>
      (await client.b2b.screenOverlayVersions({ screen: screenName }, signal)).content.list,
    enabled: !!screen,
    retry: false,
  })
  const latest = versions.data?.[0]
  // What is typed and which version is looked at belong to one screen at one saved version: a new
  // screen, or a new version in force, starts over from what is saved.
  const at = `${screenName}@${latest?.version ?? 0}`
  const [edit, setEdit] = useState<{ at: string; text: string } | null>(null)
  const [look, setLook] = useState<{ at: string; version: number } | null>(null)
  const [busy, setBusy] = useState(false)
  const text = edit?.at === at ? edit.text : (latest?.source ?? EXAMPLE)
  const shown = look?.at === at ? look.version : null
  const setSource = (value: string) => setEdit({ at, text: value })
  const setShown = (version: number) => setLook({ at, version })
  const deferred = useDeferredValue(text)
  const problems: SourceProblem[] = useMemo(
    () => (screen && entity ? readOverlaySource(deferred, screen, entity, { customSave }).problems : []),
    [deferred, screen, entity, customSave],
  )

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: ['overlayVersions', screenName] })
    await queryClient.invalidateQueries({ queryKey: OVERLAYS_KEY })
  }

  const save = async () => {
    setBusy(true)
    try {
      const answer = await client.b2b.screenOverlaySave({
        screen: screenName,
        source: text,
        after: latest?.version ?? 0,
      })
      const { version } = answer.content
      effects.toast(t('overlay.saved', { version }), { intent: 'success' })
      await refresh()
    } finally {
      setBusy(false)
    }
  }

  const rollback = async (version: number) => {
    if (!(await effects.confirm({ title: t('overlay.rollback'), body: t('overlay.confirmRollback', { version }) })))
      return
    setBusy(true)
    try {
      const answer = await client.b2b.screenOverlayRollback({
        screen: screenName,
        version,
        after: latest?.version ?? 0,
      })
      effects.toast(t('overlay.rolledBack', { version: answer.content.version }), {
        intent: 'success',
      })
      await refresh()
    } finally {
      setBusy(false)
    }
  }

  const list = versions.data ?? []
  const selected = list.find((v) => v.version === (shown ?? latest?.version))
  const previous = selected ? list.find((v) => v.version < selected.version) : undefined

  return (
    <div className={styles.screen}>
      <Title3 as="h1">{t('route.screenOverlay')}</Title3>
      <Field label={t('overlay.screen')}>
        <Select value={screenName} onChange={(_, data) => setParams({ screen: data.value })}>
          {screens.map((s) => (
            <option key={s.name} value={s.name}>
              {t(s.title)} ({s.route})
            </option>
          ))}
        </Select>
      </Field>
      <div className={styles.columns}>
        <section className={styles.panel}>
          <Text>{t('overlay.help')}</Text>
          <Field label={t('overlay.editor')}>
            <Textarea
              className={styles.source}
              textarea={{ className: styles.source, spellCheck: false }}
              resize="vertical"
              value={text}
              onChange={(_, data) => setSource(data.value)}
            />
          </Field>
          {problems.length ? (
            <div role="alert">
              <Text weight="semibold">{t('overlay.problems', { count: problems.length })}</Text>
              <ul className={styles.problems}>
                {problems.map((problem) => (
                  <li key={`${problem.path}-${problem.message}-${problem.line}`}>
                    {problem.line ? `${t('overlay.at', { line: problem.line, column: problem.column })}: ` : ''}
                    {t(problem.message, problem.params)}
                  </li>
                ))}
              </ul>
            </div>
          ) : (
            <MessageBar intent="success">
              <MessageBarBody>{t('overlay.valid')}</MessageBarBody>
            </MessageBar>
          )}
          <div className={styles.buttons}>
            <Button appearance="primary" disabled={busy || problems.length > 0 || !screen} onClick={() => void save()}>
              {t('overlay.save')}
            </Button>
            {latest && <Badge appearance="tint">{t('overlay.version', { version: latest.version })}</Badge>}
          </div>
        </section>
        <section className={styles.panel} aria-label={t('overlay.versions')}>
          <Text weight="semibold">{t('overlay.versions')}</Text>
          {versions.isPending && screen ? (
            <Spinner size="tiny" />
          ) : list.length === 0 ? (
            <Caption1>{t('overlay.noVersions')}</Caption1>
          ) : (
            <ul className={styles.versions}>
              {list.map((v) => (
                <li key={v.version}>
                  <button
                    type="button"
                    className={`${styles.version} ${selected?.version === v.version ? styles.selected : ''}`}
                    aria-pressed={selected?.version === v.version}
                    onClick={() => setShown(v.version)}
                  >
                    <Text weight="semibold">
                      {t('overlay.version', { version: v.version })}
                      {v.version === latest?.version ? ` · ${t('overlay.current')}` : ''}
                    </Text>
                    <Caption1>
                      {t('overlay.savedBy', { who: v.createdBy ?? '—', when: new Date(v.createdAt).toLocaleString() })}
                      {v.rolledBackFrom ? ` · ${t('overlay.rolledBackFrom', { version: v.rolledBackFrom })}` : ''}
                    </Caption1>
                  </button>
                </li>
              ))}
            </ul>
          )}
          {selected && (
            <>
              <Text weight="semibold">{t('overlay.diff')}</Text>
              <Diff before={previous?.source} after={selected.source} />
              {selected.version !== latest?.version && (
                <Button disabled={busy} onClick={() => void rollback(selected.version)}>
                  {t('overlay.rollback')}
                </Button>
              )}
            </>
          )}
        </section>
      </div>
    </div>
  )
}
