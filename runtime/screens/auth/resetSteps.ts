/**
 * /resetPassword's three steps (SPEC §2): choose how (mobile or e-mail) and where the code goes, enter the
 * code and the new password twice, and the result. Pure, so the order of the steps is tested on its own.
 */
export type ResetMethod = 'mobile' | 'email'

export type ResetState =
  | { step: 'choose'; method: ResetMethod }
  | { step: 'reset'; method: ResetMethod; account: string }
  | { step: 'done'; method: ResetMethod }

export type ResetEvent =
  | { type: 'method'; method: ResetMethod }
  | { type: 'codeSent'; account: string }
  | { type: 'back' }
  | { type: 'passwordReset' }

export const RESET_STEPS = ['choose', 'reset', 'done'] as const

export const initialReset: ResetState = { step: 'choose', method: 'mobile' }

export function resetStep(state: ResetState, event: ResetEvent): ResetState {
  switch (event.type) {
    case 'method':
      return state.step === 'choose' ? { step: 'choose', method: event.method } : state
    case 'codeSent':
      return state.step === 'choose' ? { step: 'reset', method: state.method, account: event.account } : state
    case 'back':
      return state.step === 'reset' ? { step: 'choose', method: state.method } : state
    case 'passwordReset':
      return state.step === 'reset' ? { step: 'done', method: state.method } : state
  }
}

/** The step's place, 0-based, for the step indicator. */
export const stepIndex = (state: ResetState): number => RESET_STEPS.indexOf(state.step)
