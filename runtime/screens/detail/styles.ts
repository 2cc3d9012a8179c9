import { type GriffelStyle, tokens } from '@fluentui/react-components'

/** A white card of a page: a record's sections, files and history, a quote, an overlay's source. */
export const DETAIL_PANEL: GriffelStyle = {
  backgroundColor: tokens.colorNeutralBackground1,
  borderRadius: tokens.borderRadiusLarge,
  boxShadow: tokens.shadow2,
  padding: '16px 20px',
  display: 'flex',
  flexDirection: 'column',
  gap: '12px',
}

/**
 * A cell of amounts or counts (`isFigureColumn`): on the right, its digits of one width, so that a column of them
 * reads as on a statement; a list's columns and a record's sub-tables alike. Its header lines up the same way.
 */
export const FIGURE_CELL: GriffelStyle = { textAlign: 'right', fontVariantNumeric: 'tabular-nums' }
export const FIGURE_HEAD: GriffelStyle = { justifyContent: 'flex-end', textAlign: 'right' }
