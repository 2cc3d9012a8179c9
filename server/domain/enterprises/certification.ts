import { type RawBuilder, type SqlBool, sql, type Transaction } from 'kysely'
import type { DB } from '../../db/schema.ts'
import type { ApiRow, EffectContext } from '../../engine/index.ts'
import { writeAudit } from '../../engine/index.ts'
import { ApiError } from '../../http/errors.ts'

/**
 * Enterprise certification (schemas/enterpriseApplication.yaml): a personal user's application becomes an
 * enterprise with its applicant as administrator. Both effects run in the transition's transaction, so a
 * refusal or a failure anywhere leaves nothing written: not the state, not the company, not the role.
 */

/** companyUserType of the provider side (SPEC §6). */
export const PROVIDER = 1
/** companyUserType of the enterprise side. */
const ENTERPRISE = 2
/** The preset role the applicant gets (screens/access.yaml), and the one they leave. */
const ADMINISTRATOR_ROLE = 'EnterpriseAdministrator'
const PERSONAL_ROLE = 'PersonalUser'
/** schemas/company.yaml origin: certified by a registered user. */
const ORIGIN_CERTIFIED = 0

/** The application's fields the enterprise takes (its extends: list), as company columns. */
const COMPANY_FIELDS = {
  name: 'name',
  nameEn: 'name_en',
  enterpriseType: 'enterprise_type',
  certificateType: 'certificate_type',
  uniqueNumber: 'unique_number',
  registeredCapital: 'registered_capital',
  foundingDate: 'founding_date',
  corporateName: 'corporate_name',
  contactName: 'contact_name',
  contactMobile: 'contact_mobile',
  contactEmail: 'contact_email',
  address: 'address',
  certificateFiles: 'certificate_files',
  businessStartDate: 'business_start_date',
  businessEndDate: 'business_end_date',
} as const

/**
 * Submitting takes the name: no enterprise of the tenant has it, nor another applicant's application under
 * review (310004). Applications of one name are submitted one at a time (a transaction lock on the name),
 * so two applicants cannot both pass; the company's unique name index holds the approval as well.
 */
export async function enterpriseNameFree({ trx, call, after }: EffectContext): Promise<void> {
  const name = after.name as string
  await lockName(trx, call.tenantId, name)
  const { rows } = await sql<{ taken: boolean }>`
    select exists (select 1 from company where tenant_id = ${call.tenantId} and name = ${name})
      or exists (select 1 from enterprise_application
        where tenant_id = ${call.tenantId} and name = ${name} and state = 'pending' and id <> ${after.id as number})
      as taken`.execute(trx)
  if (rows[0]?.taken) throw new ApiError('310004')
}

/**
 * Approval: the enterprise is created from the application (or, for an applicant already in an enterprise,
 * that one updated), the application records it, and the applicant becomes its administrator — bound to it,
 * on the enterprise side, with the preset EnterpriseAdministrator role instead of PersonalUser. The session
 * reads roles and company on every call, so the applicant's next call sees them.
 */
export async function registerEnterprise({ trx, call, after, at }: EffectContext): Promise<void> {
  const applicantId = after.createdBy as number
  const applicant = await trx
    .selectFrom('app_user')
    .select(['id', 'company_id'])
    .where('id', '=', applicantId)
    .executeTakeFirst()
  if (!applicant) throw new ApiError('310002')
  await lockName(trx, call.tenantId, after.name as string)
  const values = companyValues(after)
  const before = applicant.company_id === null ? null : await companyRow(trx, applicant.company_id)
  const companyId = await uniqueName(async () =>
    before
      ? (
          await trx
            .updateTable('company')
            .set({ ...values, version: sql`version + 1`, updated_at: at } as never)
            .where('id', '=', before.id as number)
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id
      : (
          await trx
            .insertInto('company')
            .values({
              ...values,
              tenant_id: call.tenantId,
              company_type: ENTERPRISE,
              origin: ORIGIN_CERTIFIED,
              fba_status: 0,
              created_by: call.session.userId,
              created_at: at,
              updated_at: at,
            } as never)
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
  )
  await writeAudit(trx, {
    tenantId: call.tenantId,
    userId: call.session.userId,
    entity: 'company',
    recordId: companyId,
    action: before ? 'update' : 'create',
    before,
    after: await companyRow(trx, companyId),
    at,
  })
  // The application names its enterprise and carries the enterprise's own values its list searches.
  await sql`update enterprise_application set company = ${companyId} where id = ${after.id as number}`.execute(trx)
  await copyToApplications(trx, companyId)
  await makeAdministrator(trx, call.tenantId, applicantId, companyId)
}

async function makeAdministrator(trx: Transaction<DB>, tenantId: number, userId: number, companyId: number) {
  await trx
    .updateTable('app_user')
    .set({ company_id: companyId, company_user_type: ENTERPRISE })
    .where('id', '=', userId)
    .execute()
  const roles = await trx
    .selectFrom('role')
    .select(['id', 'code'])
    .where('preset', '=', true)
    .where('code', 'in', [ADMINISTRATOR_ROLE, PERSONAL_ROLE])
    .execute()
  const administrator = roles.find((r) => r.code === ADMINISTRATOR_ROLE)
  if (!administrator) throw new ApiError('310001')
  const personal = roles.find((r) => r.code === PERSONAL_ROLE)
  if (personal)
    await trx.deleteFrom('user_role').where('user_id', '=', userId).where('role_id', '=', personal.id).execute()
  await trx
    .insertInto('user_role')
    .values({ tenant_id: tenantId, user_id: userId, role_id: administrator.id })
    .onConflict((oc) => oc.doNothing())
    .execute()
}

function companyValues(application: ApiRow): Record<string, unknown> {
  const values: Record<string, unknown> = {}
  for (const [field, column] of Object.entries(COMPANY_FIELDS)) {
    const value = application[field] ?? null
    values[column] = Array.isArray(value) ? JSON.stringify(value) : value
  }
  return values
}

async function companyRow(trx: Transaction<DB>, id: number): Promise<Record<string, unknown>> {
  const { rows } = await sql<
    Record<string, unknown>
  >`select to_jsonb(c) - 'tenant_id' as row from company c where c.id = ${id}`.execute(trx)
  return (rows[0] as { row: Record<string, unknown> }).row
}

/** One name decided at a time in a tenant: submit and approval of the same name wait for each other. */
async function lockName(trx: Transaction<DB>, tenantId: number, name: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`enterprise-name:${tenantId}:${name}`}))`.execute(trx)
}

/** The company's unique name index (schemas/company.yaml) refuses a duplicate: SPEC §8 310004. */
async function uniqueName<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if ((error as { code?: unknown }).code === '23505') throw new ApiError('310004')
    throw error
  }
}

/**
 * A change of an enterprise reaches its approved application, whose copies of the enterprise's origin,
 * inviter, FBA service and sales the operators' review list searches (SPEC §3 "Enterprise applications").
 */
export async function certificationFollows({ trx, after }: EffectContext): Promise<void> {
  await copyToApplications(trx, after.id as number)
}

async function copyToApplications(trx: Transaction<DB>, companyId: number): Promise<void> {
  await sql`update enterprise_application a
    set origin = c.origin, inviter = c.inviter, fba_status = c.fba_status,
      sales_branch = c.sales_branch, salesman = c.salesman
    from company c where c.id = ${companyId} and a.company = c.id`.execute(trx)
}

/** Whose applications a reader sees: the provider's reviewers all of the tenant's, anyone else their own. */
export function applicationVisibility({
  call,
  table,
}: {
  call: EffectContext['call']
  table: string
}): RawBuilder<SqlBool>[] {
  return call.session.companyUserType === PROVIDER
    ? []
    : [sql<SqlBool>`${sql.ref(`${table}.created_by`)} = ${call.session.userId}`]
}

/** Which companies a reader sees: the provider side the tenant's, an enterprise user their own, else none. */
export function companyVisibility({
  call,
  table,
  defaults,
}: {
  call: EffectContext['call']
  table: string
  defaults: RawBuilder<SqlBool>[]
}): RawBuilder<SqlBool>[] {
  if (call.session.companyUserType === PROVIDER) return defaults
  const own = call.session.companyId
  return [own === null ? sql<SqlBool>`false` : sql<SqlBool>`${sql.ref(`${table}.id`)} = ${own}`]
}
