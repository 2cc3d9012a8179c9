import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { downloads } from '../../../generated/client.ts'
import type { NewsCard, NewsLikes, Page } from '../../../generated/content.ts'
import { buildUrl } from '../../api.ts'
import { quietClient } from '../../quietClient.ts'

/**
 * The public news centre's data (screens/news.yaml), for the news pages and for any public page that shows
 * news — the home templates use `useHotNews` / `useRecommendedNews`. No form engine, no workbench: this
 * module is safe to import from the home page bundle.
 */

export type NewsCategory = NewsCard['category']
export const NEWS_CATEGORIES: readonly ('all' | NewsCategory)[] = ['all', 'company', 'industry', 'policy']

/** An article as lists show it, and one opened: the server's answers (schemas/newsCard.yaml, newsArticleView.yaml). */
export type { NewsArticleView as NewsArticle, NewsCard } from '../../../generated/content.ts'

export interface NewsListQuery {
  category: 'all' | NewsCategory
  keyword?: string
  beginDate?: string
  endDate?: string
  pageNum: number
  pageSize: number
}

export type NewsPage = Page<NewsCard>

const download = ({ path, query }: { path: string; query: object }) => buildUrl(path, query)

/** Where an article opens on the public site. */
export const newsHref = (id: number) => `/InformationCenterDetail?id=${id}`
/** The article's cover image (only when `hasCover`). */
export const newsCoverUrl = (id: number) => download(downloads.newsCover({ id: String(id) }))
/** The article as a PDF attachment. */
export const newsPdfUrl = (id: number) => download(downloads.newsPdf({ id: String(id) }))

const news = quietClient.b2b

/** The reader's language is part of every key: the server answers news in it. */
function useLanguage(): string {
  return useTranslation().i18n.language
}

export function useNewsList(query: NewsListQuery) {
  const language = useLanguage()
  return useQuery({
    queryKey: ['news', 'list', language, query],
    queryFn: async ({ signal }) => {
      const { keyword, beginDate, endDate, ...rest } = query
      // Empty texts are left out: the server reads them as not asked.
      const body = {
        ...rest,
        ...(keyword ? { keyword } : {}),
        ...(beginDate ? { beginDate } : {}),
        ...(endDate ? { endDate } : {}),
      }
      return (await news.newsList(body, signal)).content
    },
    placeholderData: (previous) => previous,
  })
}

function useFlagged(flag: 'hot' | 'recommended', limit: number) {
  const language = useLanguage()
  return useQuery({
    queryKey: ['news', flag, language, limit],
    queryFn: async ({ signal }) => {
      const call = flag === 'hot' ? news.newsHot : news.newsRecommended
      return (await call({ limit: String(limit) }, signal)).content.list
    },
    staleTime: 60_000,
  })
}

/**
 * Hot news of this site in the reader's language, newest first (at most `limit`, 1–20). For the home
 * templates and the news pages' side lists: `{ data: NewsCard[] | undefined, isPending, isError }`.
 */
export function useHotNews(limit = 5) {
  return useFlagged('hot', limit)
}

/** Recommended news of this site in the reader's language, newest first (at most `limit`, 1–20). */
export function useRecommendedNews(limit = 5) {
  return useFlagged('recommended', limit)
}

export function useNewsArticle(id: number | null) {
  const language = useLanguage()
  return useQuery({
    queryKey: ['news', 'article', language, id],
    queryFn: async ({ signal }) => (await news.newsDetail({ id: String(id) }, signal)).content,
    enabled: id !== null,
    retry: false,
  })
}

export async function likeNews(id: number): Promise<NewsLikes> {
  return (await news.newsLike({ id })).content
}

/** A publishing date as readers of the language write it (2026年3月2日, Mar 2, 2026…). */
export function formatNewsDate(iso: string, language: string): string {
  const locale = language === 'zh' ? 'zh-CN' : language === 'ja' ? 'ja-JP' : language === 'es' ? 'es-ES' : 'en-GB'
  return new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' }).format(
    new Date(iso),
  )
}
