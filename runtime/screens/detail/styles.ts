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
