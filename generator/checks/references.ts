import type { AreaDef, EntityDef } from '../../model/definitions.ts'
import { type ConfigError, listOf } from '../errors.ts'
import type { SourceFile } from '../load.ts'
import { type CheckContext, collector, eachField, type Path, suggestion } from './context.ts'

/**
 * Names that point elsewhere point at something: a ref field at an entity, a screen at its entity, a
 * redirect, a column's link and an action's route at screens, a hand-written endpoint's body and
 * response at entities.
 */
export function checkReferences({ entityFiles, areaFiles, entities, screens }: CheckContext): ConfigError[] {
  const { errors, report } = collector()
  const entityNames = Object.keys(entities)
  const screenNames = [...screens.keys()]
  const needEntity = (file: SourceFile, path: Path, name: string) => {
    if (!entities[name])
      report(
        file,
        path,
        `unknown entity "${name}"`,
        `one of ${listOf([...entityNames].sort(), 40)}`,
        suggestion(name, entityNames) ?? `create schemas/${name}.yaml`,
      )
  }
  const needScreen = (file: SourceFile, path: Path, name: string) => {
    if (!screens.has(name))
      report(file, path, `unknown screen "${name}"`, 'a screen name', suggestion(name, screenNames))
  }

  for (const file of entityFiles) {
    for (const { field, path } of eachField(file.data as EntityDef)) {
      if (field.ref && !entities[field.ref])
        report(
          file,
          [...path, 'ref'],
          `unknown entity or reference list "${field.ref}"`,
          `one of ${listOf([...entityNames].sort(), 40)}`,
          suggestion(field.ref, entityNames) ?? `create schemas/${field.ref}.yaml`,
        )
    }
  }

  for (const file of areaFiles) {
    const area = file.data as AreaDef
    area.screens.forEach((screen, i) => {
      const at: Path = ['screens', i]
      if (screen.redirect) needScreen(file, [...at, 'redirect'], screen.redirect)
      if (screen.entity) needEntity(file, [...at, 'entity'], screen.entity)
      screen.forms?.forEach((name, k) => needEntity(file, [...at, 'forms', k], name))
      // A link names one screen or alternatives (the first the user may open).
      const needScreens = (path: Path, choice: string | string[]) => {
        if (Array.isArray(choice)) choice.forEach((target, k) => needScreen(file, [...path, k], target))
        else needScreen(file, path, choice)
      }
      screen.columns?.forEach((c, j) => {
        if (c.link) needScreens([...at, 'columns', j, 'link'], c.link)
        for (const [value, target] of Object.entries(c.linkBy?.routes ?? {}))
          needScreens([...at, 'columns', j, 'linkBy', 'routes', value], target)
      })
      for (const kind of ['toolbar', 'row'] as const)
        screen.actions?.[kind]?.forEach((action, j) => {
          if (action.route) needScreen(file, [...at, 'actions', kind, j, 'route'], action.route)
        })
    })
    ;(area.endpoints ?? []).forEach((endpoint, i) => {
      if (endpoint.body) needEntity(file, ['endpoints', i, 'body'], endpoint.body)
      // A response that is an entity's name; its other shapes are checked with the responses.
      const response: unknown = endpoint.response
      if (typeof response === 'string' && response) needEntity(file, ['endpoints', i, 'response'], response)
    })
  }
  return errors
}
