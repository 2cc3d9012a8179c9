import { createHash, randomUUID } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import { readFile, sendStoredFile } from '../../files/store.ts'
import type { HandlerContext } from '../../http/context.ts'
import type { Handlers } from '../../http/endpoints.ts'
import { ApiError, type Language, messageFor } from '../../http/errors.ts'
import { parseId } from '../../http/ids.ts'
import { markPushedItemOpened } from '../push/register.ts'
import { articlePdf } from './pdf.ts'
import {
  findArticle,
  flaggedNews,
  hasLiked,
  likeArticle,
  listNews,
  type NewsArticle,
  type NewsLanguage,
  neighbours,
  newsLanguage,
} from './queries.ts'

/**
 * The public news centre's calls (screens/news.yaml). Every one answers for the host's tenant only, and
 * an item that is not published (or of a disabled type, or another tenant's) answers 404 like a missing one.
 */

/** The reader's cookie for likes: random, HttpOnly, a year. Set when an article is first opened. */
export const VISITOR_COOKIE = 'news_visitor'
const VISITOR = /^[0-9a-f-]{36}$/

function visitorCookie(request: FastifyRequest): string | null {
  const value = request.cookies[VISITOR_COOKIE]
  return value && VISITOR.test(value) ? value : null
}

/** Who likes: the signed-in user, else the visitor cookie, else (a client without cookies) a hash of the address. */
export function readerKey(request: FastifyRequest): string {
  if (request.session) return `user:${request.session.userId}`
  const cookie = visitorCookie(request)
  if (cookie) return `visitor:${cookie}`
  return `ip:${createHash('sha256').update(`news:${request.ip}`).digest('hex').slice(0, 40)}`
}

function ensureVisitorCookie(ctx: HandlerContext) {
  if (ctx.request.session || visitorCookie(ctx.request)) return
  ctx.reply.setCookie(VISITOR_COOKIE, randomUUID(), {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.request.protocol === 'https',
    maxAge: 365 * 24 * 60 * 60,
  })
}

/** An article's id: the one id parser, with its bounds (server/http/ids.ts). */
const positiveId = (value: unknown): number => parseId(value)

function limitOf(value: unknown): number {
  if (value === undefined || value === '') return 5
  const limit = Number(value)
  if (!Number.isInteger(limit) || limit < 1 || limit > 20)
    throw new ApiError('validation', {}, [{ field: 'limit', message: 'validation.maximum', params: { limit: 20 } }])
  return limit
}

/** `?language=` when it names a news language, else the reader's. */
function languageOf(request: FastifyRequest, asked: unknown): NewsLanguage {
  return typeof asked === 'string' && asked !== '' ? newsLanguage(asked) : newsLanguage(request.language)
}

async function article(ctx: HandlerContext, id: number): Promise<NewsArticle> {
  const found = await ctx.inTenant((trx) => findArticle(trx, ctx.request.tenant.id, id))
  if (!found) throw new ApiError('404')
  return found
}

const coverUrl = (id: number) => `/api/b2b/public/api/information/cover?id=${id}`

/** The PDF's file name: the title in any script, without characters file systems refuse. */
function pdfName(item: NewsArticle): string {
  const base =
    item.title
      .replace(/[\\/:*?"<>|\r\n\t]+/g, ' ')
      .trim()
      .slice(0, 80) || `news-${item.id}`
  return `${base}.pdf`
}

function disposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/[\\"]/g, '_')
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(name)}`
}

function siteName(ctx: HandlerContext, language: Language): string {
  const { tenant } = ctx.request
  const settings = tenant.settings as { websiteName?: string; websiteNameEn?: string }
  return language === 'zh'
    ? settings.websiteName || tenant.nameZh
    : settings.websiteNameEn || tenant.nameEn || settings.websiteName || tenant.nameZh
}

export const newsHandlers = {
  async newsList(ctx) {
    const { input } = ctx
    return ctx.inTenant((trx) =>
      listNews(trx, ctx.request.tenant.id, {
        category: input.category ?? 'all',
        keyword: input.keyword,
        beginDate: input.beginDate,
        endDate: input.endDate,
        language: languageOf(ctx.request, input.language),
        pageNum: input.pageNum ?? 1,
        pageSize: input.pageSize ?? 10,
      }),
    )
  },

  async newsHot(ctx) {
    const query = ctx.input
    const limit = limitOf(query.limit)
    const language = languageOf(ctx.request, query.language)
    return { list: await ctx.inTenant((trx) => flaggedNews(trx, ctx.request.tenant.id, 'hot', language, limit)) }
  },

  async newsRecommended(ctx) {
    const query = ctx.input
    const limit = limitOf(query.limit)
    const language = languageOf(ctx.request, query.language)
    return {
      list: await ctx.inTenant((trx) => flaggedNews(trx, ctx.request.tenant.id, 'recommended', language, limit)),
    }
  },

  async newsDetail(ctx) {
    const id = positiveId(ctx.input.id)
    const tenantId = ctx.request.tenant.id
    const reader = readerKey(ctx.request)
    const answer = await ctx.inTenant(async (trx) => {
      const found = await findArticle(trx, tenantId, id)
      if (!found) return null
      // A signed-in customer opening an item pushed to them has acted on the push (SPEC §4 executed).
      const session = ctx.request.session
      if (session) await markPushedItemOpened(trx, tenantId, session.userId, id)
      const [around, liked] = await Promise.all([neighbours(trx, tenantId, found), hasLiked(trx, tenantId, id, reader)])
      return { found, around, liked }
    })
    if (!answer) throw new ApiError('404')
    ensureVisitorCookie(ctx)
    const { cover, ...rest } = answer.found
    return {
      ...rest,
      coverUrl: cover ? coverUrl(id) : null,
      liked: answer.liked,
      previous: answer.around.previous,
      next: answer.around.next,
    }
  },

  async newsLike(ctx) {
    const id = positiveId(ctx.input.id)
    const tenantId = ctx.request.tenant.id
    const reader = readerKey(ctx.request)
    const result = await ctx.inTenant(async (trx) => {
      if (!(await findArticle(trx, tenantId, id))) return null
      return likeArticle(trx, tenantId, id, reader)
    })
    if (!result) throw new ApiError('404')
    ensureVisitorCookie(ctx)
    return { likes: result.likes, liked: true }
  },

  async newsPdf(ctx) {
    const id = positiveId(ctx.input.id)
    const item = await article(ctx, id)
    const cover = item.cover
      ? ((await ctx.inTenant((trx) => readFile(trx, ctx.request.tenant.id, item.cover as string)))?.bytes ?? null)
      : null
    const language: Language = item.language
    const date = item.publishedAt.slice(0, 10)
    const host = ctx.request.headers.host ?? 'localhost'
    const bytes = await articlePdf(
      item,
      {
        site: siteName(ctx, language),
        published: messageFor('news.publishedOn', language, { date }),
        source: item.source ? messageFor('news.source', language, { source: item.source }) : '',
        author: item.author ? messageFor('news.author', language, { author: item.author }) : '',
        link: `${ctx.request.protocol}://${host}/InformationCenterDetail?id=${item.id}`,
      },
      cover,
    )
    await ctx.reply
      .header('content-type', 'application/pdf')
      .header('content-length', String(bytes.length))
      .header('content-disposition', disposition(pdfName(item)))
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'no-store')
      .send(bytes)
    return null
  },

  async newsCover(ctx) {
    const id = positiveId(ctx.input.id)
    const item = await article(ctx, id)
    const file = item.cover
      ? await ctx.inTenant((trx) => readFile(trx, ctx.request.tenant.id, item.cover as string))
      : undefined
    if (!file?.contentType.startsWith('image/')) throw new ApiError('404')
    // Public, but a withdrawn article's cover must stop being served soon.
    await sendStoredFile(ctx.reply, { contentType: file.contentType, bytes: file.bytes }, 'public, max-age=300')
    return null
  },
} satisfies Handlers
