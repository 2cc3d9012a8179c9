import { Button, makeStyles, Text, Title2, tokens } from '@fluentui/react-components'
import { useTranslation } from 'react-i18next'
import { useEffects } from '../effects.tsx'

const useStyles = makeStyles({
  box: {
    margin: '64px auto',
    maxWidth: '560px',
    padding: '40px',
    textAlign: 'center',
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusLarge,
    boxShadow: tokens.shadow4,
    display: 'flex',
    flexDirection: 'column',
    gap: '16px',
    alignItems: 'center',
  },
  code: { fontSize: '56px', lineHeight: '64px', color: tokens.colorBrandForeground1, fontWeight: 700 },
})

/** A whole-page message with a way on: the refusal of SPEC §2's route filtering, and 404. */
export function StatusPage({ code, title, text }: { code: string; title: string; text: string }) {
  const styles = useStyles()
  const { t } = useTranslation()
  const effects = useEffects()
  return (
    <div className={styles.box} role="alert">
      <span className={styles.code}>{code}</span>
      <Title2 as="h1">{title}</Title2>
      <Text>{text}</Text>
      <Button appearance="primary" onClick={() => effects.navigate('/dashboard')}>
        {t('ui.backHome')}
      </Button>
    </div>
  )
}

/** What a user sees at a URL their permissions do not open. */
export function Forbidden() {
  const { t } = useTranslation()
  return <StatusPage code="403" title={t('ui.forbiddenTitle')} text={t('ui.forbiddenText')} />
}

export default function NotFound() {
  const { t } = useTranslation()
  return <StatusPage code="404" title={t('ui.notFoundTitle')} text={t('ui.notFoundText')} />
}
