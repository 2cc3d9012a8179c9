import { describe, expect, it } from 'vitest'
import manifestJson from '../../generated/manifest.json'
import * as validators from '../../generated/validators.js'
import type { Manifest } from '../../model/resolve.ts'
import { bodyOf, check, serverProblems, type Validate, waitOf } from '../../runtime/screens/auth/authForm.ts'
import { secondsLeft, sendButton } from '../../runtime/screens/auth/countdown.ts'
import { initialReset, type ResetState, resetStep, stepIndex } from '../../runtime/screens/auth/resetSteps.ts'

/** Issue #21: the pure halves of /login, /register and /resetPassword. */
const manifest = manifestJson as unknown as Manifest
const fields = (entity: string) => {
  const found = manifest.entities[entity]?.fields
  if (!found) throw new Error(`no entity ${entity}`)
  return found
}
const validator = (entity: string) => (validators as unknown as Record<string, Validate>)[entity] as Validate

describe('the send-code countdown (SPEC §9: 60 seconds)', () => {
  const sentAt = 1_000_000
  it('waits 60 seconds from the moment a code was sent, counting whole seconds down to zero', () => {
    expect(secondsLeft(null, sentAt)).toBe(0)
    expect(secondsLeft(sentAt, sentAt)).toBe(60)
    expect(secondsLeft(sentAt, sentAt + 1)).toBe(60)
    expect(secondsLeft(sentAt, sentAt + 1000)).toBe(59)
    expect(secondsLeft(sentAt, sentAt + 59_001)).toBe(1)
    expect(secondsLeft(sentAt, sentAt + 60_000)).toBe(0)
    expect(secondsLeft(sentAt, sentAt + 3_600_000)).toBe(0)
  })

  it('counts down what the server says is left when it refuses a code too soon (300001)', () => {
    expect(waitOf({ code: '300001', content: { waitSeconds: 42 } })).toBe(42)
    expect(secondsLeft(sentAt, sentAt + 2000, 42)).toBe(40)
    // The other 300001 (too many codes today) and anything else say no seconds.
    expect(waitOf({ code: '300001', content: null })).toBeNull()
    expect(waitOf({ code: '300004', content: { waitSeconds: 42 } })).toBeNull()
    expect(waitOf({ code: '300001', content: { waitSeconds: '42' } })).toBeNull()
  })

  it('never shows more than the wait when the clock goes back', () => {
    expect(secondsLeft(sentAt, sentAt - 30_000)).toBe(60)
  })

  it('lets the button send only when nothing is being sent and the wait is over', () => {
    expect(sendButton(false, 0)).toEqual({ kind: 'send' })
    expect(sendButton(true, 0)).toEqual({ kind: 'sending' })
    expect(sendButton(false, 42)).toEqual({ kind: 'wait', seconds: 42 })
  })
})

describe('the three steps of /resetPassword', () => {
  it('go choose → reset → done, keeping the way chosen', () => {
    let state: ResetState = initialReset
    expect(state).toEqual({ step: 'choose', method: 'mobile' })
    state = resetStep(state, { type: 'method', method: 'email' })
    state = resetStep(state, { type: 'codeSent', account: 'chen.jing@minghui-textile.example' })
    expect(state).toEqual({ step: 'reset', method: 'email', account: 'chen.jing@minghui-textile.example' })
    expect(stepIndex(state)).toBe(1)
    state = resetStep(state, { type: 'passwordReset' })
    expect(state).toEqual({ step: 'done', method: 'email' })
    expect(stepIndex(state)).toBe(2)
  })

  it('go back from the code to the choice, and nowhere from the result', () => {
    const reset = resetStep(initialReset, { type: 'codeSent', account: '13800138000' })
    expect(resetStep(reset, { type: 'back' })).toEqual({ step: 'choose', method: 'mobile' })
    const done = resetStep(reset, { type: 'passwordReset' })
    for (const event of [
      { type: 'back' },
      { type: 'codeSent', account: '13900000000' },
      { type: 'method', method: 'email' },
    ] as const)
      expect(resetStep(done, event)).toBe(done)
    // No skipping: a password is not reset before a code was sent.
    expect(resetStep(initialReset, { type: 'passwordReset' })).toBe(initialReset)
  })
})

describe('the forms check with the generated validators and the YAML’s messages', () => {
  const registration = {
    username: 'liuyang2026',
    password: 'Freight@2026',
    confirmPassword: 'Freight@2026',
    mobile: '13912345678',
    code: '042137',
    agreement: true,
  }

  it('refuses an unticked agreement with the agreement’s own message', () => {
    expect(check(validator('registration'), { ...registration, agreement: false }, fields('registration'))).toEqual({
      agreement: { key: 'rule.agreementRequired', params: {} },
    })
  })

  it('puts “the passwords do not match” under the confirmation', () => {
    const problems = check(
      validator('registration'),
      { ...registration, confirmPassword: 'Freight@2027' },
      fields('registration'),
    )
    expect(Object.keys(problems)).toEqual(['confirmPassword'])
    expect(problems.confirmPassword).toMatchObject({ key: 'rule.passwordMismatch' })
  })

  it('names the user-name rule and a missing field, one message per field', () => {
    const { code: _, ...noCode } = registration
    const problems = check(validator('registration'), { ...noCode, username: '20260101' }, fields('registration'))
    expect(problems).toEqual({
      username: { key: 'rule.usernameFormat', params: {} },
      code: { key: 'validation.required', params: {} },
    })
  })

  it('checks the mobile before a code is sent, under the form’s own field name', () => {
    const problems = check(validator('smsCodeRequest'), { key: '1380013800' }, fields('smsCodeRequest'), {
      rename: { key: 'mobile' },
    })
    expect(problems).toEqual({ mobile: { key: 'rule.chinaMobile', params: {} } })
    expect(check(validator('smsCodeRequest'), { key: '13800138000' }, fields('smsCodeRequest'))).toEqual({})
  })

  it('checks only the passwords of a reset before the server gave its ticket', () => {
    const problems = check(
      validator('passwordReset'),
      { password: 'harbour2026', confirmPassword: 'harbour2026' },
      fields('passwordReset'),
      { only: ['password', 'confirmPassword'] },
    )
    expect(problems).toEqual({ password: { key: 'validation.format_password', params: {} } })
  })

  it('sends text trimmed, passwords as typed, and leaves out what was not filled in', () => {
    expect(
      bodyOf({ username: ' liuyang ', password: ' Pass word1! ', email: '', agreement: false }, ['password']),
    ).toEqual({ username: 'liuyang', password: ' Pass word1! ', agreement: false })
  })
})

describe('a refusal from the server on the sign-in forms', () => {
  it('shows field errors under their fields in the server’s words', () => {
    const shown = serverProblems(
      {
        code: 'validation',
        message: 'Invalid',
        fieldErrors: [{ field: 'agreement', key: 'rule.agreementRequired', message: 'Please read and accept' }],
      },
      ['agreement'],
    )
    expect(shown).toEqual({ fields: { agreement: { text: 'Please read and accept' } }, general: null })
  })

  it('puts a wrong code under the code field and an existing mobile under the mobile', () => {
    expect(
      serverProblems({ code: '300004', message: 'Incorrect SMS verification code', fieldErrors: [] }, ['code']),
    ).toEqual({ fields: { code: { text: 'Incorrect SMS verification code' } }, general: null })
    expect(
      serverProblems(
        { code: '300002', message: 'This mobile number is already registered. Please log in.', fieldErrors: [] },
        ['mobile', 'code'],
      ).fields.mobile,
    ).toEqual({ text: 'This mobile number is already registered. Please log in.' })
  })

  it('says the rest above the form: the wait (300001), a wrong password, a field the form does not draw', () => {
    const wait = 'The verification code cannot be requested again within 42 seconds'
    expect(serverProblems({ code: '300001', message: wait, fieldErrors: [] }, ['key'])).toEqual({
      fields: {},
      general: wait,
    })
    expect(
      serverProblems({ code: '300005', message: 'Incorrect user name or password', fieldErrors: [] }, ['username'])
        .general,
    ).toBe('Incorrect user name or password')
    expect(
      serverProblems(
        {
          code: 'validation',
          message: 'x',
          fieldErrors: [{ field: 'ticket', key: 'validation.pattern', message: 'Invalid format' }],
        },
        ['password'],
      ),
    ).toEqual({ fields: {}, general: 'Invalid format' })
    // The form's name for an entity's field (smsCodeRequest's key is the registration's mobile).
    expect(
      serverProblems(
        { code: 'validation', message: 'x', fieldErrors: [{ field: 'key', key: 'rule.chinaMobile', message: 'Bad' }] },
        ['mobile'],
        { key: 'mobile' },
      ).fields,
    ).toEqual({ mobile: { text: 'Bad' } })
  })
})
