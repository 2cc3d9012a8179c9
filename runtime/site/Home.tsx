import { type ComponentType, type LazyExoticComponent, lazy, Suspense } from 'react'
import type { ScreenProps } from '../registry.ts'
import { PageSpinner } from '../routing/RouteGate.tsx'
import { usePageTemplate } from './home/choice.ts'
import { HOME_TEMPLATES, loadMobileHome } from './loaders.ts'

/**
 * The home page: one of the six white-label templates (SPEC §2, runtime/site/home/choice.ts decides
 * which), each a chunk of its own so a visitor downloads only theirs; on the mobile site (/m) the mobile home.
 */
const TEMPLATES: readonly LazyExoticComponent<ComponentType>[] = HOME_TEMPLATES.map((load) => lazy(load))

const MobileHome = lazy(loadMobileHome)

function DesktopHome() {
  const template = usePageTemplate()
  if (template === undefined) return <PageSpinner />
  const Template = TEMPLATES[template] ?? (TEMPLATES[0] as LazyExoticComponent<ComponentType>)
  return (
    <Suspense fallback={<PageSpinner />}>
      <Template />
    </Suspense>
  )
}

export default function Home({ route }: ScreenProps) {
  if (route.layout === 'mobile') {
    return (
      <Suspense fallback={<PageSpinner />}>
        <MobileHome />
      </Suspense>
    )
  }
  return <DesktopHome />
}
