import { LANGUAGES, type Language, messageFor } from '../../http/errors.ts'
import { escapeHtml } from '../../portal/document.ts'
import type { ChannelTenant, OutboxMessage } from '../channels.ts'

/**
 * Mail templates (issue #22). What a mail says lives in locales/<language>/mail.json: a template `name` is the
 * pair `mail.<name>_subject` / `mail.<name>_body` ({{placeholders}} filled from the payload's `params`, and
 * `{{tenant}}` from the tenant's name in that language). Every mail, templated or rendered by its sender, is
 * wrapped in the tenant's layout below: its name, logo and theme colour (site settings `websiteName`,
 * `logoList[0].url`, `themeColor`), an HTML part and the same words as plain text, and the footer
 * `mail.footer`.
 */

export interface RenderedMail {
  subject: string
  text: string
  html: string
  language: Language
}

const COLOUR = /^#[0-9a-fA-F]{3,8}$/

export function mailLanguage(value: unknown, tenant: ChannelTenant): Language {
  const own = (LANGUAGES as readonly string[]).includes(String(value)) ? (value as Language) : undefined
  const configured = (tenant.settings.configuration as { defaultLanguage?: unknown } | undefined)?.defaultLanguage
  const fallback = (LANGUAGES as readonly string[]).includes(String(configured)) ? (configured as Language) : 'zh'
  return own ?? fallback
}

export function tenantName(tenant: ChannelTenant, language: Language): string {
  const s = tenant.settings
  const zh = typeof s.websiteName === 'string' && s.websiteName ? s.websiteName : tenant.nameZh
  const en = typeof s.websiteNameEn === 'string' && s.websiteNameEn ? s.websiteNameEn : tenant.nameEn
  return language === 'zh' ? zh : en || zh
}

/**
 * An address a mail reader or WeChat can open: a site-relative one (a letter's `/orderDetails?id=42`, a logo)
 * is made absolute on the tenant's host; an absolute one is kept.
 */
export function absoluteUrl(tenant: ChannelTenant, url: string): string {
  if (/^https?:\/\//.test(url)) return url
  return `https://${tenant.host}${url.startsWith('/') ? '' : '/'}${url}`
}

function logoUrl(tenant: ChannelTenant): string | undefined {
  const list = Array.isArray(tenant.settings.logoList) ? (tenant.settings.logoList as { url?: unknown }[]) : []
  const url = typeof list[0]?.url === 'string' ? list[0].url : undefined
  return url ? absoluteUrl(tenant, url) : undefined
}

/** Subject, text and HTML of an outbox mail in its language with the tenant's branding. */
export function renderMail(message: OutboxMessage, tenant: ChannelTenant): RenderedMail {
  const payload = message.payload as {
    template?: unknown
    params?: unknown
    language?: unknown
    subject?: unknown
    text?: unknown
    html?: unknown
    link?: unknown
  }
  const language = mailLanguage(payload.language, tenant)
  const name = tenantName(tenant, language)
  let subject: string
  let text: string
  if (typeof payload.template === 'string' && /^[A-Za-z0-9_]{1,64}$/.test(payload.template)) {
    const params = {
      ...(payload.params && typeof payload.params === 'object' ? (payload.params as Record<string, unknown>) : {}),
      tenant: name,
    }
    subject = messageFor(`mail.${payload.template}_subject`, language, params)
    text = messageFor(`mail.${payload.template}_body`, language, params)
  } else {
    subject = message.body?.subject ?? (typeof payload.subject === 'string' ? payload.subject : name)
    text = message.body?.text ?? (typeof payload.text === 'string' ? payload.text : '')
  }
  // The page the mail speaks of (a letter's link), on the tenant's own host, under the text.
  const link = typeof payload.link === 'string' && payload.link ? absoluteUrl(tenant, payload.link) : undefined
  if (link) text = `${text}\n\n${link}`
  const footer = messageFor('mail.footer', language, { tenant: name })
  const colour =
    typeof tenant.settings.themeColor === 'string' && COLOUR.test(tenant.settings.themeColor)
      ? tenant.settings.themeColor
      : '#409eff'
  const logo = logoUrl(tenant)
  const content =
    typeof payload.html === 'string'
      ? payload.html
      : text
          .split(/\n{2,}/)
          .map((p) =>
            p === link
              ? `<p style="margin:0 0 12px"><a href="${escapeHtml(link)}" style="color:${colour}">${escapeHtml(link)}</a></p>`
              : `<p style="margin:0 0 12px">${escapeHtml(p).replace(/\n/g, '<br>')}</p>`,
          )
          .join('')
  const html = `<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;background:#f5f7fa;font-family:Arial,'PingFang SC','Microsoft YaHei',sans-serif;color:#303133">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="background:#fff;border-top:4px solid ${colour}">
<tr><td style="padding:16px 24px;border-bottom:1px solid #ebeef5">${
    logo
      ? `<img src="${escapeHtml(logo)}" alt="${escapeHtml(name)}" height="32" style="vertical-align:middle;margin-right:8px">`
      : ''
  }<strong style="color:${colour};font-size:18px;vertical-align:middle">${escapeHtml(name)}</strong></td></tr>
<tr><td style="padding:24px;font-size:14px;line-height:1.6">${content}</td></tr>
<tr><td style="padding:12px 24px;font-size:12px;color:#909399;border-top:1px solid #ebeef5">${escapeHtml(footer)}</td></tr>
</table></td></tr></table></body></html>`
  return { subject, text: `${text}\n\n--\n${footer}\n`, html, language }
}
