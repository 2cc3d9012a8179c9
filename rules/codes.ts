/**
 * Verification codes as both sides know them: SPEC §9's wait before another code may be asked for the same
 * number or address. The server refuses sooner requests (300001, server/auth/codes.ts); the sign-in pages
 * count it down on the "send code" button (runtime/screens/auth/countdown.ts).
 */
export const RESEND_SECONDS = 60
