import { mergeClasses } from '@fluentui/react-components'
import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useSearchParams } from 'react-router'
import { useButtonStyles } from '../../shell/styles.ts'
import { setPageDescription } from '../head.ts'
import { pageTitle } from '../meta.ts'
import { siteName, useSiteSettings } from '../SiteSettings.tsx'
import { formatNewsDate, likeNews, type NewsArticle, newsHref, newsPdfUrl, useNewsArticle } from './api.ts'
import { NewsSide } from './NewsSide.tsx'
import { useNewsStyles } from './styles.ts'

function LikeButton({ article }: { article: NewsArticle }) {
  const buttons = useButtonStyles()
  const styles = useNewsStyles()
  const { t, i18n } = useTranslation()
  const queryClient = useQueryClient()
  const [busy, setBusy] = useState(false)
  const like = async () => {
    setBusy(true)
    try {
      const answer = await likeNews(article.id)
      queryClient.setQueryData<NewsArticle>(['news', 'article', i18n.language, article.id], (old) =>
        old ? { ...old, likes: answer.likes, liked: true } : old,
      )
    } catch {
      // The count stays as it was; the reader may try again.
    } finally {
      setBusy(false)
    }
  }
  return (
    <button
      type="button"
      className={mergeClasses(buttons.button, article.liked ? styles.liked : styles.secondary)}
      aria-pressed={article.liked}
      disabled={busy || article.liked}
      onClick={() => void like()}
      data-testid="news-like"
    >
      <span aria-hidden>{article.liked ? '♥' : '♡'}</span>
      {article.liked ? t('news.liked') : t('news.like')}
      <span data-testid="news-like-count">{article.likes}</span>
    </button>
  )
}

/** /InformationCenterDetail (public) and /informationCenterDetail (signed in): one article. */
export default function NewsDetail() {
  const styles = useNewsStyles()
  const buttons = useButtonStyles()
  const { t, i18n } = useTranslation()
  const [params] = useSearchParams()
  const raw = params.get('id') ?? ''
  const id = /^\d{1,10}$/.test(raw) ? Number(raw) : null
  const query = useNewsArticle(id)
  const article = query.data
  const category = article ? `news.category${article.category[0]?.toUpperCase()}${article.category.slice(1)}` : ''
  // The tab and the description name the article, as in the HTML the server sent (server/portal/content.ts).
  const site = siteName(useSiteSettings(), i18n.language)
  useEffect(() => {
    if (!article) return
    document.title = pageTitle(article.title, site)
    if (article.summary) setPageDescription(article.summary)
  }, [article, site])

  return (
    <div className={styles.page}>
      <main className={styles.article}>
        <nav className={styles.crumbs} aria-label="breadcrumb">
          <Link className={styles.link} to="/">
            {t('news.home')}
          </Link>
          <span aria-hidden>/</span>
          <Link className={styles.link} to="/informationCenterList">
            {t('news.title')}
          </Link>
          {article && (
            <>
              <span aria-hidden>/</span>
              <Link className={styles.link} to={`/informationCenterList?category=${article.category}`}>
                {t(category)}
              </Link>
            </>
          )}
        </nav>
        {id === null || query.isError ? (
          <div className={styles.notice} role="alert" data-testid="news-not-found">
            <p>{t('news.notFound')}</p>
            <Link className={mergeClasses(buttons.button, buttons.primary)} to="/informationCenterList">
              {t('news.backToList')}
            </Link>
          </div>
        ) : !article ? (
          <div className={styles.notice}>{t('news.loading')}</div>
        ) : (
          <article lang={article.language}>
            <h1 className={styles.articleTitle}>{article.title}</h1>
            <div className={styles.meta}>
              {article.hot && <span className={styles.badge}>{t('news.hotBadge')}</span>}
              <span className={styles.category}>{article.typeName}</span>
              <time dateTime={article.publishedAt}>
                {t('news.publishedOn', { date: formatNewsDate(article.publishedAt, i18n.language) })}
              </time>
              {article.source && <span>{t('news.source', { source: article.source })}</span>}
              {article.author && <span>{t('news.author', { author: article.author })}</span>}
            </div>
            {article.summary && <p className={styles.lead}>{article.summary}</p>}
            {article.coverUrl && <img className={styles.cover} src={article.coverUrl} alt="" />}
            <div
              className={styles.content}
              data-testid="news-content"
              // biome-ignore lint/security/noDangerouslySetInnerHtml: rich text is sanitised on the server when it is saved (server/http/sanitize.ts)
              dangerouslySetInnerHTML={{ __html: article.content }}
            />
            {article.tags.length > 0 && (
              <div className={styles.meta}>
                <span>{t('news.tags')}:</span>
                {article.tags.map((tag) => (
                  <span key={tag} className={styles.tag}>
                    #{tag}
                  </span>
                ))}
              </div>
            )}
            <div className={styles.tools}>
              <LikeButton article={article} />
              <a
                className={mergeClasses(buttons.button, buttons.primary)}
                href={newsPdfUrl(article.id)}
                download
                data-testid="news-pdf"
              >
                {t('news.downloadPdf')}
              </a>
              <Link className={mergeClasses(buttons.button, styles.secondary)} to="/informationCenterList">
                {t('news.backToList')}
              </Link>
            </div>
            <nav className={styles.around}>
              <div>
                {article.previous && (
                  <>
                    <span className={styles.aroundLabel}>{t('news.previousArticle')}</span>
                    <Link className={styles.link} to={newsHref(article.previous.id)}>
                      {article.previous.title}
                    </Link>
                  </>
                )}
              </div>
              <div className={styles.aroundNext}>
                {article.next && (
                  <>
                    <span className={styles.aroundLabel}>{t('news.nextArticle')}</span>
                    <Link className={styles.link} to={newsHref(article.next.id)}>
                      {article.next.title}
                    </Link>
                  </>
                )}
              </div>
            </nav>
          </article>
        )}
      </main>
      <NewsSide />
    </div>
  )
}
