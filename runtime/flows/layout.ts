import { type GriffelStyle, tokens } from '@fluentui/react-components'

/** The column a hand-written flow on the main layout draws in (rates, inquiry, booking). */
export const FLOW_PAGE: GriffelStyle = {
  // The whole column up to its maximum, whatever the page holds: centred by its auto margins in the shell's flex
  // column, a page as wide as its content would widen and move sideways when its answer came (the rate search on
  // a phone with Chinese fonts: 0.57 CLS, docs/DECISIONS.md).
  width: '100%',
  maxWidth: '1200px',
  margin: '0 auto',
  padding: '24px',
  display: 'flex',
  flexDirection: 'column',
  gap: '16px',
  boxSizing: 'border-box',
}

/** A white card of a flow's page: its form sections, its tools. */
export const FLOW_PANEL: GriffelStyle = {
  backgroundColor: tokens.colorNeutralBackground1,
  borderRadius: tokens.borderRadiusLarge,
  boxShadow: tokens.shadow2,
  padding: '20px 24px',
  display: 'flex',
  flexDirection: 'column',
  gap: '16px',
}
