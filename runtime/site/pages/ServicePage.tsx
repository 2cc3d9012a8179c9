import type { ScreenProps } from '../../registry.ts'
import { ContentPage } from './ContentPage.tsx'

/** /productService, /FclProductService … /InsureServiceDetail, /service, /serviceCenter, /serviceDetail. */
export default function ServicePage({ route }: ScreenProps) {
  return <ContentPage route={route} family="service" />
}
