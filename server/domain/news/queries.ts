import { type RawBuilder, sql, type Transaction } from 'kysely'
import type { DB } from '../../db/schema.ts'
import { escapeLike } from '../../engine/index.ts'

/**
 * The public news centre's reads (SPEC §2 /News, §7 "Information centre"). Only published items of
 * enabled types are ever found; another tenant's rows are out of sight twice, by row-level security
 * (the caller's `withTenant` transaction) and by the tenant condition every query carries.
 */

export type NewsLanguage = 'zh' | 'en' | 'ja'
export type NewsCategory = 'company' | 'industry' | 'policy'
export const NEWS_LANGUAGES: readonly NewsLanguage[] = ['zh', 'en', 'ja']
export const NEWS_CATEGORIES: readonly NewsCategory[] = ['company', 'industry', 'policy']

/** The reader's language as a news language: Spanish readers get the English news. */
export function newsLanguage(language: string | undefined): NewsLanguage {
  return (NEWS_LANGUAGES as readonly string[]).includes(language ?? '') ? (language as NewsLanguage) : 'en'
}

export interface NewsCard {
  id: number
  title: string
  summary: string
  category: NewsCategory
  typeName: string
  language: NewsLanguage
  tags: string[]
  author: string
  source: string
  hot: boolean
  recommended: boolean
  likes: number
  hasCover: boolean
  /** When readers see it published: its push date, or its last publish or push, whichever is later. */
  publishedAt: string
}

export interface NewsArticle extends NewsCard {
  content: string
  cover: string | null
}

/**
 * The date readers see: the editor's push date, or the last publish/push transition (the audit log), the
 * later of the two; the creation time when neither exists (rows written straight into the table).
 */
const publishedAt: RawBuilder<Date> = sql`coalesce(greatest(i.push_date, (
  select max(a.at) from audit_log a
  where a.tenant_id = i.tenant_id and a.entity = 'informationItem' and a.record_id = i.id
    and a.action = 'transition' and a.transition in ('publish', 'push')
)), i.created_at)`

const cardColumns = sql`i.id, i.title, coalesce(i.summary, '') as summary, t.category, t.name as type_name,
  i.language, coalesce(i.tags, '') as tags, coalesce(i.author, '') as author,
  coalesce(i.source, '') as source, coalesce(i.hot, false) as hot, coalesce(i.recommended, false) as recommended,
  coalesce(i.likes, 0) as likes, i.cover, ${publishedAt} as published_at`

const visible = (tenantId: number) => sql`i.tenant_id = ${tenantId} and i.status = 'published'
  and t.tenant_id = ${tenantId} and t.status = 'enabled'`

interface CardRow {
  id: number
  title: string
  summary: string
  category: NewsCategory
  type_name: string
  language: NewsLanguage
  tags: unknown
  author: string
  source: string
  hot: boolean
  recommended: boolean
  likes: number
  cover: unknown
  published_at: Date | string
  content?: string
  total?: string | number
}

/** The stored cover's file id: the upload field holds one uuid (or a list of one). */
export function coverId(value: unknown): string | null {
  const first = Array.isArray(value) ? value[0] : value
  return typeof first === 'string' && first !== '' ? first : null
}

/** The item's keywords: commas (also the Chinese and Japanese ones) separate them. */
export function splitTags(value: unknown): string[] {
  if (typeof value !== 'string') return []
  return [
    ...new Set(
      value
        .split(/[,，、;；]/)
        .map((tag) => tag.trim())
        .filter(Boolean),
    ),
  ]
}

function toCard(row: CardRow): NewsCard {
  return {
    id: row.id,
    title: row.title,
    summary: row.summary,
    category: row.category,
    typeName: row.type_name,
    language: row.language,
    tags: splitTags(row.tags),
    author: row.author,
    source: row.source,
    hot: row.hot,
    recommended: row.recommended,
    likes: Number(row.likes),
    hasCover: coverId(row.cover) !== null,
    publishedAt: new Date(row.published_at).toISOString(),
  }
}

export interface NewsQuery {
  category: 'all' | NewsCategory
  keyword?: string
  beginDate?: string
  endDate?: string
  language: NewsLanguage
  pageNum: number
  pageSize: number
}

/** `like` text with %, _ and \ matching themselves: the engine's escaping, the one every list uses. */
const contains = (text: string) => `%${escapeLike(text)}%`

export async function listNews(
  trx: Transaction<DB>,
  tenantId: number,
  query: NewsQuery,
): Promise<{ list: NewsCard[]; total: number; pageNum: number; pageSize: number }> {
  const conditions = [visible(tenantId), sql`i.language = ${query.language}`]
  if (query.category !== 'all') conditions.push(sql`t.category = ${query.category}`)
  const keyword = query.keyword?.trim()
  if (keyword)
    conditions.push(sql`(i.title ilike ${contains(keyword)} or coalesce(i.summary, '') ilike ${contains(keyword)})`)
  // Days are calendar days in UTC, both ends included whole.
  if (query.beginDate) conditions.push(sql`${publishedAt} >= ${`${query.beginDate}T00:00:00Z`}::timestamptz`)
  if (query.endDate) conditions.push(sql`${publishedAt} < (${query.endDate}::date + 1)::timestamp at time zone 'UTC'`)
  const where = sql.join(conditions, sql` and `)
  const offset = (query.pageNum - 1) * query.pageSize
  const { rows } = await sql<CardRow>`
    select ${cardColumns}, count(*) over () as total
    from information_item i join information_type t on t.id = i.information_type_id
    where ${where}
    order by published_at desc, i.id desc
    limit ${query.pageSize} offset ${offset}
  `.execute(trx)
  let total = rows.length ? Number(rows[0]?.total) : 0
  if (!rows.length && offset > 0) {
    const counted = await sql<{ total: string }>`
      select count(*) as total from information_item i join information_type t on t.id = i.information_type_id
      where ${where}`.execute(trx)
    total = Number(counted.rows[0]?.total ?? 0)
  }
  return { list: rows.map(toCard), total, pageNum: query.pageNum, pageSize: query.pageSize }
}

/** The hot or recommended side list: flagged items, newest first. */
export async function flaggedNews(
  trx: Transaction<DB>,
  tenantId: number,
  flag: 'hot' | 'recommended',
  language: NewsLanguage,
  limit: number,
): Promise<NewsCard[]> {
  const column = flag === 'hot' ? sql`i.hot` : sql`i.recommended`
  const { rows } = await sql<CardRow>`
    select ${cardColumns}
    from information_item i join information_type t on t.id = i.information_type_id
    where ${visible(tenantId)} and i.language = ${language} and ${column} = true
    order by published_at desc, i.id desc
    limit ${limit}
  `.execute(trx)
  return rows.map(toCard)
}

/** One published item, or undefined when it is missing, unpublished, of a disabled type or another tenant's. */
export async function findArticle(
  trx: Transaction<DB>,
  tenantId: number,
  id: number,
): Promise<NewsArticle | undefined> {
  const { rows } = await sql<CardRow>`
    select ${cardColumns}, i.content
    from information_item i join information_type t on t.id = i.information_type_id
    where ${visible(tenantId)} and i.id = ${id}
  `.execute(trx)
  const row = rows[0]
  if (!row) return undefined
  return { ...toCard(row), content: row.content ?? '', cover: coverId(row.cover) }
}

/** The neighbours of an article in its language, by the order of the list (newer first). */
export async function neighbours(
  trx: Transaction<DB>,
  tenantId: number,
  article: NewsArticle,
): Promise<{ previous: { id: number; title: string } | null; next: { id: number; title: string } | null }> {
  const at = article.publishedAt
  const base = sql`${visible(tenantId)} and i.language = ${article.language} and i.id <> ${article.id}`
  const newer = await sql<{ id: number; title: string }>`
    select i.id, i.title from information_item i join information_type t on t.id = i.information_type_id
    where ${base} and (${publishedAt} > ${at}::timestamptz or (${publishedAt} = ${at}::timestamptz and i.id > ${article.id}))
    order by ${publishedAt} asc, i.id asc limit 1`.execute(trx)
  const older = await sql<{ id: number; title: string }>`
    select i.id, i.title from information_item i join information_type t on t.id = i.information_type_id
    where ${base} and (${publishedAt} < ${at}::timestamptz or (${publishedAt} = ${at}::timestamptz and i.id < ${article.id}))
    order by ${publishedAt} desc, i.id desc limit 1`.execute(trx)
  return { previous: newer.rows[0] ?? null, next: older.rows[0] ?? null }
}

/**
 * One like per reader and item: a second like of the same reader changes nothing. Answers the count and
 * whether this call added to it. The count is kept on the item without touching its version, so an
 * editor's open form is not made stale by readers.
 */
export async function likeArticle(
  trx: Transaction<DB>,
  tenantId: number,
  id: number,
  visitor: string,
): Promise<{ likes: number; added: boolean }> {
  const inserted = await sql<{ id: number }>`
    insert into information_like (tenant_id, item, visitor, version, created_at, updated_at)
    values (${tenantId}, ${id}, ${visitor}, 1, now(), now())
    on conflict do nothing
    returning id`.execute(trx)
  const added = inserted.rows.length > 0
  const { rows } = added
    ? await sql<{ likes: number }>`
        update information_item set likes = coalesce(likes, 0) + 1
        where tenant_id = ${tenantId} and id = ${id} returning likes`.execute(trx)
    : await sql<{ likes: number }>`
        select coalesce(likes, 0) as likes from information_item where tenant_id = ${tenantId} and id = ${id}`.execute(
        trx,
      )
  return { likes: Number(rows[0]?.likes ?? 0), added }
}

export async function hasLiked(trx: Transaction<DB>, tenantId: number, id: number, visitor: string): Promise<boolean> {
  const { rows } = await sql`
    select 1 from information_like where tenant_id = ${tenantId} and item = ${id} and visitor = ${visitor}`.execute(trx)
  return rows.length > 0
}

/** Every published item's id, language and date, newest first: the sitemap's news (server/portal/crawlers.ts). */
export async function publishedNews(
  trx: Transaction<DB>,
  tenantId: number,
  limit: number,
): Promise<{ id: number; language: NewsLanguage; publishedAt: string }[]> {
  const { rows } = await sql<{ id: number; language: NewsLanguage; published_at: Date | string }>`
    select i.id, i.language, ${publishedAt} as published_at
    from information_item i join information_type t on t.id = i.information_type_id
    where ${visible(tenantId)}
    order by published_at desc, i.id desc
    limit ${limit}
  `.execute(trx)
  return rows.map((row) => ({
    id: row.id,
    language: row.language,
    publishedAt: new Date(row.published_at).toISOString(),
  }))
}
