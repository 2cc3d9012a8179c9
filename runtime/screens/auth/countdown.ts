import { RESEND_SECONDS } from '../../../rules/codes.ts'

/**
 * SPEC §9's wait between two verification codes, as the "send code" button counts it down: the seconds
 * left of `wait` since a code was sent at `sentAt` (milliseconds), never below zero; none before any code.
 */
export function secondsLeft(sentAt: number | null, now: number, wait: number = RESEND_SECONDS): number {
  if (sentAt === null) return 0
  const left = Math.ceil((sentAt + wait * 1000 - now) / 1000)
  return Math.min(wait, Math.max(0, left))
}

/** What the button says and whether it may be pressed: "send", "sending…" or the seconds to wait. */
export type SendButton = { kind: 'send' } | { kind: 'sending' } | { kind: 'wait'; seconds: number }

export function sendButton(sending: boolean, left: number): SendButton {
  if (sending) return { kind: 'sending' }
  return left > 0 ? { kind: 'wait', seconds: left } : { kind: 'send' }
}
