import { checkCharts } from './charts.ts'
import { checkComponents } from './components.ts'
import type { Check } from './context.ts'
import { checkDetailScreens } from './detailScreens.ts'
import { checkEditDeadlines } from './editDeadline.ts'
import { checkEndpointTargets } from './endpointTargets.ts'
import { checkEntityExtends } from './entityExtends.ts'
import { checkEntityRules } from './entityRules.ts'
import { checkFields } from './fields.ts'
import { checkLocaleKeys } from './localeKeys.ts'
import { checkMetaSchema } from './metaSchema.ts'
import { checkEndpointNames, checkEntityNames, checkScreenNames } from './names.ts'
import { checkPermissions } from './permissions.ts'
import { checkReferences } from './references.ts'
import { checkRowCalls } from './rowCalls.ts'
import { checkScreenEndpoints } from './screenEndpoints.ts'
import { checkScreenFields } from './screenFields.ts'
import { checkStateMachines } from './stateMachines.ts'

export type { Check, CheckContext } from './context.ts'

/**
 * The checks of `waybill check`, in order. Each is a pure function of the loaded configuration that
 * answers its errors; all run, and the errors are printed by file, line and column.
 */
export const CHECKS: readonly Check[] = [
  checkMetaSchema,
  checkEntityNames,
  checkPermissions,
  checkFields,
  checkReferences,
  checkComponents,
  checkEntityRules,
  checkEntityExtends,
  checkStateMachines,
  checkEditDeadlines,
  checkScreenNames,
  checkScreenFields,
  checkScreenEndpoints,
  checkDetailScreens,
  checkCharts,
  checkRowCalls,
  checkEndpointNames,
  checkEndpointTargets,
  checkLocaleKeys,
]
