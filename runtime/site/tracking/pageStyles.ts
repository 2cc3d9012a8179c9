import { makeStyles, tokens } from '@fluentui/react-components'

/**
 * What the tracking pages share (TrackingPage, SharedTrackingPage): the page's column, its title and introduction,
 * and the red box a refusal or an error is told in.
 */
export const useTrackingPageStyles = makeStyles({
  page: {
    maxWidth: '1100px',
    margin: '0 auto',
    padding: '32px 24px',
    display: 'flex',
    flexDirection: 'column',
    gap: '16px',
    boxSizing: 'border-box',
    '@media (max-width: 600px)': { padding: '16px 12px' },
  },
  title: { margin: 0, fontSize: tokens.fontSizeHero700, lineHeight: tokens.lineHeightHero700 },
  intro: { margin: 0, color: tokens.colorNeutralForeground2 },
  alert: {
    margin: 0,
    padding: '8px 12px',
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorPaletteRedBackground1,
    color: tokens.colorPaletteRedForeground1,
    border: `1px solid ${tokens.colorPaletteRedBorder1}`,
  },
})
