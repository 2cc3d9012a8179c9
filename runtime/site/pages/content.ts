import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { quietClient } from '../../quietClient.ts'
import type { SitePageName } from '../meta.ts'

/** The copy of the service and about pages, as GET /b2b/public/api/site/pages answers it (server/domain/site/pages.ts). */
export interface SitePage {
  title: string
  lead: string
  sections: { heading: string; text: string }[]
}

export type { SitePageName } from '../meta.ts'
export { PAGE_OF_ROUTE, SERVICE_LINKS } from '../meta.ts'

/** Every page's copy in the reader's language (one call, cached per language). */
export function useSitePages() {
  const { i18n } = useTranslation()
  return useQuery({
    queryKey: ['sitePages', i18n.language],
    queryFn: async ({ signal }) =>
      (await quietClient.b2b.sitePages({}, signal)).content as Record<SitePageName, SitePage>,
    staleTime: 10 * 60_000,
  })
}
