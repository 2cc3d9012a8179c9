import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components'
import { useQueryClient } from '@tanstack/react-query'
import { type KeyboardEvent, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import type { Client, ListRequest } from '../../generated/client.ts'
import type { LetterPage, LetterRow } from '../../generated/content.ts'
import { useClient } from '../client.tsx'
import { useEffects } from '../effects.tsx'
import { quietClient } from '../quietClient.ts'
import { safeRedirect } from '../routing/access.ts'
import { CountBadge, useTopBarCount } from './CountBadge.tsx'
import { useClickAway } from './MenuButton.tsx'
import { useButtonStyles, usePopupStyles } from './styles.ts'

/** SPEC §3 "Notification letter", as the letter list answers it (schemas/letterRow.yaml). */
export type Letter = LetterRow
/** SPEC §3's page object, plus the caller's unread total for the badge (schemas/letterPage.yaml). */
export type { LetterPage }

/** SPEC §9: the bell shows five letters at a time. */
export const BELL_PAGE_SIZE = 5
export const LETTERS_KEY = ['letters', 'bell'] as const
/** The /letterList screen's list query (runtime/screens/list/useListScreen.ts), refreshed after a read. */
const LETTER_LIST_KEY = ['list', 'letterList'] as const

/** The letter calls (screens/messages.yaml), typed by the generated client. */
export function letterCalls(client: Client) {
  return {
    list: (request: ListRequest, signal?: AbortSignal) => client.b2b.letterList(request, signal),
    read: (id: number) => client.b2b.letterRead({ id }),
    readAll: () => client.b2b.letterReadAll({}),
  }
}

/** Where a letter leads when opened: its record's screen, if it names one of this site. */
export function letterAddress(letter: Pick<Letter, 'link'>): string | null {
  return letter.link ? safeRedirect(letter.link, '') || null : null
}

/** SPEC §9 "more link while pageNum x pageSize < total". */
export function hasMore(page: Pick<LetterPage, 'pageNum' | 'pageSize' | 'total'>): boolean {
  return page.pageNum * page.pageSize < page.total
}

const useStyles = makeStyles({
  bell: { position: 'relative', padding: '4px 8px' },
  surface: { width: '320px', padding: '12px', gap: '8px' },
  header: { display: 'flex', alignItems: 'center', justifyContent: 'space-between' },
  heading: { margin: 0, fontSize: tokens.fontSizeBase300, fontWeight: tokens.fontWeightSemibold },
  list: { display: 'flex', flexDirection: 'column', margin: 0, padding: 0, listStyle: 'none' },
  letter: {
    display: 'flex',
    flexDirection: 'column',
    gap: '2px',
    width: '100%',
    padding: '8px',
    border: 'none',
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: 'transparent',
    color: tokens.colorNeutralForeground1,
    fontFamily: tokens.fontFamilyBase,
    fontSize: tokens.fontSizeBase300,
    textAlign: 'start',
    cursor: 'pointer',
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}` },
  },
  title: { fontWeight: tokens.fontWeightSemibold },
  preview: {
    color: tokens.colorNeutralForeground2,
    fontSize: tokens.fontSizeBase200,
    display: '-webkit-box',
    WebkitLineClamp: '2',
    WebkitBoxOrient: 'vertical',
    overflow: 'hidden',
  },
  time: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase100 },
  quiet: { margin: 0, color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase300 },
  error: { margin: 0, color: tokens.colorPaletteRedForeground1, fontSize: tokens.fontSizeBase300 },
  more: { color: tokens.colorBrandForegroundLink, fontSize: tokens.fontSizeBase300, textDecoration: 'none' },
})

function BellIcon() {
  return (
    <svg width="20" height="20" viewBox="0 0 20 20" aria-hidden="true" fill="currentColor">
      <path d="M10 2a5 5 0 0 0-5 5v3.59l-1.7 2.55A.5.5 0 0 0 3.7 14h12.6a.5.5 0 0 0 .4-.86L15 10.6V7a5 5 0 0 0-5-5Zm-2 13a2 2 0 0 0 4 0H8Z" />
    </svg>
  )
}

/**
 * The notification bell of SPEC §2: the caller's unread letters, five at a time, the badge capped at 99
 * (SPEC §9), "read all", and a link to /letterList while there are more than the dropdown shows. A failed
 * fetch shows the server's message in the dropdown (SPEC §8) rather than toasting every minute.
 */
export function Notifications() {
  const styles = useStyles()
  const buttons = useButtonStyles()
  const popup = usePopupStyles()
  const { t, i18n } = useTranslation()
  const client = useClient()
  const effects = useEffects()
  const queryClient = useQueryClient()
  const [open, setOpen] = useState(false)
  const root = useRef<HTMLDivElement>(null)
  const bell = useRef<HTMLButtonElement>(null)
  const panelId = useId()
  useClickAway(root, open, () => setOpen(false))
  const { query, count, badge } = useTopBarCount(
    LETTERS_KEY,
    async (signal) =>
      (
        await letterCalls(quietClient).list(
          { searchParams: { status: 0 }, pageNum: 1, pageSize: BELL_PAGE_SIZE },
          signal,
        )
      ).content,
    (letters) => letters?.unread ?? 0,
  )
  const page = query.data
  const time = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short' })
  const label = badge ? `${t('ui.notifications')} (${badge})` : t('ui.notifications')

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: LETTERS_KEY }),
      queryClient.invalidateQueries({ queryKey: LETTER_LIST_KEY }),
    ])
  // Failures are toasted by the client (SPEC §8).
  const calls = letterCalls(client)
  // Opening a letter reads it and goes to the record it speaks of (its link), the dropdown closed.
  const openLetter = (letter: Letter) =>
    void calls
      .read(letter.id)
      .then(() => {
        const address = letterAddress(letter)
        if (address) {
          setOpen(false)
          effects.navigate(address)
        }
        return refresh()
      })
      .catch(() => undefined)
  const readAll = () =>
    void calls
      .readAll()
      .then(refresh)
      .catch(() => undefined)
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !open) return
    event.preventDefault()
    setOpen(false)
    bell.current?.focus()
  }

  return (
    <div className={popup.anchor} ref={root}>
      <button
        ref={bell}
        type="button"
        className={mergeClasses(buttons.button, styles.bell)}
        aria-label={label}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onKeyDown={onKeyDown}
        onClick={() => {
          setOpen((now) => !now)
          if (!open) void query.refetch()
        }}
      >
        <BellIcon />
        <CountBadge badge={badge} corner />
      </button>
      {open && (
        <section
          id={panelId}
          role="dialog"
          aria-label={t('ui.notifications')}
          className={mergeClasses(popup.surface, popup.end, styles.surface)}
          onKeyDown={onKeyDown}
        >
          <div className={styles.header}>
            <h2 className={styles.heading}>{t('ui.notifications')}</h2>
            <button
              type="button"
              className={mergeClasses(buttons.button, buttons.small)}
              disabled={!count}
              onClick={readAll}
            >
              {t('ui.readAll')}
            </button>
          </div>
          {query.isError ? (
            <p role="alert" className={styles.error}>
              {query.error.message || t('ui.hasError')}
            </p>
          ) : !page ? (
            <p className={styles.quiet}>{t('ui.loading')}</p>
          ) : page.list.length === 0 ? (
            <p className={styles.quiet}>{t('ui.noNotifications')}</p>
          ) : (
            <ul className={styles.list}>
              {page.list.map((letter) => (
                <li key={letter.id}>
                  <button type="button" className={styles.letter} onClick={() => openLetter(letter)}>
                    <span className={styles.title}>{letter.title}</span>
                    <span className={styles.preview}>{letter.contentWithoutBR}</span>
                    <span className={styles.time}>{time.format(new Date(letter.updateTime))}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
          {page && hasMore(page) && (
            <Link to="/letterList" className={styles.more} onClick={() => setOpen(false)}>
              {t('ui.moreLetters')}
            </Link>
          )}
        </section>
      )}
    </div>
  )
}
