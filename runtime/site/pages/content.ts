import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { quietClient } from '../../quietClient.ts'

/** The copy of the service and about pages, as GET /b2b/public/api/site/pages answers it (server/domain/site/pages.ts). */
export interface SitePage {
  title: string
  lead: string
  sections: { heading: string; text: string }[]
}

export type SitePageName = 'services' | 'fcl' | 'lcl' | 'air' | 'fba' | 'sea' | 'insurance' | 'about' | 'philosophy'

/** Which copy each public route shows (route names of screens/site.yaml). */
export const PAGE_OF_ROUTE: Readonly<Record<string, SitePageName>> = {
  productService: 'services',
  service: 'services',
  serviceCenter: 'services',
  serviceDetail: 'services',
  fclProductService: 'fcl',
  siteLclProductService: 'lcl',
  siteAirProductService: 'air',
  airServiceDetail: 'air',
  fbaProductService: 'fba',
  seaServiceDetail: 'sea',
  insureServiceDetail: 'insurance',
  whoWeAre: 'about',
  aboutUs: 'about',
  about: 'about',
  companyPhilosophy: 'philosophy',
}

/** The service pages' side menu: each service and the route that shows it. */
export const SERVICE_LINKS: readonly { page: SitePageName; to: string }[] = [
  { page: 'services', to: '/productService' },
  { page: 'fcl', to: '/FclProductService' },
  { page: 'lcl', to: '/LclProductService' },
  { page: 'air', to: '/AirProductService' },
  { page: 'fba', to: '/FbaProductService' },
  { page: 'sea', to: '/SeaServiceDetail' },
  { page: 'insurance', to: '/InsureServiceDetail' },
]

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
