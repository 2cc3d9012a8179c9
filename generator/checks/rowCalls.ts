import type { ActionDef, AreaDef, CustomEndpointDef, EntityDef } from '../../model/definitions.ts'
import type { ConfigError } from '../errors.ts'
import { type CheckContext, collector, type Path, suggestion } from './context.ts'

/**
 * Row actions that call a hand-written endpoint (`call:`, issue #21: copy a role, enable or disable it,
 * assign it): the endpoint exists and is a POST whose body takes the row's `id`, every fixed value and every
 * field the action's `input:` asks for; `input:` is a request entity (stored: false); `when:` reads fields the
 * row has; `opens:` names a text field of the row. `input`, `values`, `opens` and `when` without what they
 * belong to are refused too.
 * row has. `input`, `values` and `when` without what they belong to are refused too. An action that downloads
 * a file of the record (`download:`, issue #23) names a GET endpoint answering `binary` whose query takes `id`,
 * in the toolbar of a record's screen: a detail, or a custom flow with an entity (the B/L editor's view mode);
 * in a list's toolbar (issue #24: a customer's statement) the file is of what the list is searched by, and its
 * `input:` — the endpoint's query itself — asks for the rest, the fields `asks:` names.
 * An action with `transition:` and `call:` fires the transition through the endpoint named, which must be one
 * that fires exactly it (`transition: { entity, name }`, SPEC §7's withdraw): a detail's or form's toolbar, or
 * a list's row. A detail's toolbar `call:` without a transition sends the record's id (in the body field `param:`
 * names), what its `input:` asked and its `values:`, and may reveal a field of the answer (issue #29: Share).
 */
export function checkRowCalls({ areaFiles, entities }: CheckContext): ConfigError[] {
  const { errors, report } = collector()
  const custom = new Map<string, CustomEndpointDef>()
  for (const file of areaFiles)
    for (const endpoint of (file.data as AreaDef).endpoints ?? []) custom.set(endpoint.name, endpoint)
  for (const file of areaFiles) {
    ;(file.data as AreaDef).screens.forEach((screen, i) => {
      const row = screen.entity ? entities[screen.entity] : undefined
      for (const place of ['toolbar', 'row'] as const) {
        ;(screen.actions?.[place] ?? []).forEach((action, j) => {
          const at: Path = ['screens', i, 'actions', place, j]
          for (const e of actionErrors(action, at, place, screen.kind, row, custom, entities))
            report(file, e.path, e.message, e.expected, e.fix)
        })
      }
    })
  }
  return errors
}

type ActionError = { path: Path; message: string; expected?: string; fix?: string }

/** An action's `call:` or `download:` that names no hand-written endpoint, with the nearest name there is. */
const unknownEndpoint = (name: string, path: Path, custom: ReadonlyMap<string, CustomEndpointDef>): ActionError => ({
  path,
  message: `unknown endpoint "${name}"`,
  expected: 'the name of a hand-written endpoint (an area’s endpoints:)',
  fix: suggestion(name, [...custom.keys()]),
})

function actionErrors(
  action: ActionDef,
  at: Path,
  place: 'toolbar' | 'row',
  kind: string | undefined,
  row: EntityDef | undefined,
  custom: ReadonlyMap<string, CustomEndpointDef>,
  entities: Record<string, EntityDef>,
): ActionError[] {
  const errors: ActionError[] = []
  // The chat about the record (issue #27): a detail's toolbar, its reference a field of the record.
  if (action.chat) {
    if (place !== 'toolbar' || kind !== 'detail')
      errors.push({
        path: [...at, 'chat'],
        message: 'chat: opens the chat about the record shown: a toolbar action of a detail screen',
        expected: 'actions.toolbar of a kind: detail screen',
      })
    else if (!row?.fields[action.chat.contextRef])
      errors.push({
        path: [...at, 'chat', 'contextRef'],
        message: `unknown field "${action.chat.contextRef}"`,
        expected: 'a field of the screen’s entity holding the reference (an order number)',
        fix: suggestion(action.chat.contextRef, Object.keys(row?.fields ?? {})),
      })
  }
  if (!action.call) {
    // A list's download asks for its query's fields first (`input:`, `asks:`): checked with the download below.
    for (const key of action.download
      ? (['values', 'opens', 'reveals'] as const)
      : (['input', 'values', 'opens', 'reveals'] as const))
      if (action[key] !== undefined)
        errors.push({
          path: [...at, key],
          message: `${key}: belongs to an action with call:`,
          expected: 'call: <endpoint name>',
        })
  } else if (action.transition) {
    // A transition fired through the SPEC endpoint that fires it (withdraw, reapplyOrder): on a record's screen.
    if (!(place === 'toolbar' ? ['detail', 'form'].includes(kind ?? '') : kind === 'list'))
      errors.push({
        path: [...at, 'call'],
        message:
          'call: with transition: fires it on a record: a toolbar action of a detail or form screen, or a row action of a list',
        expected: 'actions.toolbar of a kind: detail or form screen, or actions.row of a kind: list screen',
      })
    const endpoint = custom.get(action.call)
    if (!endpoint) errors.push(unknownEndpoint(action.call, [...at, 'call'], custom))
    else if (endpoint.transition?.entity !== row?.entity || endpoint.transition?.name !== action.transition)
      errors.push({
        path: [...at, 'call'],
        message: `endpoint "${action.call}" does not fire ${row?.entity ?? '(none)'}'s transition "${action.transition}"`,
        expected: `an endpoint with transition: { entity: ${row?.entity ?? '…'}, name: ${action.transition} }`,
      })
    for (const key of ['input', 'values', 'opens', 'reveals'] as const)
      if (action[key] !== undefined)
        errors.push({
          path: [...at, key],
          message: `${key}: belongs to a call: without transition:`,
          expected: 'the endpoint takes the record’s id, version and remark',
        })
  } else if (place === 'toolbar' && kind === 'list') {
    // A list's toolbar call (issue #29: a new API key): it sends what its input: dialog asked, and no row.
    const endpoint = custom.get(action.call)
    if (!endpoint) errors.push(unknownEndpoint(action.call, [...at, 'call'], custom))
    else if (endpoint.method !== 'POST' || !action.input || endpoint.body !== action.input)
      errors.push({
        path: [...at, 'call'],
        message: `a list's toolbar call sends what its dialog asked: "${action.call}" must be a POST whose body is the action's input:`,
        expected: `input: ${endpoint.body ?? '<the body entity>'} on a POST endpoint`,
      })
  } else if (place === 'toolbar' && kind === 'detail') {
    errors.push(...recordCallErrors(action, at, custom, entities))
  } else {
    if (place !== 'row' || kind !== 'list')
      errors.push({
        path: [...at, 'call'],
        message:
          'call: is a row action of a list screen (it sends the row’s id), a list toolbar’s with input:, or a detail toolbar’s',
        expected: 'actions.row of a kind: list screen',
      })
    const endpoint = custom.get(action.call)
    if (!endpoint) errors.push(unknownEndpoint(action.call, [...at, 'call'], custom))
    else {
      const body = endpoint.body ? entities[endpoint.body] : undefined
      if (endpoint.method !== 'POST' || !body?.fields.id)
        errors.push({
          path: [...at, 'call'],
          message: `endpoint "${action.call}" is not a POST whose body takes the row’s id`,
          expected: 'method: POST and a body: entity with an id field',
        })
      else errors.push(...callBodyErrors(action, at, action.call, endpoint.body as string, body, entities))
    }
  }
  if (action.opens && action.call && row?.fields[action.opens]?.type !== 'string')
    errors.push({
      path: [...at, 'opens'],
      message: `"${action.opens}" is not a text field of the screen’s rows`,
      expected: `a text field of ${row?.entity ?? 'the screen’s entity'} holding an in-app address`,
      fix: suggestion(action.opens, Object.keys(row?.fields ?? {})),
    })
  if (action.download) {
    // A record's screen (a detail, or a hand-written flow showing one record of its entity: the B/L editor) sends
    // the record's id; a list's toolbar sends what the list is searched by and what its dialog asked (`input:`).
    const ofList = place === 'toolbar' && kind === 'list'
    if (!ofList && (place !== 'toolbar' || !(kind === 'detail' || (kind === 'custom' && row))))
      errors.push({
        path: [...at, 'download'],
        message: 'download: is a toolbar action of a record’s screen (it sends the record’s id) or of a list',
        expected: 'actions.toolbar of a kind: detail or list screen, or of a kind: custom screen with an entity',
      })
    const endpoint = custom.get(action.download)
    const query = endpoint?.body ? entities[endpoint.body] : undefined
    if (!endpoint) errors.push(unknownEndpoint(action.download, [...at, 'download'], custom))
    // `waybill check` hands the checks `response:` entity names only (a `binary` or `none` answer has none).
    else if (
      endpoint.method !== 'GET' ||
      (endpoint.response !== undefined && endpoint.response !== 'binary') ||
      (ofList ? !query : !query?.fields.id)
    )
      errors.push({
        path: [...at, 'download'],
        message: ofList
          ? `endpoint "${action.download}" is not a GET answering a file by a query`
          : `endpoint "${action.download}" is not a GET answering a file whose query takes the record’s id`,
        expected: ofList
          ? 'method: GET, response: binary and a body: entity'
          : 'method: GET, response: binary and a body: entity with an id field (recordIdQuery)',
      })
    if (action.input !== undefined && (!ofList || action.input !== endpoint?.body))
      errors.push({
        path: [...at, 'input'],
        message: `input: of a download is its query, asked for on a list: ${endpoint?.body ?? 'the endpoint’s body'}`,
        expected: `input: ${endpoint?.body ?? '…'} in a list's toolbar`,
      })
  }
  for (const name of action.asks ?? [])
    if (!action.input || !entities[action.input]?.fields[name])
      errors.push({
        path: [...at, 'asks'],
        message: `"${name}" is not a field of the action's input${action.input ? ` ${action.input}` : ''}`,
        expected: action.input
          ? `one of ${Object.keys(entities[action.input]?.fields ?? {}).join(', ')}`
          : 'asks: with input:',
        fix: suggestion(name, Object.keys(entities[action.input ?? '']?.fields ?? {})),
      })
  if (action.revealAs !== undefined && !action.reveals)
    errors.push({
      path: [...at, 'revealAs'],
      message: 'revealAs: says how the field reveals: shows it',
      expected: 'reveals: <a text field of the answer>',
    })
  if (action.when) {
    if (place !== 'row' && !(place === 'toolbar' && kind === 'detail'))
      errors.push({
        path: [...at, 'when'],
        message: 'when: belongs to a row action or a detail’s toolbar action (a record to hold for)',
        expected: 'actions.row, or actions.toolbar of a kind: detail screen',
      })
    // The rows carry their id and, for an entity with states, the state (not a field of its own).
    for (const field of conditionFields(action.when))
      if (!row?.fields[field] && field !== 'id' && field !== row?.states?.field)
        errors.push({
          path: [...at, 'when'],
          message: `unknown field "${field}" of the screen’s rows`,
          expected: `a field of ${row?.entity ?? 'the screen’s entity'}`,
          fix: suggestion(field, Object.keys(row?.fields ?? {})),
        })
  }
  return errors
}

/**
 * A detail toolbar's call on its record (issue #29: Share an order's tracking): a POST whose body takes the record's
 * id in the field `param:` names (default `id`), every fixed value and every field the action's `input:` asks for.
 */
function recordCallErrors(
  action: ActionDef,
  at: Path,
  custom: ReadonlyMap<string, CustomEndpointDef>,
  entities: Record<string, EntityDef>,
): ActionError[] {
  const endpoint = custom.get(action.call ?? '')
  if (!endpoint) return [unknownEndpoint(action.call ?? '', [...at, 'call'], custom)]
  const body = endpoint.body ? entities[endpoint.body] : undefined
  const param = action.param ?? 'id'
  if (endpoint.method !== 'POST' || !body?.fields[param])
    return [
      {
        path: [...at, action.param ? 'param' : 'call'],
        message: `endpoint "${action.call}" is not a POST whose body takes the record’s id in "${param}"`,
        expected: `method: POST and a body: entity with a field ${param}`,
        fix: body ? suggestion(param, Object.keys(body.fields)) : undefined,
      },
    ]
  const errors = callBodyErrors(action, at, action.call ?? '', endpoint.body as string, body, entities, action.asks)
  if (action.opens !== undefined)
    errors.push({
      path: [...at, 'opens'],
      message: 'opens: belongs to a list row’s call',
      expected: 'reveals: or nothing: the detail reloads after the call',
    })
  return errors
}

/**
 * What a call's body must take besides the record's id: every fixed value (`values:`) and every field the action's
 * `input:` (a request entity) asks for — all of them, or those `asks:` names.
 */
function callBodyErrors(
  action: ActionDef,
  at: Path,
  call: string,
  bodyName: string,
  body: EntityDef,
  entities: Record<string, EntityDef>,
  asks?: readonly string[],
): ActionError[] {
  const errors: ActionError[] = []
  for (const key of Object.keys(action.values ?? {}))
    if (!body.fields[key])
      errors.push({
        path: [...at, 'values', key],
        message: `"${key}" is not a field of ${bodyName}, the body of ${call}`,
        expected: `one of ${Object.keys(body.fields).join(', ')}`,
      })
  const input = action.input ? entities[action.input] : undefined
  if (action.input && !input)
    errors.push({ path: [...at, 'input'], message: `unknown entity "${action.input}"`, expected: 'a request entity' })
  else if (input && input.stored !== false)
    errors.push({
      path: [...at, 'input'],
      message: `input: ${action.input} is stored`,
      expected: 'a request entity (stored: false)',
    })
  else if (input)
    for (const name of asks ?? Object.keys(input.fields))
      if (!body.fields[name])
        errors.push({
          path: [...at, 'input'],
          message: `the input's field "${name}" is not a field of ${bodyName}, the body of ${call}`,
          expected: 'the body entity itself, or one whose fields it has',
        })
  return errors
}

function conditionFields(condition: NonNullable<ActionDef['when']>): string[] {
  if ('all' in condition) return condition.all.flatMap(conditionFields)
  if ('any' in condition) return condition.any.flatMap(conditionFields)
  if ('not' in condition) return conditionFields(condition.not)
  // A row action reads its row only: a site setting is no field of it, so the check names it as unknown.
  if ('setting' in condition) return [`setting:${condition.setting}`]
  return [condition.field]
}
