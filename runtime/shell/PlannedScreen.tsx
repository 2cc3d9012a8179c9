import { Badge, makeStyles, Text, Title2, tokens } from '@fluentui/react-components'
import { useTranslation } from 'react-i18next'
import type { RouteEntry } from '../../generated/routes.ts'

const useStyles = makeStyles({
  box: {
    margin: '48px auto',
    maxWidth: '720px',
    padding: '32px',
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusLarge,
  },
})

/** What a route of the table shows until its screen is built: its title and that it is coming. */
export default function PlannedScreen({ route }: { route: RouteEntry }) {
  const styles = useStyles()
  const { t } = useTranslation()
  return (
    <div className={styles.box}>
      <Title2 as="h1">{t(route.title)}</Title2>
      <div style={{ marginTop: 12 }}>
        <Badge appearance="tint" color="informative">
          {t('common.planned')}
        </Badge>
      </div>
      <Text block style={{ marginTop: 12 }}>
        {t('common.plannedText')}
      </Text>
    </div>
  )
}
