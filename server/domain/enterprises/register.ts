import type { EngineRegistry } from '../../engine/index.ts'
import {
  applicationVisibility,
  certificationFollows,
  companyVisibility,
  enterpriseNameFree,
  registerEnterprise,
} from './certification.ts'

/**
 * Enterprises and their certification (schemas/company.yaml, schemas/enterpriseApplication.yaml): the
 * name check on submit, the enterprise and its administrator on approval, who sees which applications and
 * companies.
 */
export function register(engine: EngineRegistry): void {
  /** enterpriseApplication, submit: no enterprise or application under review has the name (310004). */
  engine.effect('enterpriseNameFree', enterpriseNameFree)
  /** enterpriseApplication, approve: the enterprise, and the applicant its administrator. */
  engine.effect('registerEnterprise', registerEnterprise)
  /** company, update: its application's copies of what the review list searches follow it. */
  engine.effect('certificationFollows', certificationFollows)
  engine.visibility('enterpriseApplication', applicationVisibility)
  engine.visibility('company', companyVisibility)
  // The application last acted on first: a resubmitted one comes back to the top of the reviewers' list.
  engine.listOrder('enterpriseApplication', { field: 'updatedAt', order: 'desc' })
}
