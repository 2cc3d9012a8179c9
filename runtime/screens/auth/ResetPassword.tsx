import { Button, Field, Link, makeStyles, Radio, RadioGroup, Text, tokens } from '@fluentui/react-components'
import { type FormEvent, useReducer, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { AccountCodeRequest, PasswordReset, ResetCodeCommit } from '../../../generated/types.ts'
import { useEffects } from '../../effects.tsx'
import { quietClient } from '../../quietClient.ts'
import { bodyOf, check, proven } from './authForm.ts'
import { CodeField, type ResendWait, useCodeSender, useResendWait } from './CodeField.tsx'
import {
  AuthCard,
  EntityField,
  follow,
  formEntity,
  showRefusal,
  useAuthStyles,
  useFormState,
  usePreloadValidators,
  validatorOf,
} from './parts.tsx'
import { initialReset, RESET_STEPS, type ResetMethod, resetStep, stepIndex } from './resetSteps.ts'

const useStyles = makeStyles({
  steps: { display: 'flex', gap: '8px', margin: 0, padding: 0, listStyleType: 'none', counterReset: 'step' },
  step: {
    flexGrow: 1,
    flexBasis: 0,
    paddingTop: '8px',
    borderTop: `3px solid ${tokens.colorNeutralStroke2}`,
    color: tokens.colorNeutralForeground3,
  },
  current: { borderTopColor: tokens.colorBrandStroke1, color: tokens.colorNeutralForeground1, fontWeight: 600 },
  past: { borderTopColor: tokens.colorBrandStroke2 },
})

const STEP_LABEL = { choose: 'ui.resetStepChoose', reset: 'ui.resetStepReset', done: 'ui.resetStepDone' } as const

/**
 * /resetPassword (SPEC §2): three steps — choose the way (mobile or e-mail) and get a code
 * (resetPasswordGetCode), enter the code and the new password twice (resetPasswordCommitCode, then
 * resetPasswordReset), the result. No footer on this page (runtime/shell/Shell.tsx). Fields and checks come
 * from accountCodeRequest, resetCodeCommit and passwordReset (schemas/).
 */
export default function ResetPassword() {
  const { t } = useTranslation()
  const styles = useStyles()
  const effects = useEffects()
  const [state, dispatch] = useReducer(resetStep, initialReset)
  const [failure, setFailure] = useState<string | null>(null)
  const wait = useResendWait()
  usePreloadValidators()

  const at = stepIndex(state)
  return (
    <AuthCard title={t('route.resetPassword')} failure={failure}>
      <ol className={styles.steps} aria-label={t('ui.resetSteps')}>
        {RESET_STEPS.map((step, index) => (
          <li
            key={step}
            className={`${styles.step} ${index === at ? styles.current : index < at ? styles.past : ''}`}
            aria-current={index === at ? 'step' : undefined}
          >
            <Text size={200}>{`${index + 1}. ${t(STEP_LABEL[step])}`}</Text>
          </li>
        ))}
      </ol>
      {state.step === 'choose' && (
        <ChooseStep
          method={state.method}
          onMethod={(method) => dispatch({ type: 'method', method })}
          onSent={(account) => {
            wait.start()
            dispatch({ type: 'codeSent', account })
          }}
          onFailure={setFailure}
        />
      )}
      {state.step === 'reset' && (
        <ResetStep
          method={state.method}
          account={state.account}
          wait={wait}
          onBack={() => {
            setFailure(null)
            dispatch({ type: 'back' })
          }}
          onDone={() => dispatch({ type: 'passwordReset' })}
          onFailure={setFailure}
        />
      )}
      {state.step === 'done' && (
        <>
          <Text role="status">{t('ui.resetDone')}</Text>
          <Button appearance="primary" size="large" onClick={() => effects.navigate('/login', { replace: true })}>
            {t('ui.resetGoLogin')}
          </Button>
        </>
      )}
    </AuthCard>
  )
}

/** The label of the account field for the chosen way. */
const accountLabel = (method: ResetMethod) => (method === 'mobile' ? 'field.mobile' : 'field.email')

function ChooseStep(props: {
  method: ResetMethod
  onMethod: (method: ResetMethod) => void
  onSent: (account: string) => void
  onFailure: (message: string | null) => void
}) {
  const { t } = useTranslation()
  const styles = useAuthStyles()
  const effects = useEffects()
  const entity = formEntity('accountCodeRequest')
  const form = useFormState({ account: '' })
  const [sending, setSending] = useState(false)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    props.onFailure(null)
    const body = bodyOf(form.values)
    const found = check(await validatorOf('accountCodeRequest'), body, entity.fields)
    // The way chosen decides which of the two shapes the field takes.
    const account = String(body.account ?? '')
    if (!found.account && account && account.includes('@') !== (props.method === 'email'))
      found.account = { key: 'rule.accountFormat', params: {} }
    form.setProblems(found)
    if (Object.keys(found).length) return
    setSending(true)
    try {
      await quietClient.b2b.resetPasswordGetCode(proven<AccountCodeRequest>(body))
      props.onSent(account)
    } catch (error) {
      showRefusal(error, ['account'], form.setProblems, props.onFailure, t('ui.hasError'))
    } finally {
      setSending(false)
    }
  }

  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      <Field label={t('ui.resetMethod')}>
        <RadioGroup
          layout="horizontal"
          value={props.method}
          onChange={(_, data) => props.onMethod(data.value as ResetMethod)}
        >
          <Radio value="mobile" label={t('ui.resetByMobile')} />
          <Radio value="email" label={t('ui.resetByEmail')} />
        </RadioGroup>
      </Field>
      <EntityField
        entity={entity}
        field="account"
        label={accountLabel(props.method)}
        type={props.method === 'mobile' ? 'tel' : 'email'}
        inputMode={props.method === 'mobile' ? 'tel' : 'email'}
        autoComplete={props.method === 'mobile' ? 'tel-national' : 'email'}
        {...form.bind('account')}
      />
      <Button type="submit" appearance="primary" size="large" disabled={sending}>
        {sending ? t('ui.sendingCode') : t('ui.sendCode')}
      </Button>
      <div className={styles.links}>
        <Link href="/login" onClick={follow(effects.navigate, '/login')}>
          {t('ui.resetBackToLogin')}
        </Link>
      </div>
    </form>
  )
}

function ResetStep(props: {
  method: ResetMethod
  account: string
  wait: ResendWait
  onBack: () => void
  onDone: () => void
  onFailure: (message: string | null) => void
}) {
  const { t } = useTranslation()
  const styles = useAuthStyles()
  const commit = formEntity('resetCodeCommit')
  const reset = formEntity('passwordReset')
  const form = useFormState({ code: '', password: '', confirmPassword: '' })
  const [busy, setBusy] = useState(false)
  const code = useCodeSender({
    field: 'code',
    request: () => quietClient.b2b.resetPasswordGetCode({ account: props.account }),
    setProblems: form.setProblems,
    onFailure: props.onFailure,
    wait: props.wait,
  })

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    props.onFailure(null)
    const codeBody = bodyOf({ account: props.account, code: form.values.code })
    const passwords = bodyOf({ password: form.values.password, confirmPassword: form.values.confirmPassword }, [
      'password',
      'confirmPassword',
    ])
    // Both calls' checks before either is made: the ticket is the server's to give, so only the passwords'.
    const found = {
      ...check(await validatorOf('resetCodeCommit'), codeBody, commit.fields, { only: ['code'] }),
      ...check(await validatorOf('passwordReset'), passwords, reset.fields, {
        only: ['password', 'confirmPassword'],
      }),
    }
    form.setProblems(found)
    if (Object.keys(found).length) return
    setBusy(true)
    try {
      const answer = await quietClient.b2b.resetPasswordCommitCode(proven<ResetCodeCommit>(codeBody))
      const ticket = answer.content.ticket
      await quietClient.b2b.resetPasswordReset({
        ticket,
        ...proven<Omit<PasswordReset, 'ticket'>>(passwords),
      })
      props.onDone()
    } catch (error) {
      showRefusal(error, ['code', 'password', 'confirmPassword'], form.setProblems, props.onFailure, t('ui.hasError'))
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      <Text>{t('ui.resetCodeSent', { account: props.account })}</Text>
      <CodeField entity={commit} sender={code} {...form.bind('code')} />
      <EntityField
        entity={reset}
        field="password"
        type="password"
        autoComplete="new-password"
        {...form.bind('password')}
      />
      <EntityField
        entity={reset}
        field="confirmPassword"
        type="password"
        autoComplete="new-password"
        {...form.bind('confirmPassword')}
      />
      <Button type="submit" appearance="primary" size="large" disabled={busy}>
        {t('ui.resetSubmit')}
      </Button>
      <div className={styles.links}>
        <Link as="button" type="button" onClick={props.onBack}>
          {t('ui.resetBack')}
        </Link>
      </div>
    </form>
  )
}
