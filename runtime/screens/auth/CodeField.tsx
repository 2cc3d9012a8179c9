import { Button } from '@fluentui/react-components'
import { useCallback, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { SmsCodeRequest } from '../../../generated/types.ts'
import { RESEND_SECONDS } from '../../../rules/codes.ts'
import { RequestError } from '../../api.ts'
import type { PortalEntity } from '../manifest.ts'
import { bodyOf, check, type Problems, proven, waitOf } from './authForm.ts'
import { secondsLeft, sendButton } from './countdown.ts'
import { EntityField, type EntityFieldProps, formEntity, showRefusal, useAuthStyles, validatorOf } from './parts.tsx'

/**
 * The verification code field with its "send code" button beside it, as /login's code tab, /register and
 * /resetPassword's second step draw it: what a press asks the server for, SPEC §9's wait counted down on the
 * button, and a refusal under the field it concerns or above the form.
 */

export interface ResendWait {
  left: number
  /** A code was just sent (SPEC §9's whole wait), or the server said how long is left (`seconds`). */
  start: (seconds?: number) => void
  /** A refused send: when the server said how long to wait (300001), that is counted down too. */
  refused: (error: unknown) => void
}

/** SPEC §9's wait between codes, counted down from the moment one was sent. */
export function useResendWait(): ResendWait {
  const [sent, setSent] = useState<{ at: number; wait: number } | null>(null)
  const [now, setNow] = useState(() => Date.now())
  const left = sent ? secondsLeft(sent.at, now, sent.wait) : 0
  useEffect(() => {
    if (sent === null || left === 0) return
    const timer = setInterval(() => setNow(Date.now()), 250)
    return () => clearInterval(timer)
  }, [sent, left])
  const start = useCallback((seconds: number = RESEND_SECONDS) => {
    const at = Date.now()
    setSent({ at, wait: seconds })
    setNow(at)
  }, [])
  const refused = useCallback(
    (error: unknown) => {
      const seconds = error instanceof RequestError ? waitOf(error) : null
      if (seconds !== null) start(seconds)
    },
    [start],
  )
  return { left, start, refused }
}

/** What the "send code" button draws and does. */
export interface CodeSender {
  sending: boolean
  left: number
  send: () => Promise<void>
}

interface CodeSenderOptions {
  /** The form's field a refusal of the request is shown under (the server's name for it renamed by `rename`). */
  field: string
  rename?: Record<string, string>
  /** Asks the server for a code. */
  request: () => Promise<unknown>
  /** The checks made before asking: a problem found is shown, and nothing is asked. */
  checkFirst?: () => Promise<Problems>
  setProblems: (problems: Problems) => void
  onFailure: (message: string | null) => void
  /** The page's wait where it outlives the field (the reset page asks for the first code a step before). */
  wait?: ResendWait
}

/** Asks for a code when the button is pressed, and counts down the wait before another. */
export function useCodeSender(options: CodeSenderOptions): CodeSender {
  const { t } = useTranslation()
  const [sending, setSending] = useState(false)
  const ownWait = useResendWait()
  const wait = options.wait ?? ownWait

  const send = async () => {
    options.onFailure(null)
    if (options.checkFirst) {
      const found = await options.checkFirst()
      options.setProblems(found)
      if (Object.keys(found).length) return
    }
    setSending(true)
    try {
      await options.request()
      wait.start()
    } catch (error) {
      showRefusal(error, [options.field], options.setProblems, options.onFailure, t('ui.hasError'), options.rename)
      wait.refused(error)
    } finally {
      setSending(false)
    }
  }
  return { sending, left: wait.left, send }
}

/**
 * A code sent by SMS to the mobile number in the form's `field` (sendLoginSms, sendRegisterSms): the number is
 * checked as smsCodeRequest first, its problems shown under that field.
 */
export function useSmsCodeSender(
  options: Omit<CodeSenderOptions, 'request' | 'checkFirst' | 'rename' | 'wait'> & {
    mobile: string
    request: (body: SmsCodeRequest) => Promise<unknown>
  },
): CodeSender {
  const body = bodyOf({ key: options.mobile })
  const rename = { key: options.field }
  return useCodeSender({
    ...options,
    rename,
    checkFirst: async () =>
      check(await validatorOf('smsCodeRequest'), body, formEntity('smsCodeRequest').fields, { rename }),
    request: () => options.request(proven<SmsCodeRequest>(body)),
  })
}

/** The entity's `code` field, its "send code" button beside it. */
export function CodeField(
  props: Pick<EntityFieldProps, 'value' | 'onChange' | 'problem'> & { entity: PortalEntity; sender: CodeSender },
) {
  return (
    <EntityField
      entity={props.entity}
      field="code"
      inputMode="numeric"
      autoComplete="one-time-code"
      value={props.value}
      onChange={props.onChange}
      problem={props.problem}
      after={<SendCodeButton sending={props.sender.sending} left={props.sender.left} onClick={props.sender.send} />}
    />
  )
}

/** "Send code", then the seconds until another may be asked for. */
function SendCodeButton(props: { sending: boolean; left: number; onClick: () => Promise<void> }) {
  const { t } = useTranslation()
  const styles = useAuthStyles()
  const state = sendButton(props.sending, props.left)
  return (
    <Button
      type="button"
      size="large"
      className={styles.sendButton}
      disabled={state.kind !== 'send'}
      onClick={() => void props.onClick()}
      data-testid="send-code"
    >
      {state.kind === 'send'
        ? t('ui.sendCode')
        : state.kind === 'sending'
          ? t('ui.sendingCode')
          : t('ui.resendIn', { seconds: state.seconds })}
    </Button>
  )
}
