import type { AreaDef } from '../../model/definitions.ts'
import type { ConfigError } from '../errors.ts'
import { type CheckContext, collector, type Path, suggestion } from './context.ts'

/**
 * What an area endpoint serves besides a handler (issue #23): `servedAs:` names an endpoint declared elsewhere
 * (a custom endpoint's name, or `<screen>.<kind>` of a screen binding) that is no alias itself, and takes no
 * `body`, `response` or `permission` of its own (the other endpoint's are its); `transition:` names a
 * transition of the entity's state machine, and comes with neither `servedAs` nor a handler of its own.
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
            report(file, [...at, key], `${key}: comes from the endpoint servedAs names`, 'no ' + key)
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
