import type { HandlerRegistry } from '../http/endpoints.ts'

/** Accounts and sessions: register, login, logout, current user, password reset… (SPEC §7 "User"). */
export const authHandlers: HandlerRegistry = {}
