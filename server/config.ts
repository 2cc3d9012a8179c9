import { resolve } from 'node:path'
import { DEFAULT_KEY_LIMIT, type KeyLimit } from './auth/limits.ts'

/** Everything the server reads from the environment, read once. */
export interface ServerConfig {
  port: number
  host: string
  dataDir: string
  databaseUrl: string | undefined
  /** PostgreSQL owner for migrations when the API's role (DATABASE_URL) may not run them. */
  ownerUrl: string | undefined
  /** Seed the demo tenants when the database is new (embedded default), or never (production PostgreSQL). */
  seedOnFirstStart: boolean
  staticDir: string
  /**
   * Addresses or CIDR ranges of the reverse proxies in front of the server (WAYBILL_TRUSTED_PROXIES,
   * comma-separated). Only a request from one of them has its X-Forwarded-For believed; none by default,
   * so a client cannot choose the address its per-address limits count against.
   */
  trustedProxies: string[]
  /** Each API key's rate limit: calls a minute and the burst (WAYBILL_API_KEY_PER_MINUTE, WAYBILL_API_KEY_BURST). */
  apiKeyLimit: KeyLimit
  /**
   * How often each process looks at every price watch in progress (PRICE_WATCH_EVERY_MS, default an hour):
   * the look is safe to run in every replica at once, which the scale-out test holds with a short period.
   */
  priceWatchEveryMs: number
}

/** A positive whole number from the environment, else the default (a typo must not switch a limit off). */
function positive(value: string | undefined, fallback: number): number {
  const n = Number(value)
  return value !== undefined && value !== '' && Number.isInteger(n) && n > 0 ? n : fallback
}

/** `10.0.0.1, 10.1.0.0/16` → ['10.0.0.1', '10.1.0.0/16']. */
export function parseTrustedProxies(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const databaseUrl = env.DATABASE_URL || undefined
  return {
    port: Number(env.PORT ?? 3000),
    host: env.HOST ?? '127.0.0.1',
    dataDir: resolve(env.DATA_DIR ?? 'data'),
    databaseUrl,
    ownerUrl: env.DATABASE_OWNER_URL || undefined,
    // A PostgreSQL server is production until someone says otherwise: never seed it by accident.
    seedOnFirstStart: databaseUrl ? env.WAYBILL_SEED === '1' : env.WAYBILL_SEED !== '0',
    staticDir: resolve(env.STATIC_DIR ?? 'dist'),
    trustedProxies: parseTrustedProxies(env.WAYBILL_TRUSTED_PROXIES),
    apiKeyLimit: {
      perMinute: positive(env.WAYBILL_API_KEY_PER_MINUTE, DEFAULT_KEY_LIMIT.perMinute),
      burst: positive(env.WAYBILL_API_KEY_BURST, DEFAULT_KEY_LIMIT.burst),
    },
    priceWatchEveryMs: positive(env.PRICE_WATCH_EVERY_MS, 60 * 60 * 1000),
  }
}
