import { mergeClasses } from '@fluentui/react-components'
import { type FormEvent, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useSearchParams } from 'react-router'
import { useButtonStyles } from '../../shell/styles.ts'
import {
  formatNewsDate,
  NEWS_CATEGORIES,
  type NewsCard,
  type NewsCategory,
  newsCoverUrl,
  newsHref,
  useNewsList,
} from './api.ts'
import { NewsSide } from './NewsSide.tsx'
import { useNewsStyles } from './styles.ts'

const PAGE_SIZE = 10
const DATE = /^\d{4}-\d{2}-\d{2}$/

const categoryLabel = (category: 'all' | NewsCategory) =>
  `news.category${category[0]?.toUpperCase()}${category.slice(1)}` as const

/** The list's state lives in the URL (?category=&keyword=&beginDate=&endDate=&page=), so Back restores it. */
function readState(params: URLSearchParams) {
  const category = params.get('category') ?? 'all'
  const page = Number(params.get('page') ?? '1')
  const begin = params.get('beginDate') ?? ''
  const end = params.get('endDate') ?? ''
  return {
    category: (NEWS_CATEGORIES as readonly string[]).includes(category) ? (category as 'all' | NewsCategory) : 'all',
    keyword: (params.get('keyword') ?? '').slice(0, 100),
    beginDate: DATE.test(begin) ? begin : '',
    endDate: DATE.test(end) ? end : '',
    page: Number.isInteger(page) && page > 0 ? page : 1,
  }
}

function Card({ item }: { item: NewsCard }) {
  const styles = useNewsStyles()
  const { t, i18n } = useTranslation()
  const date = new Date(item.publishedAt)
  return (
    <li className={styles.card} data-testid="news-card">
      <Link to={newsHref(item.id)} aria-hidden tabIndex={-1}>
        {item.hasCover ? (
          <img className={styles.thumb} src={newsCoverUrl(item.id)} alt="" loading="lazy" />
        ) : (
          <span className={mergeClasses(styles.thumb, styles[item.category])}>
            <span className={styles.thumbDay}>{String(date.getUTCDate()).padStart(2, '0')}</span>
            <span className={styles.thumbMonth}>
              {date.getUTCFullYear()}.{String(date.getUTCMonth() + 1).padStart(2, '0')}
            </span>
          </span>
        )}
      </Link>
      <div className={styles.cardBody}>
        <h3 className={styles.cardTitle}>
          <Link className={styles.link} to={newsHref(item.id)}>
            {item.title}
          </Link>
        </h3>
        {item.summary && <p className={styles.summary}>{item.summary}</p>}
        <div className={styles.meta}>
          {item.hot && <span className={styles.badge}>{t('news.hotBadge')}</span>}
          <span className={styles.category}>{t(categoryLabel(item.category))}</span>
          <time dateTime={item.publishedAt}>{formatNewsDate(item.publishedAt, i18n.language)}</time>
          {item.source && <span>{t('news.source', { source: item.source })}</span>}
          <span>{t('news.likes', { count: item.likes })}</span>
        </div>
      </div>
    </li>
  )
}

/** /News and /informationCenterList: categories, keyword, publishing days, pages, hot and recommended news. */
export default function NewsList() {
  const styles = useNewsStyles()
  const buttons = useButtonStyles()
  const { t } = useTranslation()
  const [params, setParams] = useSearchParams()
  const state = readState(params)
  const [draft, setDraft] = useState({ keyword: state.keyword, beginDate: state.beginDate, endDate: state.endDate })
  // Back and Forward change the URL under the form: show what the URL says.
  useEffect(() => {
    setDraft({ keyword: state.keyword, beginDate: state.beginDate, endDate: state.endDate })
  }, [state.keyword, state.beginDate, state.endDate])

  const query = useNewsList({
    category: state.category,
    keyword: state.keyword || undefined,
    beginDate: state.beginDate || undefined,
    endDate: state.endDate || undefined,
    pageNum: state.page,
    pageSize: PAGE_SIZE,
  })
  const pages = Math.max(1, Math.ceil((query.data?.total ?? 0) / PAGE_SIZE))

  /** New filters go back to page 1 (SPEC §4); every change is a history entry. */
  const go = (next: Partial<ReturnType<typeof readState>>) => {
    const merged = { ...state, page: 1, ...next }
    const search = new URLSearchParams()
    if (merged.category !== 'all') search.set('category', merged.category)
    if (merged.keyword) search.set('keyword', merged.keyword)
    if (merged.beginDate) search.set('beginDate', merged.beginDate)
    if (merged.endDate) search.set('endDate', merged.endDate)
    if (merged.page > 1) search.set('page', String(merged.page))
    setParams(search)
    if (next.page !== undefined) window.scrollTo({ top: 0 })
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const { beginDate, endDate } = draft
    // A range typed backwards is read the right way round.
    const swap = beginDate && endDate && beginDate > endDate
    go({
      keyword: draft.keyword.trim(),
      beginDate: swap ? endDate : beginDate,
      endDate: swap ? beginDate : endDate,
    })
  }

  return (
    <>
      <section className={styles.banner}>
        <h1 className={styles.bannerTitle}>{t('news.title')}</h1>
        <p className={styles.bannerText}>{t('news.subtitle')}</p>
      </section>
      <div className={styles.page}>
        <main>
          <div className={styles.tabs} role="tablist" aria-label={t('news.categories')}>
            {NEWS_CATEGORIES.map((category) => (
              <button
                key={category}
                type="button"
                role="tab"
                aria-selected={state.category === category}
                className={mergeClasses(styles.tab, state.category === category && styles.tabActive)}
                onClick={() => go({ category })}
              >
                {t(categoryLabel(category))}
              </button>
            ))}
          </div>
          <search>
            <form className={styles.filters} onSubmit={submit}>
              <input
                className={mergeClasses(styles.input, styles.keyword)}
                type="search"
                name="keyword"
                maxLength={100}
                value={draft.keyword}
                placeholder={t('news.keywordPlaceholder')}
                aria-label={t('news.keywordPlaceholder')}
                onChange={(event) => setDraft({ ...draft, keyword: event.target.value })}
              />
              <input
                className={mergeClasses(styles.input, styles.date)}
                type="date"
                name="beginDate"
                value={draft.beginDate}
                aria-label={t('news.dateFrom')}
                onChange={(event) => setDraft({ ...draft, beginDate: event.target.value })}
              />
              <span className={styles.dash}>–</span>
              <input
                className={mergeClasses(styles.input, styles.date)}
                type="date"
                name="endDate"
                value={draft.endDate}
                aria-label={t('news.dateTo')}
                onChange={(event) => setDraft({ ...draft, endDate: event.target.value })}
              />
              <button type="submit" className={mergeClasses(buttons.button, buttons.primary)}>
                {t('news.search')}
              </button>
              <button
                type="button"
                className={mergeClasses(buttons.button, styles.secondary)}
                onClick={() => go({ keyword: '', beginDate: '', endDate: '' })}
              >
                {t('news.reset')}
              </button>
            </form>
          </search>
          {query.isError ? (
            <div className={styles.notice} role="alert">
              {t('news.loadFailed')}{' '}
              <button type="button" className={buttons.button} onClick={() => void query.refetch()}>
                {t('news.retry')}
              </button>
            </div>
          ) : !query.data ? (
            <div className={styles.notice}>{t('news.loading')}</div>
          ) : query.data.list.length === 0 ? (
            <div className={styles.notice} data-testid="news-empty">
              {t('news.empty')}
            </div>
          ) : (
            <>
              <p className={styles.total} data-testid="news-total">
                {t('news.total', { count: query.data.total })}
              </p>
              <ul className={styles.list} aria-busy={query.isFetching}>
                {query.data.list.map((item) => (
                  <Card key={item.id} item={item} />
                ))}
              </ul>
              {pages > 1 && (
                <nav className={styles.pager} aria-label={t('news.pagination')}>
                  <button
                    type="button"
                    className={mergeClasses(buttons.button, styles.pageButton)}
                    disabled={state.page <= 1}
                    onClick={() => go({ page: state.page - 1 })}
                  >
                    {t('news.previousPage')}
                  </button>
                  {Array.from({ length: pages }, (_, i) => i + 1)
                    .filter((n) => n === 1 || n === pages || Math.abs(n - state.page) <= 2)
                    .map((n) => (
                      <button
                        key={n}
                        type="button"
                        aria-current={n === state.page ? 'page' : undefined}
                        className={mergeClasses(
                          buttons.button,
                          styles.pageButton,
                          n === state.page && styles.pageCurrent,
                        )}
                        onClick={() => go({ page: n })}
                      >
                        {n}
                      </button>
                    ))}
                  <span className={styles.total}>{t('news.pageOf', { page: state.page, pages })}</span>
                  <button
                    type="button"
                    className={mergeClasses(buttons.button, styles.pageButton)}
                    disabled={state.page >= pages}
                    onClick={() => go({ page: state.page + 1 })}
                  >
                    {t('news.nextPage')}
                  </button>
                </nav>
              )}
            </>
          )}
        </main>
        <NewsSide />
      </div>
    </>
  )
}
