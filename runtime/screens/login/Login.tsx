import {
  Button,
  Field,
  Input,
  Link,
  MessageBar,
  MessageBarBody,
  makeStyles,
  Text,
  Title2,
  tokens,
} from '@fluentui/react-components'
import { useQueryClient } from '@tanstack/react-query'
import type { ErrorObject } from 'ajv'
import { type FormEvent, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router'
import { toFieldErrors } from '../../../rules/messages.ts'
import { RequestError } from '../../api.ts'
import { useEffects } from '../../effects.tsx'
import { quietClient } from '../../quietClient.ts'
import { safeRedirect } from '../../routing/access.ts'
import { reloadSession } from '../../session.ts'
import { siteName, useSiteSettings } from '../../site/SiteSettings.tsx'

const useStyles = makeStyles({
  page: {
    flexGrow: 1,
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    padding: '64px 16px',
    background: `linear-gradient(135deg, ${tokens.colorBrandBackground2} 0%, ${tokens.colorNeutralBackground2} 60%)`,
  },
  card: {
    width: '400px',
    padding: '36px 40px',
    display: 'flex',
    flexDirection: 'column',
    gap: '18px',
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusXLarge,
    boxShadow: tokens.shadow16,
  },
  links: { display: 'flex', justifyContent: 'space-between' },
})

type Credentials = { username: string; password: string }
type Problems = Partial<Record<keyof Credentials, { key: string; params: Record<string, unknown> }>>

interface Validate {
  (data: unknown): boolean
  errors?: ErrorObject[] | null
}

/** The generated `passwordLogin` validator when the build has one; fetched after the page shows. */
function usePasswordLoginValidator(): Validate | null {
  const [validate, setValidate] = useState<Validate | null>(null)
  useEffect(() => {
    let alive = true
    import('../../../generated/validators.js')
      .then((module) => {
        const found = (module as Record<string, unknown>).passwordLogin
        if (alive && typeof found === 'function') setValidate(() => found as Validate)
      })
      .catch(() => undefined)
    return () => {
      alive = false
    }
  }, [])
  return validate
}

/** The schema's checks when there is a validator, else "required" on both fields. */
export function checkCredentials(credentials: Credentials, validate: Validate | null): Problems {
  const problems: Problems = {}
  if (validate) {
    if (validate(credentials)) return problems
    for (const error of toFieldErrors(validate.errors ?? [])) {
      const field = error.field as keyof Credentials
      if ((field === 'username' || field === 'password') && !problems[field]) {
        problems[field] = { key: error.message, params: error.params }
      }
    }
    return problems
  }
  for (const field of ['username', 'password'] as const) {
    if (!credentials[field]) problems[field] = { key: 'validation.required', params: {} }
  }
  return problems
}

/** /login: user name or e-mail or mobile, and password; back to where the user was going (SPEC §2). */
export default function Login() {
  const styles = useStyles()
  const { t, i18n } = useTranslation()
  const settings = useSiteSettings()
  const effects = useEffects()
  const queryClient = useQueryClient()
  const [params] = useSearchParams()
  const validate = usePasswordLoginValidator()
  const [credentials, setCredentials] = useState<Credentials>({ username: '', password: '' })
  const [problems, setProblems] = useState<Problems>({})
  const [failure, setFailure] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const data = { username: credentials.username.trim(), password: credentials.password }
    const found = checkCredentials(data, validate)
    setProblems(found)
    setFailure(null)
    if (Object.keys(found).length) return
    setBusy(true)
    try {
      await quietClient.b2b.userLogin(data)
      await reloadSession(queryClient)
      effects.toast(t('ui.loginSuccess'), { intent: 'success', id: 'login' })
      effects.navigate(safeRedirect(params.get('redirect')), { replace: true })
    } catch (error) {
      // The server's message is already in the reader's language (it read the Language header).
      if (error instanceof RequestError) {
        const fieldProblems: Problems = {}
        for (const fieldError of error.fieldErrors) {
          const field = fieldError.field as keyof Credentials
          if (field === 'username' || field === 'password') fieldProblems[field] = { key: fieldError.key, params: {} }
        }
        setProblems(fieldProblems)
        setFailure(error.message || t('ui.hasError'))
      } else setFailure(t('ui.hasError'))
    } finally {
      setBusy(false)
    }
  }

  const message = (field: keyof Credentials) => {
    const problem = problems[field]
    return problem ? t(problem.key, problem.params) : undefined
  }

  return (
    <div className={styles.page}>
      <form className={styles.card} onSubmit={submit} noValidate aria-label={t('route.login')}>
        <div>
          <Title2 as="h1">{t('route.login')}</Title2>
          <Text block style={{ color: tokens.colorNeutralForeground3, marginTop: 4 }}>
            {t('ui.loginWelcome', { site: siteName(settings, i18n.language) })}
          </Text>
        </div>
        {failure && (
          <MessageBar intent="error">
            <MessageBarBody>{failure}</MessageBarBody>
          </MessageBar>
        )}
        <Field
          label={t('field.loginAccount')}
          required
          validationMessage={message('username')}
          validationState={problems.username ? 'error' : 'none'}
        >
          <Input
            name="username"
            autoComplete="username"
            size="large"
            value={credentials.username}
            onChange={(_, data) => setCredentials((c) => ({ ...c, username: data.value }))}
          />
        </Field>
        <Field
          label={t('field.password')}
          required
          validationMessage={message('password')}
          validationState={problems.password ? 'error' : 'none'}
        >
          <Input
            name="password"
            type="password"
            autoComplete="current-password"
            size="large"
            value={credentials.password}
            onChange={(_, data) => setCredentials((c) => ({ ...c, password: data.value }))}
          />
        </Field>
        <Button type="submit" appearance="primary" size="large" disabled={busy}>
          {busy ? t('ui.loggingIn') : t('ui.loginSubmit')}
        </Button>
        <div className={styles.links}>
          <Link onClick={() => effects.navigate('/register')}>{t('ui.loginRegister')}</Link>
          <Link onClick={() => effects.navigate('/resetPassword')}>{t('ui.loginForgot')}</Link>
        </div>
      </form>
    </div>
  )
}
