import { makeStyles, tokens } from '@fluentui/react-components'

/**
 * Fluent's look, drawn with its tokens on plain elements, for what is on every page (the top bar and its
 * menus, the status pages, the home page's search): Fluent's Button, Menu and Popover, with their focus
 * manager and positioning engine, would be most of a public page's script.
 */
export const useButtonStyles = makeStyles({
  button: {
    display: 'inline-flex',
    alignItems: 'center',
    gap: '6px',
    minHeight: '32px',
    padding: '4px 12px',
    whiteSpace: 'nowrap',
    border: 'none',
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: 'transparent',
    color: tokens.colorNeutralForeground1,
    fontFamily: tokens.fontFamilyBase,
    fontSize: tokens.fontSizeBase300,
    lineHeight: tokens.lineHeightBase300,
    cursor: 'pointer',
    textDecoration: 'none',
    ':hover': { backgroundColor: tokens.colorSubtleBackgroundHover, color: tokens.colorNeutralForeground1Hover },
    ':active': { backgroundColor: tokens.colorSubtleBackgroundPressed },
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '1px' },
  },
  small: { minHeight: '24px', padding: '2px 8px', fontSize: tokens.fontSizeBase200 },
  primary: {
    backgroundColor: tokens.colorBrandBackground,
    color: tokens.colorNeutralForegroundOnBrand,
    fontWeight: tokens.fontWeightSemibold,
    ':hover': { backgroundColor: tokens.colorBrandBackgroundHover, color: tokens.colorNeutralForegroundOnBrand },
    ':active': { backgroundColor: tokens.colorBrandBackgroundPressed },
  },
})

/** The surface of a menu or dropdown under its button (Fluent's MenuPopover and PopoverSurface). */
export const usePopupStyles = makeStyles({
  anchor: { position: 'relative', display: 'inline-block' },
  surface: {
    position: 'absolute',
    top: 'calc(100% + 4px)',
    zIndex: 1000,
    padding: '4px',
    display: 'flex',
    flexDirection: 'column',
    backgroundColor: tokens.colorNeutralBackground1,
    color: tokens.colorNeutralForeground1,
    borderRadius: tokens.borderRadiusMedium,
    boxShadow: tokens.shadow16,
  },
  start: { left: 0 },
  end: { right: 0 },
})
