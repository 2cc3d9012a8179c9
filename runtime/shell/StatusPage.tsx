import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { useButtonStyles } from './styles.ts'

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
  title: {
    margin: 0,
    fontSize: tokens.fontSizeBase600,
    lineHeight: tokens.lineHeightBase600,
    fontWeight: tokens.fontWeightSemibold,
  },
  text: { margin: 0, fontSize: tokens.fontSizeBase300, lineHeight: tokens.lineHeightBase300 },
})

/**
 * A whole-page message with a way on: the refusal of SPEC §2's route filtering, and 404. Plain elements
 * in Fluent's tokens: the route gate shows it from the entry chunk, which carries no Fluent components.
 */
export function StatusPage({ code, title, text }: { code: string; title: string; text: string }) {
  const styles = useStyles()
  const buttons = useButtonStyles()
  const { t } = useTranslation()
  return (
    <div className={styles.box} role="alert">
      <span className={styles.code}>{code}</span>
      <h1 className={styles.title}>{title}</h1>
      <p className={styles.text}>{text}</p>
      <Link to="/dashboard" className={mergeClasses(buttons.button, buttons.primary)}>
        {t('ui.backHome')}
      </Link>
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
