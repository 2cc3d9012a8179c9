import type { AreaDef } from '../../model/definitions.ts'
import type { ConfigError } from '../errors.ts'
import { type CheckContext, collector, type Path, suggestion } from './context.ts'

/**
 * What an area endpoint serves besides a handler (issue #23): `servedAs:` names an endpoint declared elsewhere
 * (a custom endpoint's name, or `<screen>.<kind>` of a screen binding) that is no alias itself, and takes no
 * `body`, `response` or `permission` of its own (the other endpoint's are its); `transition:` names a
 * transition of the entity's state machine, and comes with neither `servedAs` nor a handler of its own. A
 * detail's `attachments:` names hand-written endpoints and an entity.
 */
export function checkEndpointTargets({ areaFiles, entities }: CheckContext): ConfigError[] {
  const { errors, report } = collector()
  const ids = new Set<string>()
  const aliases = new Set<string>()
  for (const file of areaFiles) {
    const area = file.data as AreaDef
    for (const endpoint of area.endpoints ?? []) (endpoint.servedAs ? aliases : ids).add(endpoint.name)
    for (const screen of area.screens)
      for (const kind of Object.keys(screen.endpoints ?? {})) if (screen.entity) ids.add(`${screen.name}.${kind}`)
  }
  const custom = new Set<string>()
  for (const file of areaFiles) for (const e of (file.data as AreaDef).endpoints ?? []) custom.add(e.name)
  // A detail's documents panel names hand-written endpoints and the upload's query entity.
  for (const file of areaFiles)
    (file.data as AreaDef).screens.forEach((screen, i) => {
      const spec = screen.attachments
      if (!spec) return
      const at: Path = ['screens', i, 'attachments']
      for (const key of ['list', 'upload'] as const)
        if (!custom.has(spec[key]))
          report(
            file,
            [...at, key],
            `"${spec[key]}" is no hand-written endpoint`,
            'an endpoints: name',
            suggestion(spec[key], custom),
          )
      if (!entities[spec.form])
        report(
          file,
          [...at, 'form'],
          `unknown entity "${spec.form}"`,
          'a request entity',
          suggestion(spec.form, Object.keys(entities)),
        )
    })
  for (const file of areaFiles) {
    ;((file.data as AreaDef).endpoints ?? []).forEach((endpoint, i) => {
      const at: Path = ['endpoints', i]
      if (endpoint.servedAs !== undefined) {
        if (!ids.has(endpoint.servedAs))
          report(
            file,
            [...at, 'servedAs'],
            aliases.has(endpoint.servedAs)
              ? `servedAs "${endpoint.servedAs}" is itself another path of an endpoint`
              : `servedAs "${endpoint.servedAs}" names no endpoint`,
            'a custom endpoint name or <screen>.<kind> of a screen binding',
            suggestion(endpoint.servedAs, ids),
          )
        for (const key of ['body', 'response', 'permission', 'public', 'transition'] as const)
          if (endpoint[key] !== undefined)
            report(file, [...at, key], `${key}: comes from the endpoint servedAs names`, `no ${key}`)
      }
      const transition = endpoint.transition
      if (transition) {
        const entity = entities[transition.entity]
        if (!entity?.states)
          report(
            file,
            [...at, 'transition', 'entity'],
            `"${transition.entity}" is no entity with a state machine`,
            'an entity with states:',
            suggestion(
              transition.entity,
              Object.keys(entities).filter((name) => entities[name]?.states),
            ),
          )
        else if (!entity.states.transitions[transition.name])
          report(
            file,
            [...at, 'transition', 'name'],
            `${transition.entity} has no transition "${transition.name}"`,
            `one of ${Object.keys(entity.states.transitions).join(', ')}`,
            suggestion(transition.name, Object.keys(entity.states.transitions)),
          )
      }
    })
  }
  return errors
}
