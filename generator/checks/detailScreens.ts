import { type AreaDef, type EntityDef, responseOf, type ScreenDef } from '../../model/definitions.ts'
import type { ConfigError } from '../errors.ts'
import { type CheckContext, collector, type Path } from './context.ts'

type ScreenError = { path: Path; message: string; expected?: string; fix?: string }

/**
 * What only a detail screen must get right: the call that loads its record, one place per field, record
 * actions in the header (a detail has no rows), and history (on a detail or a form) only where a log exists. Field names,
 * transitions, routes and permissions are checked with every other screen's.
 */
export function checkDetailScreens(context: CheckContext): ConfigError[] {
  const { areaFiles, entities } = context
  const { errors, report } = collector()
  for (const file of areaFiles) {
    ;(file.data as AreaDef).screens.forEach((screen, i) => {
      const entity = screen.entity ? entities[screen.entity] : undefined
      for (const e of detailErrors(screen, ['screens', i], entity, context))
        report(file, e.path, e.message, e.expected, e.fix)
    })
  }
  return errors
}

function detailErrors(
  screen: ScreenDef & { history?: boolean },
  at: Path,
  entity: EntityDef | undefined,
  ctx: CheckContext,
): ScreenError[] {
  const errors: ScreenError[] = []
  if (screen.kind !== 'detail' && screen.kind !== 'form' && screen.history !== undefined)
    errors.push({
      path: [...at, 'history'],
      message: 'history: belongs to detail and form screens',
      expected: 'kind: detail or kind: form',
      fix: 'remove history: or make the screen a detail or a form',
    })
  if (
    screen.history &&
    entity &&
    (entity.stored === false || entity.scope === 'global') &&
    !answersHistory(screen, ctx)
  )
    errors.push({
      path: [...at, 'history'],
      message: `entity ${entity.entity} keeps no history`,
      expected:
        'a stored tenant entity (the audit log records its changes), or a detail call whose response declares history',
      fix: 'remove history:',
    })
  if (screen.kind !== 'detail') return errors
  if (screen.status === 'built' && !screen.endpoints?.detail)
    errors.push({
      path: [...at, 'endpoints'],
      message: 'a built detail screen needs endpoints.detail',
      expected: '{ method, path } of the call that answers one record by id',
      fix: 'add endpoints: { detail: { method: GET, path: … } } (the list screen that links here may already bind one)',
    })
  if (screen.actions?.row)
    errors.push({
      path: [...at, 'actions', 'row'],
      message: 'a detail screen has no rows',
      expected: 'actions.toolbar: the buttons of the record shown',
      fix: 'rename row: to toolbar:',
    })
  screen.actions?.toolbar?.forEach((action, j) => {
    if (action.endpoint)
      errors.push({
        path: [...at, 'actions', 'toolbar', j, 'endpoint'],
        message: `endpoint: ${action.endpoint} does nothing on a detail screen`,
        expected: 'transition: (a state change) or route: (opened with the record id)',
        fix: 'edit and delete from the list screen, or open a form screen with route:',
      })
  })
  const shownIn = new Map<string, number>()
  screen.form?.sections.forEach((section, j) =>
    section.fields.forEach((field, k) => {
      const first = shownIn.get(field)
      if (first === undefined) shownIn.set(field, j)
      else
        errors.push({
          path: [...at, 'form', 'sections', j, 'fields', k],
          message: `field "${field}" is shown twice (also in form.sections[${first}])`,
          expected: 'each field in one section',
          fix: 'remove one of them',
        })
    }),
  )
  if (screen.form)
    screen.columns?.forEach((column, j) => {
      if (!shownIn.has(column.field))
        errors.push({
          path: [...at, 'columns', j, 'field'],
          message: `field "${column.field}" is in no section, so this column changes nothing`,
          expected: 'a field of form.sections[].fields',
          fix: `add ${column.field} to a section, or remove the column`,
        })
    })
  return errors
}

/**
 * Whether the screen's detail call is a hand-written endpoint whose response entity declares `history` (a list
 * of historyEntry): an entity the engine keeps no audit log of can still have its change log, answered by hand.
 */
function answersHistory(screen: ScreenDef, { areaFiles, entities }: CheckContext): boolean {
  const detail = screen.endpoints?.detail
  if (!detail) return false
  for (const file of areaFiles)
    for (const endpoint of (file.data as AreaDef).endpoints ?? []) {
      if (endpoint.method !== detail.method || endpoint.path !== detail.path) continue
      const response = responseOf(endpoint)
      const name = typeof response === 'string' ? response : undefined
      const history = name ? entities[name]?.fields.history : undefined
      return history?.type === 'list' && (history as { entity?: string }).entity === 'historyEntry'
    }
  return false
}
