import { Card, makeStyles, Text, Title2, tokens } from '@fluentui/react-components'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import type { ScreenProps } from '../../registry.ts'
import { inquiryMenu } from '../../routing/menus.ts'
import { useSession } from '../../session.ts'
import { siteName, useSiteSettings } from '../../site/SiteSettings.tsx'

/**
 * /inquiryHome (SPEC §2 home mode 2, issue #25): the inquiry-first home of a tenant that sells by quotation.
 * A signed-in user lands here instead of the marketing home (runtime/routing/access.ts): the inquiry forms of
 * the modes the tenant offers first, then the user's inquiries and quotes and the tracking search. With
 * inquiries off (site settings inquiryAllowed) it says so and keeps the other ways in.
 */

const useStyles = makeStyles({
  page: {
    maxWidth: '1200px',
    margin: '0 auto',
    padding: '32px 24px',
    display: 'flex',
    flexDirection: 'column',
    gap: '24px',
  },
  hero: {
    borderRadius: tokens.borderRadiusXLarge,
    padding: '32px',
    color: tokens.colorNeutralForegroundOnBrand,
    backgroundColor: tokens.colorBrandBackground,
    display: 'flex',
    flexDirection: 'column',
    gap: '8px',
  },
  title: { margin: 0, color: 'inherit' },
  modes: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))', gap: '16px' },
  plain: { textDecorationLine: 'none', color: 'inherit' },
  card: { padding: '20px', display: 'flex', flexDirection: 'column', gap: '6px', height: '100%' },
  mode: {
    fontSize: tokens.fontSizeBase500,
    fontWeight: tokens.fontWeightSemibold,
    color: tokens.colorBrandForeground1,
  },
  links: { display: 'flex', gap: '16px', flexWrap: 'wrap' },
})

export default function InquiryHome(_: ScreenProps) {
  const styles = useStyles()
  const { t, i18n } = useTranslation()
  const settings = useSiteSettings()
  const session = useSession()
  const modes = settings?.inquiryAllowed ? inquiryMenu(settings.transportationSupport ?? undefined) : []
  const may = (permission: string) => session.permissions.has(permission)
  return (
    <div className={styles.page} data-testid="inquiry-home">
      <section className={styles.hero}>
        <Title2 as="h1" className={styles.title}>
          {siteName(settings, i18n.language)}
        </Title2>
        <Text>{t(modes.length ? 'site.inquiryHomeLead' : 'site.inquiryHomeClosed')}</Text>
      </section>
      {modes.length > 0 && (
        <nav className={styles.modes} aria-label={t('ui.menu_inquiry')}>
          {modes.map((mode) => (
            <Link key={mode.key} to={mode.to} className={styles.plain} data-mode={mode.key}>
              <Card className={styles.card}>
                <span className={styles.mode}>{t(mode.label)}</span>
                <Text size={200}>{t('site.inquiryHomeStart')}</Text>
              </Card>
            </Link>
          ))}
        </nav>
      )}
      <nav className={styles.links} aria-label={t('site.inquiryHomeMore')}>
        {may('palletInquiry') && <Link to="/myInquiries">{t('site.inquiryHomeMine')}</Link>}
        {may('quoteList') && <Link to="/quoteList">{t('site.inquiryHomeQuotes')}</Link>}
        <Link to="/orderTracking">{t('ui.menu_tracking')}</Link>
      </nav>
    </div>
  )
}
