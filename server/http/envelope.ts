/** The response shape of SPEC §7: every answer is `{ code, message, content }`, success `"0000"`. */
export interface Envelope<T = unknown> {
  code: string
  message: string
  content: T
}

export const SUCCESS = '0000'

export function ok<T>(content: T, message = 'success'): Envelope<T> {
  return { code: SUCCESS, message, content }
}
