import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { StatusPage } from '../../shell/StatusPage.tsx'

/** /404: says so, and offers the pages a visitor most likely wanted. */
export default function NotFound() {
  const { t } = useTranslation()
  return (
    <>
      <StatusPage code="404" title={t('ui.notFoundTitle')} text={t('ui.notFoundText')} />
      <nav style={{ display: 'flex', gap: 20, justifyContent: 'center', marginBottom: 48 }}>
        <Link to="/productService">{t('route.productService')}</Link>
        <Link to="/orderTracking">{t('route.orderTracking')}</Link>
        <Link to="/aboutUs">{t('route.aboutUs')}</Link>
      </nav>
    </>
  )
}
