import { Button, Checkbox, Field, Link } from '@fluentui/react-components'
import { type FormEvent, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router'
import type { Registration } from '../../../generated/types.ts'
import { RequestError } from '../../api.ts'
import { useEffects } from '../../effects.tsx'
import { quietClient } from '../../quietClient.ts'
import { ReferenceCombobox } from '../../widgets/ReferenceCombobox.tsx'
import { bodyOf, check, proven } from './authForm.ts'
import { CodeField, useSmsCodeSender } from './CodeField.tsx'
import {
  AuthCard,
  EntityField,
  follow,
  formEntity,
  showRefusal,
  useAuthStyles,
  useFormState,
  usePreloadValidators,
  useProblemText,
  validatorOf,
} from './parts.tsx'
import { useSignedIn } from './signedIn.ts'

/** The registration form's text fields in the order the page shows them, as schemas/registration.yaml names them. */
const TEXT_FIELDS = ['username', 'password', 'confirmPassword', 'mobile', 'code', 'email', 'realName', 'inviteCode']
const DRAWN = [...TEXT_FIELDS, 'region', 'agreement']
/** Passwords are sent as typed; everything else trimmed. */
const AS_TYPED = ['password', 'confirmPassword']

/**
 * /register (SPEC §2, §5): a personal user with a user name, a password typed twice, a mainland mobile proven
 * by an SMS code (SPEC §9's wait on the button), an optional e-mail and real name, the invitation code
 * (?inviteCode=), and the agreements ticked. Fields, labels, messages and rules (the passwords match, the
 * agreement is ticked) come from schemas/registration.yaml through its generated validator; the server runs
 * the same. Once registered the user is signed in with what they just typed (DECISIONS: register, then log in).
 */
export default function Register() {
  const styles = useAuthStyles()
  const { t } = useTranslation()
  const effects = useEffects()
  const [params] = useSearchParams()
  const entity = formEntity('registration')
  const problemText = useProblemText()
  const form = useFormState({
    username: '',
    password: '',
    confirmPassword: '',
    mobile: '',
    code: '',
    email: '',
    realName: '',
    inviteCode: params.get('inviteCode') ?? '',
    region: '',
    agreement: false as boolean,
  })
  const [failure, setFailure] = useState<string | null>(null)
  const [mobileRegistered, setMobileRegistered] = useState(false)
  const [busy, setBusy] = useState(false)
  const code = useSmsCodeSender({
    mobile: form.values.mobile,
    field: 'mobile',
    request: quietClient.b2b.sendRegisterSms,
    setProblems: form.setProblems,
    onFailure: setFailure,
  })
  const signedIn = useSignedIn()
  usePreloadValidators()

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setFailure(null)
    setMobileRegistered(false)
    const body = bodyOf(form.values, AS_TYPED)
    const found = check(await validatorOf('registration'), body, entity.fields)
    form.setProblems(found)
    if (Object.keys(found).length) return
    setBusy(true)
    try {
      await quietClient.b2b.userRegister(proven<Registration>(body))
    } catch (error) {
      setBusy(false)
      setMobileRegistered(error instanceof RequestError && error.code === '300002')
      showRefusal(error, DRAWN, form.setProblems, setFailure, t('ui.hasError'))
      return
    }
    // Registered: signed in with the name and password just chosen, as a personal user.
    try {
      await quietClient.b2b.userLogin({ username: body.username as string, password: body.password as string })
      await signedIn(t('ui.registerSuccess'), 'register')
    } catch {
      effects.toast(t('ui.registerSuccessLogin'), { intent: 'success', id: 'register' })
      effects.navigate('/login', { replace: true })
    } finally {
      setBusy(false)
    }
  }

  const text = (name: (typeof TEXT_FIELDS)[number], options: Partial<Parameters<typeof EntityField>[0]> = {}) => (
    <EntityField
      entity={entity}
      field={name}
      value={form.values[name as keyof typeof form.values] as string}
      onChange={(value) => form.set(name as 'username', value)}
      problem={form.problems[name]}
      {...options}
    />
  )
  const agreement = entity.fields.agreement
  const region = entity.fields.region
  const regionMessage = problemText(form.problems.region)
  const agreementMessage = problemText(form.problems.agreement)

  return (
    <AuthCard title={t('route.register')} subtitleKey="ui.registerWelcome" failure={failure} wide onSubmit={submit}>
      {text('username', { autoComplete: 'username' })}
      {text('password', { type: 'password', autoComplete: 'new-password' })}
      {text('confirmPassword', { type: 'password', autoComplete: 'new-password' })}
      {text('mobile', { type: 'tel', inputMode: 'tel', autoComplete: 'tel-national' })}
      {mobileRegistered && (
        <Link href="/login" onClick={follow(effects.navigate, '/login')}>
          {t('ui.loginSubmit')}
        </Link>
      )}
      <CodeField entity={entity} sender={code} {...form.bind('code')} />
      {text('email', { type: 'email', autoComplete: 'email' })}
      {text('realName', { autoComplete: 'name' })}
      {text('inviteCode', { autoComplete: 'off' })}
      <Field
        label={t(region?.label ?? 'field.country')}
        validationMessage={regionMessage}
        validationState={regionMessage ? 'error' : 'none'}
      >
        <ReferenceCombobox
          entity={region?.ref ?? 'country'}
          label={t(region?.label ?? 'field.country')}
          values={form.values.region ? [form.values.region] : []}
          onChange={(values) => form.set('region', values[0] ?? '')}
        />
      </Field>
      <Field
        required={agreement?.required === true}
        validationMessage={agreementMessage}
        validationState={agreementMessage ? 'error' : 'none'}
      >
        <Checkbox
          name="agreement"
          checked={form.values.agreement}
          onChange={(_, data) => form.set('agreement', data.checked === true)}
          label={t(agreement?.label ?? 'field.agreement')}
        />
      </Field>
      <div className={styles.links}>
        <Link href="/ServiceAgreement" target="_blank" rel="noopener">
          {t('ui.footer_serviceAgreement')}
        </Link>
        <Link href="/PrivacyAgreement" target="_blank" rel="noopener">
          {t('ui.footer_privacyAgreement')}
        </Link>
      </div>
      <Button type="submit" appearance="primary" size="large" disabled={busy}>
        {busy ? t('ui.registering') : t('ui.registerSubmit')}
      </Button>
      <div className={styles.links}>
        <Link href="/login" onClick={follow(effects.navigate, '/login')}>
          {t('ui.registerHaveAccount')}
        </Link>
      </div>
    </AuthCard>
  )
}
