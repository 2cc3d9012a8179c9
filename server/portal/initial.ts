import type { Transaction } from 'kysely'
import type { DB } from '../db/schema.ts'
import { flaggedNews, newsLanguage } from '../domain/news/queries.ts'
import { featuredLanes, personalizationOf, publicSiteSettings } from '../domain/site/handlers.ts'
import type { Language } from '../http/errors.ts'
import type { Tenant } from '../tenancy/resolve.ts'
import { jsonScript } from './document.ts'

/**
 * The answers a page's first drawing needs, written into its HTML (issue #18, "speed on a phone"): the
 * tenant's site settings and personalization (its home template) on every page, and on the home page its featured lanes and the hot and
 * recommended news. Without them the portal drew its page, asked, and moved everything when the answers
 * came (CLS 0.29 on the mobile home). Each entry is exactly what its public call answers
 * (server/domain/site/handlers.ts, the news centre's newsHot/newsRecommended with their default limit)
 * and the portal seeds its query cache with them (runtime/main.tsx), so nothing waits for a round trip.
 * Only public answers: nothing here depends on who asks.
 */

/** The news each home column shows (runtime/site/home/data.ts useNews's default limit). */
export const HOME_NEWS_LIMIT = 5

export interface InitialData {
  siteSettings: Record<string, unknown>
  personalization: Record<string, unknown>
  /** The reader's language the news below was read in (the portal's `homeNews` query key carries it). */
  language?: Language
  specialRoutes?: Record<string, unknown>[]
  homeNews?: { hot: unknown[]; recommended: unknown[]; limit: number }
}

export async function initialData(
  tenant: Tenant,
  language: Language,
  component: string | null,
  load: <T>(work: (trx: Transaction<DB>) => Promise<T>) => Promise<T>,
): Promise<InitialData> {
  const siteSettings = publicSiteSettings(tenant)
  const personalization = personalizationOf(tenant.settings)
  if (component !== 'home') return { siteSettings, personalization }
  const news = newsLanguage(language)
  const [specialRoutes, hot, recommended] = await Promise.all([
    featuredLanes(tenant.settings, load),
    load((trx) => flaggedNews(trx, tenant.id, 'hot', news, HOME_NEWS_LIMIT)),
    load((trx) => flaggedNews(trx, tenant.id, 'recommended', news, HOME_NEWS_LIMIT)),
  ])
  return {
    siteSettings,
    personalization,
    language,
    specialRoutes,
    homeNews: { hot, recommended, limit: HOME_NEWS_LIMIT },
  }
}

/** The id of the script element that carries it; runtime/main.tsx reads it. */
export const INITIAL_DATA_ID = 'waybill-initial'

export function initialDataScript(data: InitialData): string {
  return `<script type="application/json" id="${INITIAL_DATA_ID}">${jsonScript(data)}</script>`
}
