import type { Kysely } from 'kysely'
import { type Migration, type MigrationProvider, Migrator } from 'kysely/migration'
import * as core from './migrations/0001_core.ts'
import * as accounts from './migrations/0002_accounts.ts'
import * as engine from './migrations/0003_engine.ts'
import * as profile from './migrations/0004_profile.ts'
import * as overlays from './migrations/0005_overlays.ts'
import * as files from './migrations/0006_files.ts'
import * as userSettings from './migrations/0008_user_settings.ts'
import * as tracking from './migrations/0009_tracking.ts'
import * as orderNumbers from './migrations/0010_order_numbers.ts'
import * as rowTally from './migrations/0011_row_tally.ts'
import * as sessionLookup from './migrations/0012_session_lookup.ts'
import * as fileAccess from './migrations/0013_file_access.ts'
import * as loginLimits from './migrations/0014_login_limits.ts'
import * as companyEngine from './migrations/0016_company_engine.ts'
import * as userOrigin from './migrations/0017_user_origin.ts'
import * as enterpriseCode from './migrations/0018_enterprise_code.ts'
import * as roleManagement from './migrations/0019_role_management.ts'
import * as outboxDelivery from './migrations/0020_outbox_delivery.ts'
import * as messagingProviders from './migrations/0021_messaging_providers.ts'
import * as shipmentNotices from './migrations/0025_shipment_notices.ts'
import * as numberRuleDocuments from './migrations/0026_number_rule_documents.ts'
import * as siteSettingsSave from './migrations/0027_site_settings_save.ts'
import * as platformTenants from './migrations/0028_platform_tenants.ts'
import * as fbaService from './migrations/0029_fba_service.ts'
import * as chatKeys from './migrations/0030_chat_keys.ts'
import * as fileGrants from './migrations/0031_file_grants.ts'
import * as companyChatName from './migrations/0032_company_chat_name.ts'
import * as analytics from './migrations/0033_analytics.ts'
import * as apiKeys from './migrations/0034_api_keys.ts'
import * as webhooks from './migrations/0035_webhooks.ts'
import * as dcsaSubscriptions from './migrations/0036_dcsa_subscriptions.ts'
import * as trackingLinks from './migrations/0037_tracking_links.ts'
import * as analyticsTotals from './migrations/0038_analytics_totals.ts'
import * as userPortrait from './migrations/0039_user_portrait.ts'
import * as userAsks from './migrations/0040_user_asks.ts'
import * as tenantKeys from './migrations/0041_tenant_keys.ts'
import * as dcsaSecretSealed from './migrations/0042_dcsa_secret_sealed.ts'
import * as dcsaNotifications from './migrations/0043_dcsa_notifications.ts'

/** Migrations are listed here in order, so the bundle and the tests see exactly the same set. */
const migrations: Record<string, Migration> = {
  '0001_core': core,
  '0002_accounts': accounts,
  '0003_engine': engine,
  '0004_profile': profile,
  '0005_overlays': overlays,
  '0006_files': files,
  '0008_user_settings': userSettings,
  '0009_tracking': tracking,
  '0010_order_numbers': orderNumbers,
  '0011_row_tally': rowTally,
  '0012_session_lookup': sessionLookup,
  '0013_file_access': fileAccess,
  '0014_login_limits': loginLimits,
  '0016_company_engine': companyEngine,
  '0017_user_origin': userOrigin,
  '0018_enterprise_code': enterpriseCode,
  '0019_role_management': roleManagement,
  '0020_outbox_delivery': outboxDelivery,
  '0021_messaging_providers': messagingProviders,
  '0025_shipment_notices': shipmentNotices,
  '0026_number_rule_documents': numberRuleDocuments,
  '0027_site_settings_save': siteSettingsSave,
  '0028_platform_tenants': platformTenants,
  '0029_fba_service': fbaService,
  '0030_chat_keys': chatKeys,
  '0031_file_grants': fileGrants,
  '0032_company_chat_name': companyChatName,
  '0033_analytics': analytics,
  '0034_api_keys': apiKeys,
  '0035_webhooks': webhooks,
  '0036_dcsa_subscriptions': dcsaSubscriptions,
  '0037_tracking_links': trackingLinks,
  '0038_analytics_totals': analyticsTotals,
  '0039_user_portrait': userPortrait,
  '0040_user_asks': userAsks,
  '0041_tenant_keys': tenantKeys,
  '0042_dcsa_secret_sealed': dcsaSecretSealed,
  '0043_dcsa_notifications': dcsaNotifications,
}

const provider: MigrationProvider = { getMigrations: async () => migrations }

export async function migrateToLatest(db: Kysely<unknown>): Promise<string[]> {
  const migrator = new Migrator({ db, provider, migrationTableName: 'waybill_migration' })
  const { error, results } = await migrator.migrateToLatest()
  if (error) throw error
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
}

/** Up to and including `last` only: a test of what a later migration does to a database made before it. */
export async function migrateTo(db: Kysely<unknown>, last: string): Promise<void> {
  if (!(last in migrations)) throw new Error(`migrateTo: no migration ${last}`)
  const migrator = new Migrator({ db, provider, migrationTableName: 'waybill_migration' })
  const { error } = await migrator.migrateTo(last)
  if (error) throw error
}
