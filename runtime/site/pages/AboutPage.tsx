import type { ScreenProps } from '../../registry.ts'
import { ContentPage } from './ContentPage.tsx'

/** /WhoWeAre, /aboutUs, /about and /CompanyPhilosophy. */
export default function AboutPage({ route }: ScreenProps) {
  return <ContentPage route={route} family="about" />
}
