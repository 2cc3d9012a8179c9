import { Button, Link } from '@fluentui/react-components'
import { type FormEvent, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router'
import type { CodeLogin, PasswordLogin } from '../../../generated/types.ts'
import { useEffects } from '../../effects.tsx'
import { quietClient } from '../../quietClient.ts'
import { bodyOf, check, proven } from './authForm.ts'
import { CodeField, useSmsCodeSender } from './CodeField.tsx'
import {
  AuthCard,
  AuthTabs,
  EntityField,
  follow,
  formEntity,
  panelId,
  showRefusal,
  useAuthStyles,
  useFormState,
  usePreloadValidators,
  validatorOf,
} from './parts.tsx'
import { useSignedIn } from './signedIn.ts'

type Tabs = 'password' | 'code'

/**
 * /login (SPEC §2): a password tab (user name, e-mail or mobile, and the password) and an SMS-code tab
 * (mainland mobile and the code sendLoginSms sent, with SPEC §9's wait on the button). Either returns the
 * user to where they were going (?redirect=). Fields, labels and checks come from passwordLogin, codeLogin
 * and smsCodeRequest (schemas/), refusals from the server in the reader's language (SPEC §8).
 */
export default function Login() {
  const styles = useAuthStyles()
  const { t } = useTranslation()
  const effects = useEffects()
  const [params] = useSearchParams()
  const [tab, setTab] = useState<Tabs>(params.get('tab') === 'code' ? 'code' : 'password')
  const [failure, setFailure] = useState<string | null>(null)
  const returnSignedIn = useSignedIn()
  usePreloadValidators()

  const signedIn = () => returnSignedIn(t('ui.loginSuccess'), 'login')

  return (
    <AuthCard title={t('route.login')} subtitleKey="ui.loginWelcome" failure={failure}>
      <AuthTabs
        label={t('route.login')}
        value={tab}
        tabs={[
          { value: 'password', label: t('ui.loginByPassword') },
          { value: 'code', label: t('ui.loginByCode') },
        ]}
        onChange={(value) => {
          setTab(value)
          setFailure(null)
        }}
      />
      <div role="tabpanel" id={panelId(tab)}>
        {tab === 'password' ? (
          <PasswordTab onSignedIn={signedIn} onFailure={setFailure} />
        ) : (
          <CodeTab onSignedIn={signedIn} onFailure={setFailure} />
        )}
      </div>
      <div className={styles.links}>
        <Link href="/register" onClick={follow(effects.navigate, '/register')}>
          {t('ui.loginRegister')}
        </Link>
        <Link href="/resetPassword" onClick={follow(effects.navigate, '/resetPassword')}>
          {t('ui.loginForgot')}
        </Link>
      </div>
    </AuthCard>
  )
}

interface TabProps {
  onSignedIn: () => Promise<void>
  onFailure: (message: string | null) => void
}

function PasswordTab({ onSignedIn, onFailure }: TabProps) {
  const { t } = useTranslation()
  const styles = useAuthStyles()
  const entity = formEntity('passwordLogin')
  const form = useFormState({ username: '', password: '' })
  const [busy, setBusy] = useState(false)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    onFailure(null)
    const body = bodyOf(form.values, ['password'])
    const found = check(await validatorOf('passwordLogin'), body, entity.fields)
    form.setProblems(found)
    if (Object.keys(found).length) return
    setBusy(true)
    try {
      await quietClient.b2b.userLogin(proven<PasswordLogin>(body))
      await onSignedIn()
    } catch (error) {
      showRefusal(error, ['username', 'password'], form.setProblems, onFailure, t('ui.hasError'))
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      <EntityField entity={entity} field="username" autoComplete="username" {...form.bind('username')} />
      <EntityField
        entity={entity}
        field="password"
        type="password"
        autoComplete="current-password"
        {...form.bind('password')}
      />
      <SubmitButton busy={busy} />
    </form>
  )
}

function CodeTab({ onSignedIn, onFailure }: TabProps) {
  const { t } = useTranslation()
  const styles = useAuthStyles()
  const entity = formEntity('codeLogin')
  const form = useFormState({ key: '', code: '' })
  const [busy, setBusy] = useState(false)
  const code = useSmsCodeSender({
    mobile: form.values.key,
    field: 'key',
    request: quietClient.b2b.sendLoginSms,
    setProblems: form.setProblems,
    onFailure,
  })

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    onFailure(null)
    const body = bodyOf(form.values)
    const found = check(await validatorOf('codeLogin'), body, entity.fields)
    form.setProblems(found)
    if (Object.keys(found).length) return
    setBusy(true)
    try {
      await quietClient.b2b.userCodeLogin(proven<CodeLogin>(body))
      await onSignedIn()
    } catch (error) {
      showRefusal(error, ['key', 'code'], form.setProblems, onFailure, t('ui.hasError'))
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      <EntityField
        entity={entity}
        field="key"
        type="tel"
        inputMode="tel"
        autoComplete="tel-national"
        {...form.bind('key')}
      />
      <CodeField entity={entity} sender={code} {...form.bind('code')} />
      <SubmitButton busy={busy} />
    </form>
  )
}

function SubmitButton({ busy }: { busy: boolean }) {
  const { t } = useTranslation()
  return (
    <Button type="submit" appearance="primary" size="large" disabled={busy}>
      {busy ? t('ui.loggingIn') : t('ui.loginSubmit')}
    </Button>
  )
}
