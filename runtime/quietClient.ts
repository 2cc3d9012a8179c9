import { type Client, createClient } from '../generated/client.ts'
import { createTransport } from './api.ts'
import { languageHeader } from './i18n.ts'

/**
 * The generated client with no side effects: failures only reject. For calls whose failure the caller
 * handles itself (the session probe, login, site settings before the shell exists). Screens use
 * `useClient()` instead, which carries SPEC §8's error behaviour.
 */
export const quietClient: Client = createClient(createTransport({ language: languageHeader }))
