import { mergeClasses } from '@fluentui/react-components'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { formatNewsDate, type NewsCard, newsHref, useHotNews, useRecommendedNews } from './api.ts'
import { useNewsStyles } from './styles.ts'

function Ranked({ title, items, testId }: { title: string; items: NewsCard[] | undefined; testId: string }) {
  const styles = useNewsStyles()
  const { i18n } = useTranslation()
  if (!items?.length) return null
  return (
    <section className={styles.panel} data-testid={testId} aria-label={title}>
      <h2 className={styles.panelTitle}>{title}</h2>
      <ol className={styles.rankList}>
        {items.map((item, index) => (
          <li key={item.id} className={styles.rankItem}>
            <span className={mergeClasses(styles.rank, index < 3 && styles.rankTop)}>{index + 1}</span>
            <span>
              <Link className={styles.link} to={newsHref(item.id)}>
                {item.title}
              </Link>
              <span className={styles.rankDate}>{formatNewsDate(item.publishedAt, i18n.language)}</span>
            </span>
          </li>
        ))}
      </ol>
    </section>
  )
}

/** The hot and recommended lists beside the news list and the article. */
export function NewsSide() {
  const styles = useNewsStyles()
  const { t } = useTranslation()
  const hot = useHotNews(5)
  const recommended = useRecommendedNews(5)
  return (
    <aside className={styles.side}>
      <Ranked title={t('news.hot')} items={hot.data} testId="news-hot" />
      <Ranked title={t('news.recommended')} items={recommended.data} testId="news-recommended" />
    </aside>
  )
}
