import { makeStyles, tokens } from '@fluentui/react-components'
import type { QuoteComparisonRow } from '../../../generated/content.ts'
import { DETAIL_PANEL } from '../../screens/detail/styles.ts'

export type { InquirySummary } from '../../../generated/content.ts'

/** A quote as the comparison lists it (GET /b2b/quote/listByInquiry, schemas/quoteComparisonRow.yaml). */
export type QuoteRow = QuoteComparisonRow
/** One charge line of a quote as the server answers it (its amount worked out). */
export type ChargeLine = QuoteRow['charges'][number]

export const MODE_KEYS: Record<number, string> = { 1: 'sea', 2: 'air', 3: 'rail', 4: 'truck' }

/** Where "Book" goes for a quote's mode (the booking pages read the quote through GET /b2b/quote/getItem). */
export function bookingPath(quote: Pick<QuoteRow, 'id' | 'transportMode'>, containers: number): string {
  const page =
    quote.transportMode === 2
      ? '/airCreateOrder'
      : quote.transportMode === 1
        ? containers > 0
          ? '/fclCreateOrder'
          : '/lclCreateOrder'
        : '/railwayCreateOrderDirect'
  return `${page}?quoteId=${quote.id}`
}

export const useQuoteStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: '16px', maxWidth: '1200px' },
  panel: DETAIL_PANEL,
  titleRow: { display: 'flex', alignItems: 'center', gap: '12px', flexWrap: 'wrap' },
  title: { margin: 0, fontSize: tokens.fontSizeBase500, fontWeight: tokens.fontWeightSemibold },
  facts: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))', gap: '8px 16px' },
  fact: { display: 'flex', flexDirection: 'column', gap: '2px' },
  factLabel: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
  buttons: { display: 'flex', gap: '8px', flexWrap: 'wrap' },
  totals: { display: 'flex', gap: '24px', flexWrap: 'wrap', alignItems: 'baseline' },
  total: { fontSize: tokens.fontSizeBase500, fontWeight: tokens.fontWeightSemibold },
  note: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
  table: { width: '100%', borderCollapse: 'collapse', '& td, & th': { padding: '4px 8px', textAlign: 'left' } },
  card: {
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    padding: '12px 16px',
    display: 'flex',
    flexDirection: 'column',
    gap: '8px',
  },
  muted: { opacity: 0.6 },
})
