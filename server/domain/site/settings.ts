import { sql, type Transaction } from 'kysely'
import type { SiteSettingsForm } from '../../../generated/types.ts'
import { fileLimits, formatBytes } from '../../../rules/fileLimits.ts'
import { dimensionsRefusal, formatDimensions } from '../../../rules/imageSize.ts'
import type { FieldError } from '../../../rules/messages.ts'
import type { DB } from '../../db/schema.ts'
import { sniff } from '../../files/sniff.ts'
import { sendStoredFile } from '../../files/store.ts'
import type { Handlers } from '../../http/endpoints.ts'
import { ApiError } from '../../http/errors.ts'
import { ownTenantId, tenantRecordReads } from '../../http/tenantRecord.ts'
import { loadManifest } from '../../manifest.ts'
import { forgetTenantHosts } from '../../tenancy/resolve.ts'

/**
 * /operationSet (issue #25): the tenant's site settings (SPEC §3), one record per tenant whose id is the
 * tenant's, kept in tenant.settings under SPEC §3's names so everything that reads them (the public site,
 * the B/L draft's branding, the operating orders' ETD limit) reads the saved values on its next request. The
 * YAML (schemas/siteSettingsForm.yaml) checks every field before a handler runs; here each image is checked
 * again from its stored bytes, and the save goes through the one database function that may write the row
 * (migration 0027).
 */

type Settings = Record<string, unknown>
type Form = SiteSettingsForm & Record<string, unknown>

/** Fields kept under their own name in the settings; the images and bill settings are mapped below. */
const PLAIN = [
  'websiteName',
  'websiteNameEn',
  'backgroundImagePlay',
  'themeColor',
  'servicePhone',
  'mail',
  'pageTemplate',
  'homeMode',
  'transportationSupport',
  'inquiryAllowed',
  'inquiryMenus',
  'ecommerceEqWeight',
  'hasBookingAgent',
  'showCnptFields',
  'showSeaFreightTerms',
  'freightHsCode',
  'ocrChannel',
  'operatingOrderIfModify',
  'operatingOrderLimitValue',
  'operatingOrderLob',
  'operatingOrderReviewReceiver',
  'quoteReview',
  'quoteDisplayItems',
  'quoteDisplayCharges',
  'newContactInformationCheck',
  'newContactInformation',
  'serviceAgreementList',
  'privacyAgreementList',
  'copyright',
  'copyrightEn',
  'icp',
] as const

/** The settings' bill objects and the form's fields for them. */
const BILLS = [
  { setting: 'seaShipmentBillSettings', originals: 'seaBillOriginals', copies: 'seaBillCopies' },
  { setting: 'aeShipmentBillSettings', originals: 'aeBillOriginals', copies: 'aeBillCopies' },
] as const

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

const urlOf = (value: unknown): string =>
  value && typeof value === 'object' && 'url' in value && typeof value.url === 'string' ? value.url : ''
const urls = (list: unknown): string[] => (Array.isArray(list) ? list.map(urlOf).filter(Boolean) : [])
const objectOf = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}

/** The images of a tenant's settings: its icon, logos and backgrounds (an upload's uuid or a path of the portal). */
export function siteImages(settings: Settings): string[] {
  const icon = typeof settings.iconPath === 'string' ? [settings.iconPath] : []
  return [...icon, ...urls(settings.logoList), ...urls(settings.backgroundImageList)]
}

/** The record /operationSet shows, from the tenant's settings. */
export function formOf(tenantId: number, settings: Settings): Record<string, unknown> {
  const version = Number(settings.settingsVersion ?? 0)
  const form: Record<string, unknown> = { id: tenantId, ...(version > 0 ? { version } : {}) }
  for (const field of PLAIN)
    if (settings[field] !== undefined && settings[field] !== null) form[field] = settings[field]
  if (typeof settings.iconPath === 'string' && settings.iconPath) form.icon = settings.iconPath
  const logo = urls(settings.logoList)[0]
  if (logo) form.logo = logo
  form.backgroundImages = urls(settings.backgroundImageList)
  for (const bill of BILLS) {
    const stored = objectOf(settings[bill.setting])
    if (typeof stored.originals === 'number') form[bill.originals] = stored.originals
    if (typeof stored.copies === 'number') form[bill.copies] = stored.copies
  }
  return form
}

/** The tenant's settings with the form's values: what the form leaves out keeps its stored value. */
export function settingsWith(settings: Settings, form: Form): Settings {
  const next: Settings = { ...settings }
  for (const field of PLAIN) if (form[field] !== undefined) next[field] = form[field]
  if (form.icon !== undefined) next.iconPath = form.icon ?? ''
  if (form.logo !== undefined) next.logoList = form.logo ? [{ url: form.logo }] : []
  if (form.backgroundImages !== undefined)
    next.backgroundImageList = (form.backgroundImages ?? []).map((url: string) => ({ url }))
  for (const bill of BILLS) {
    const stored = { ...objectOf(settings[bill.setting]) }
    if (form[bill.originals] !== undefined) stored.originals = form[bill.originals]
    if (form[bill.copies] !== undefined) stored.copies = form[bill.copies]
    next[bill.setting] = stored
  }
  next.settingsVersion = Number(settings.settingsVersion ?? 0) + 1
  return next
}

/** The form's image fields and the values each holds. */
const IMAGE_FIELDS = ['icon', 'logo', 'backgroundImages'] as const
const valuesOf = (value: unknown): string[] =>
  (Array.isArray(value) ? value : value ? [value] : []).filter((v): v is string => typeof v === 'string')

/**
 * Why an image value cannot be saved, per field: a value that is not already the tenant's must be an upload of
 * that field whose stored bytes still have its type, size and pixel size (the upload checked them; a file of
 * another field or one the limits since tightened is refused here, and nothing is saved).
 */
async function imageProblems(
  trx: Transaction<DB>,
  tenantId: number,
  form: Form,
  kept: ReadonlySet<string>,
): Promise<FieldError[]> {
  const fields = loadManifest().entities.siteSettingsForm?.fields ?? {}
  const problems: FieldError[] = []
  for (const name of IMAGE_FIELDS) {
    const field = fields[name]
    if (!field || form[name] === undefined) continue
    const limits = fileLimits(field)
    for (const value of valuesOf(form[name])) {
      if (kept.has(value)) continue
      const row = UUID.test(value)
        ? await sql<{ name: string; bytes: Uint8Array; entity: string; field: string }>`
            select name, bytes, entity, field from file where tenant_id = ${tenantId} and id = ${value}`
            .execute(trx)
            .then((r) => r.rows[0])
        : undefined
      if (row?.entity !== 'siteSettingsForm' || row.field !== name) {
        problems.push({ field: name, message: 'siteSet.imageNotUploaded', params: {} })
        continue
      }
      const bytes = new Uint8Array(row.bytes)
      const kind = sniff(bytes, row.name)
      if (!kind?.extensions.some((ext) => limits.accept.includes(ext)))
        problems.push({
          field: name,
          message: 'widget.fileTypeRefused',
          params: { name: row.name, types: limits.accept.join(', ') },
        })
      else if (bytes.length > limits.maxBytes)
        problems.push({
          field: name,
          message: 'widget.fileTooLarge',
          params: { name: row.name, size: formatBytes(limits.maxBytes) },
        })
      else if (limits.dimensions) {
        const wrong = dimensionsRefusal(bytes, limits.dimensions)
        if (wrong)
          problems.push({
            field: name,
            message: 'widget.imageDimensions',
            params: { name: row.name, actual: wrong.actual, size: formatDimensions(limits.dimensions) },
          })
      }
    }
  }
  return problems
}

/** Review receivers must be enabled provider-side accounts of the tenant (an id of anyone else is refused). */
async function receiverProblems(trx: Transaction<DB>, tenantId: number, form: Form): Promise<FieldError[]> {
  const ids = [...new Set((form.operatingOrderReviewReceiver ?? []) as number[])]
  if (!ids.length) return []
  const { rows } = await sql<{ id: number }>`
    select id from app_user
    where tenant_id = ${tenantId} and company_user_type = 1 and state = 1 and id in (${sql.join(ids)})`.execute(trx)
  const known = new Set(rows.map((row) => row.id))
  return ids.some((id) => !known.has(id))
    ? [{ field: 'operatingOrderReviewReceiver', message: 'siteSet.receiverUnknown', params: {} }]
    : []
}

async function storedSettings(trx: Transaction<DB>, tenantId: number): Promise<Settings> {
  const row = await trx.selectFrom('tenant').select('settings').where('id', '=', tenantId).executeTakeFirst()
  if (!row) throw new ApiError('404')
  return (row.settings ?? {}) as Settings
}

const reads = tenantRecordReads(storedSettings, formOf)

export const siteSettingsHandlers = {
  siteSettingsFormList: reads.list,
  siteSettingsFormDetail: reads.detail,

  async siteSettingsFormSave(ctx) {
    const form = ctx.input as Form
    const tenantId = ownTenantId(ctx, form.id)
    const saved = await ctx.inTenant(async (trx) => {
      const settings = await storedSettings(trx, tenantId)
      const version = Number(settings.settingsVersion ?? 0)
      // Never saved before is version 0: a form read before someone else's first save is stale too.
      if ((form.version ?? 0) !== version) throw new ApiError('330002')
      const problems = [
        ...(await imageProblems(trx, tenantId, form, new Set(siteImages(settings)))),
        ...(await receiverProblems(trx, tenantId, form)),
      ]
      if (problems.length) throw new ApiError('validation', {}, problems)
      const next = settingsWith(settings, form)
      const { rows } = await sql<{ saved: boolean }>`
        select waybill_save_site_settings(${JSON.stringify(next)}::jsonb, ${version}) as saved`.execute(trx)
      if (!rows[0]?.saved) throw new ApiError('330002')
      return next
    })
    // The next page of this tenant's site (and every call) reads the settings again.
    forgetTenantHosts()
    return formOf(tenantId, saved) as never
  },

  /** An image of the site settings, to anyone: only the tenant's current icon, logos and backgrounds. */
  async siteImage(ctx) {
    const { tenant } = ctx.request
    const uuid = ctx.input.uuid
    if (!uuid || !siteImages(tenant.settings).includes(uuid)) throw new ApiError('404')
    const file = await ctx.inTenant(async (trx) => {
      const { rows } = await sql<{ content_type: string; bytes: Uint8Array; sha256: string }>`
        select content_type, bytes, sha256 from file where tenant_id = ${tenant.id} and id = ${uuid}`.execute(trx)
      return rows[0]
    })
    if (!file?.content_type.startsWith('image/')) throw new ApiError('404')
    // A file never changes under its id; a replaced logo has another id.
    await sendStoredFile(ctx.reply, { ...file, contentType: file.content_type }, 'public, max-age=86400')
    return null
  },
} satisfies Handlers
