import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components'
import type { MouseEvent, ReactNode } from 'react'
import { useTranslation } from 'react-i18next'

/** The id of the page's <main>: the shell's, or the workbench's around the screen beside its menu. */
export const MAIN_CONTENT_ID = 'main-content'

const useStyles = makeStyles({
  // Out of sight until the keyboard reaches it (WCAG 2.4.1), then over the top left corner of the page.
  link: {
    position: 'absolute',
    top: '8px',
    left: '8px',
    zIndex: 2000,
    padding: '8px 16px',
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground1,
    color: tokens.colorBrandForegroundLink,
    boxShadow: tokens.shadow16,
    fontSize: tokens.fontSizeBase300,
    fontWeight: tokens.fontWeightSemibold,
    textDecoration: 'underline',
    transform: 'translateY(calc(-100% - 16px))',
    ':focus': { transform: 'none', outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '2px' },
  },
  // The skip link's target: it takes focus (tabIndex -1) but is no control, so it draws no ring.
  main: { ':focus': { outlineStyle: 'none' } },
})

/** A page's <main>, which the skip link moves focus to. */
export function MainContent({ className, children }: { className?: string; children: ReactNode }) {
  const styles = useStyles()
  return (
    <main id={MAIN_CONTENT_ID} tabIndex={-1} className={mergeClasses(styles.main, className)}>
      {children}
    </main>
  )
}

/**
 * "Skip to main content", the first Tab stop of every page (WCAG 2.4.1): Enter moves focus to <main>,
 * so the next Tab is the page's own first control rather than the top bar's and menus'. Focus moves by
 * script: a #fragment would be a navigation for the router.
 */
export function SkipLink() {
  const styles = useStyles()
  const { t } = useTranslation()
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    const main = document.getElementById(MAIN_CONTENT_ID)
    if (!main) return
    event.preventDefault()
    main.focus()
  }
  return (
    <a className={styles.link} href={`#${MAIN_CONTENT_ID}`} onClick={skip}>
      {t('ui.skipToMain')}
    </a>
  )
}
