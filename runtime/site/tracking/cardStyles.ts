import { makeStyles, tokens } from '@fluentui/react-components'

/**
 * What the tracking answers' cards share (ShipmentCard, FbaOrderCard): the card, its number and badge, its facts
 * and its events.
 */
export const useCardStyles = makeStyles({
  card: {
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorNeutralBackground1,
    padding: '16px',
    display: 'flex',
    flexDirection: 'column',
    gap: '12px',
    minWidth: 0,
  },
  number: {
    fontSize: tokens.fontSizeBase500,
    fontWeight: tokens.fontWeightSemibold,
    margin: 0,
    wordBreak: 'break-all',
  },
  badge: {
    padding: '2px 8px',
    borderRadius: tokens.borderRadiusCircular,
    backgroundColor: tokens.colorBrandBackground2,
    color: tokens.colorBrandForeground2,
    fontSize: tokens.fontSizeBase200,
  },
  facts: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))',
    gap: '8px 16px',
    margin: 0,
  },
  fact: { margin: 0, minWidth: 0 },
  term: { color: tokens.colorNeutralForeground2, fontSize: tokens.fontSizeBase200 },
  value: { margin: 0, overflowWrap: 'anywhere' },
  sectionTitle: { margin: 0, fontSize: tokens.fontSizeBase400, fontWeight: tokens.fontWeightSemibold },
  events: { listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: '2px' },
  event: {
    display: 'grid',
    gridTemplateColumns: '150px minmax(0, 1fr)',
    gap: '4px 12px',
    padding: '6px 8px',
    borderRadius: tokens.borderRadiusMedium,
    '@media (max-width: 600px)': { gridTemplateColumns: 'minmax(0, 1fr)' },
  },
  time: { color: tokens.colorNeutralForeground2, fontVariantNumeric: 'tabular-nums' },
  detail: { color: tokens.colorNeutralForeground2, fontSize: tokens.fontSizeBase200 },
  note: { color: tokens.colorNeutralForeground2, fontSize: tokens.fontSizeBase200, margin: 0 },
})
