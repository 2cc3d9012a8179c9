import { makeStyles, mergeClasses, Text, tokens } from '@fluentui/react-components'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { NavLink } from 'react-router'
import { areas } from '../../generated/manifest.json'
import { routes } from '../../generated/routes.ts'
import { workbenchMenu } from '../routing/menus.ts'
import { useSession } from '../session.ts'
import { MainContent } from './SkipLink.tsx'

const useStyles = makeStyles({
  frame: { display: 'flex', flexGrow: 1, alignItems: 'stretch' },
  // SPEC §9: the menu is 210 px wide.
  side: {
    width: '210px',
    flexShrink: 0,
    backgroundColor: tokens.colorNeutralBackground1,
    borderRight: `1px solid ${tokens.colorNeutralStroke2}`,
    padding: '12px 0',
  },
  group: { padding: '12px 20px 4px', color: tokens.colorNeutralForeground3 },
  link: {
    display: 'block',
    padding: '8px 20px 8px 32px',
    color: tokens.colorNeutralForeground1,
    textDecoration: 'none',
    borderLeft: '3px solid transparent',
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
  },
  active: {
    color: tokens.colorBrandForeground1,
    backgroundColor: tokens.colorBrandBackground2,
    borderLeftColor: tokens.colorBrandStroke1,
    fontWeight: tokens.fontWeightSemibold,
  },
  content: { flexGrow: 1, minWidth: 0, padding: '20px 24px' },
})

/** The workbench of SPEC §2: the left menu built from the route table, the screen beside it as the page's <main>. */
export default function WorkbenchLayout({ children }: { children: ReactNode }) {
  const styles = useStyles()
  const { t } = useTranslation()
  const session = useSession()
  const groups = workbenchMenu(routes, areas, session.permissions)
  return (
    <div className={styles.frame}>
      <nav className={styles.side} aria-label={t('ui.workbenchMenu')}>
        {groups.map((group) => (
          <section key={group.key} aria-label={t(group.label)}>
            <Text as="h2" size={200} weight="semibold" block className={styles.group}>
              {t(group.label)}
            </Text>
            {group.items.map((item) => (
              <NavLink
                key={item.key}
                to={item.to}
                className={({ isActive }) => mergeClasses(styles.link, isActive && styles.active)}
              >
                {t(item.label)}
              </NavLink>
            ))}
          </section>
        ))}
      </nav>
      <MainContent className={styles.content}>{children}</MainContent>
    </div>
  )
}
