import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import type { SpecialRouteCard } from '../../../generated/content.ts'
import { createTransport } from '../../api.ts'
import { languageHeader } from '../../i18n.ts'
import { quietClient } from '../../quietClient.ts'

/** One featured lane as GET /b2b/public/api/site/specialRoutes answers it (schemas/specialRouteCard.yaml). */
export type SpecialRoute = SpecialRouteCard

export function useSpecialRoutes() {
  return useQuery({
    queryKey: ['specialRoutes'],
    queryFn: async ({ signal }) => (await quietClient.b2b.specialRoutes({}, signal)).content.list,
    staleTime: 5 * 60_000,
  })
}

/** A port's name in the reader's language, with its UN/LOCODE when there is no name. */
export function portName(route: SpecialRoute, end: 'pol' | 'pod', language: string): string {
  const zh = end === 'pol' ? route.polNameZh : route.podNameZh
  const en = end === 'pol' ? route.polNameEn : route.podNameEn
  return (language === 'zh' ? zh || en : en || zh) || route[end]
}

/** "USD 1,850" — the price the lane starts from, without cents when it has none. */
export function formatPrice(route: SpecialRoute, language: string): string {
  const amount = Number(route.priceFrom)
  const digits = Number.isInteger(amount) ? 0 : 2
  return `${route.currency} ${amount.toLocaleString(language === 'zh' ? 'zh-CN' : language, { minimumFractionDigits: digits, maximumFractionDigits: 2 })}`
}

/** A card of the news centre's hot or recommended list. */
export interface NewsCard {
  id: number
  title: string
  summary: string
  publishedAt: string
}

// The news centre's calls (screens/news.yaml newsHot / newsRecommended), asked by path: the home page
// must show its block whether or not the news centre is built into this tree, and says so when it is empty.
const transport = createTransport({ language: languageHeader })

export function useNews(kind: 'hot' | 'recommended', limit = 5) {
  const { i18n } = useTranslation()
  return useQuery({
    queryKey: ['homeNews', kind, limit, i18n.language],
    queryFn: async ({ signal }) => {
      const answer = await transport<{ list?: NewsCard[] }>({
        method: 'GET',
        path: `/b2b/public/api/information/${kind}`,
        query: { limit },
        signal,
      })
      return answer.content?.list ?? []
    },
    staleTime: 5 * 60_000,
    retry: false,
  })
}
