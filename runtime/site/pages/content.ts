import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import type { SitePage } from '../../../generated/content.ts'
import { quietClient } from '../../quietClient.ts'
import type { SitePageName } from '../meta.ts'

/** The copy of one service or about page, as GET /b2b/public/api/site/pages answers it (schemas/sitePage.yaml). */
export type { SitePage } from '../../../generated/content.ts'

export type { SitePageName } from '../meta.ts'
export { PAGE_OF_ROUTE, SERVICE_LINKS } from '../meta.ts'

/** Every page's copy in the reader's language (one call, cached per language). */
export function useSitePages() {
  const { i18n } = useTranslation()
  return useQuery({
    queryKey: ['sitePages', i18n.language],
    queryFn: async ({ signal }): Promise<Record<SitePageName, SitePage>> =>
      (await quietClient.b2b.sitePages({}, signal)).content,
    staleTime: 10 * 60_000,
  })
}
