import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components'
import { type QueryKey, useQuery } from '@tanstack/react-query'
import { badgeText } from '../routing/menus.ts'

const useStyles = makeStyles({
  // Fluent's CounterBadge, small and danger-coloured.
  count: {
    minWidth: '16px',
    height: '16px',
    padding: '0 4px',
    boxSizing: 'border-box',
    borderRadius: tokens.borderRadiusCircular,
    backgroundColor: tokens.colorPaletteRedBackground3,
    color: tokens.colorNeutralForegroundOnBrand,
    fontSize: tokens.fontSizeBase100,
    lineHeight: '16px',
    fontWeight: tokens.fontWeightSemibold,
    textAlign: 'center',
  },
  // On the icon's corner rather than beside it (the bell's).
  corner: { position: 'absolute', top: '-2px', right: '-4px' },
})

/**
 * A count of the top bar (the bell's unread letters, the operating orders awaiting approval): fetched when the
 * bar is drawn and every minute after, never retried (a failed fetch waits for the next minute rather than
 * toasting), and its badge text capped at 99 (SPEC §9). `countOf` reads the number out of the answer.
 */
export function useTopBarCount<T>(
  queryKey: QueryKey,
  fetch: (signal: AbortSignal) => Promise<T>,
  countOf: (answer: T | undefined) => number,
) {
  const query = useQuery({
    queryKey,
    queryFn: ({ signal }) => fetch(signal),
    refetchInterval: 60_000,
    retry: false,
  })
  const count = countOf(query.data)
  return { query, count, badge: badgeText(count) }
}

/** The red count beside (or, `corner`, on the corner of) a top-bar icon; nothing when the badge text is empty. */
export function CountBadge({ badge, corner = false }: { badge: string; corner?: boolean }) {
  const styles = useStyles()
  if (!badge) return null
  return (
    <span className={mergeClasses(styles.count, corner && styles.corner)} aria-hidden="true">
      {badge}
    </span>
  )
}
