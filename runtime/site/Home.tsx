import { Button, Input, makeStyles, Text, Title1, tokens } from '@fluentui/react-components'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { siteName, useSiteSettings } from './SiteSettings.tsx'

const useStyles = makeStyles({
  hero: {
    padding: '96px 64px',
    color: '#fff',
    background: 'linear-gradient(120deg, #0b3a6e 0%, #1769c2 55%, #409eff 100%)',
    display: 'flex',
    flexDirection: 'column',
    gap: '16px',
  },
  search: { display: 'flex', gap: '8px', maxWidth: '720px', marginTop: '24px' },
  services: { display: 'grid', gridTemplateColumns: 'repeat(4, 1fr)', gap: '16px', padding: '32px 64px' },
  card: {
    backgroundColor: tokens.colorNeutralBackground1,
    padding: '24px',
    borderRadius: tokens.borderRadiusLarge,
    boxShadow: tokens.shadow4,
  },
})

const SERVICES = ['fcl', 'lcl', 'air', 'fba'] as const

/** Home page, template 0. The six white-label templates come with the public-site work. */
export default function Home() {
  const styles = useStyles()
  const { t, i18n } = useTranslation()
  const settings = useSiteSettings()
  const navigate = useNavigate()
  const [numbers, setNumbers] = useState('')
  return (
    <>
      <section className={styles.hero}>
        <Title1 as="h1" style={{ color: '#fff' }}>
          {siteName(settings, i18n.language)}
        </Title1>
        <Text size={500} style={{ color: '#fff' }}>
          {t('common.heroTagline')}
        </Text>
        <form
          className={styles.search}
          onSubmit={(event) => {
            event.preventDefault()
            navigate(`/orderTracking?numbers=${encodeURIComponent(numbers)}`)
          }}
        >
          <Input
            style={{ flexGrow: 1 }}
            size="large"
            value={numbers}
            onChange={(_, data) => setNumbers(data.value)}
            placeholder={t('common.trackingPlaceholder')}
            aria-label={t('common.trackingPlaceholder')}
          />
          <Button size="large" appearance="primary" type="submit">
            {t('common.track')}
          </Button>
        </form>
      </section>
      <section className={styles.services}>
        {SERVICES.map((service) => (
          <div key={service} className={styles.card}>
            <Text weight="semibold" size={400} block>
              {t(`common.service_${service}`)}
            </Text>
            <Text block>{t(`common.service_${service}_text`)}</Text>
          </div>
        ))}
      </section>
    </>
  )
}
