import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { quietClient } from '../../quietClient.ts'

/**
 * The public news centre's data (screens/news.yaml), for the news pages and for any public page that shows
 * news — the home templates use `useHotNews` / `useRecommendedNews`. No form engine, no workbench: this
 * module is safe to import from the home page bundle.
 */

export type NewsCategory = 'company' | 'industry' | 'policy'
export const NEWS_CATEGORIES: readonly ('all' | NewsCategory)[] = ['all', 'company', 'industry', 'policy']

export interface NewsCard {
  id: number
  title: string
  summary: string
  category: NewsCategory
  typeName: string
  language: 'zh' | 'en' | 'ja'
  tags: string[]
  author: string
  source: string
  hot: boolean
  recommended: boolean
  likes: number
  hasCover: boolean
  /** ISO instant. */
  publishedAt: string
}

export interface NewsArticle extends NewsCard {
  /** Sanitised HTML (the server keeps only the editor's formatting). */
  content: string
  coverUrl: string | null
  liked: boolean
  previous: { id: number; title: string } | null
  next: { id: number; title: string } | null
}

export interface NewsListQuery {
  category: 'all' | NewsCategory
  keyword?: string
  beginDate?: string
  endDate?: string
  pageNum: number
  pageSize: number
}

export interface NewsPage {
  list: NewsCard[]
  total: number
  pageNum: number
  pageSize: number
}

/** Where an article opens on the public site. */
export const newsHref = (id: number) => `/InformationCenterDetail?id=${id}`
/** The article's cover image (only when `hasCover`). */
export const newsCoverUrl = (id: number) => `/api/b2b/public/api/information/cover?id=${id}`
/** The article as a PDF attachment. */
export const newsPdfUrl = (id: number) => `/api/b2b/public/api/information/pdf?id=${id}`

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
      const body = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== ''))
      return (await news.newsList(body as never, signal)).content as NewsPage
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
      return ((await call({ limit } as never, signal)).content as { list: NewsCard[] }).list
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
    queryFn: async ({ signal }) => (await news.newsDetail({ id } as never, signal)).content as NewsArticle,
    enabled: id !== null,
    retry: false,
  })
}

export async function likeNews(id: number): Promise<{ likes: number; liked: boolean }> {
  return (await news.newsLike({ id } as never)).content as { likes: number; liked: boolean }
}

/** A publishing date as readers of the language write it (2026年3月2日, Mar 2, 2026…). */
export function formatNewsDate(iso: string, language: string): string {
  const locale = language === 'zh' ? 'zh-CN' : language === 'ja' ? 'ja-JP' : language === 'es' ? 'es-ES' : 'en-GB'
  return new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' }).format(
    new Date(iso),
  )
}
