import type { AreaDef, EntityDef } from '../../model/definitions.ts'
import type { ConfigError } from '../errors.ts'
import { locate, type SourceFile } from '../load.ts'
import { type CheckContext, collector, type Path } from './context.ts'

/** One entity per file, named like it, and each entity name once. */
export function checkEntityNames({ entityFiles }: CheckContext): ConfigError[] {
  const { errors, report } = collector()
  const seen: Record<string, SourceFile> = {}
  for (const file of entityFiles) {
    const def = file.data as EntityDef
    const stem = file.path.replace(/^.*\//, '').replace(/\.ya?ml$/, '')
    if (def.entity !== stem)
      report(
        file,
        ['entity'],
        `entity "${def.entity}" is in a file named ${stem}.yaml`,
        undefined,
        `rename the file to ${def.entity}.yaml or the entity to ${stem}`,
      )
    if (seen[def.entity])
      report(file, ['entity'], `entity "${def.entity}" is defined twice (also in ${seen[def.entity]?.path})`)
    seen[def.entity] = file
  }
  return errors
}

/** Each screen name and each route once. */
export function checkScreenNames({ areaFiles }: CheckContext): ConfigError[] {
  const { errors, report } = collector()
  const screenAt = new Map<string, { file: SourceFile; path: Path }>()
  const routeAt = new Map<string, string>()
  for (const file of areaFiles) {
    ;(file.data as AreaDef).screens.forEach((screen, i) => {
      const at: Path = ['screens', i]
      const previous = screenAt.get(screen.name)
      if (previous)
        report(
          file,
          [...at, 'name'],
          `screen name "${screen.name}" is defined twice (also ${previous.file.path}:${locate(previous.file, [...previous.path, 'name']).line})`,
          'a unique route name',
          'rename one of them',
        )
      else screenAt.set(screen.name, { file, path: at })
      const routeOwner = routeAt.get(screen.route)
      if (routeOwner)
        report(
          file,
          [...at, 'route'],
          `route ${screen.route} is defined twice (also by screen ${routeOwner})`,
          'each path once',
          'merge the two screens; list both permissions in one screen',
        )
      else routeAt.set(screen.route, screen.name)
    })
  }
  return errors
}

/**
 * Hand-written endpoints: each name once, each method and path declared once (a screen may bind a
 * hand-written endpoint; two declarations of one call may not).
 */
export function checkEndpointNames({ areaFiles, screenEndpoints }: CheckContext): ConfigError[] {
  const { errors, report } = collector()
  const names = new Map<string, string>()
  const endpointAt = new Map(screenEndpoints)
  for (const file of areaFiles) {
    ;((file.data as AreaDef).endpoints ?? []).forEach((endpoint, i) => {
      const at: Path = ['endpoints', i]
      const previous = names.get(endpoint.name)
      if (previous)
        report(
          file,
          [...at, 'name'],
          `endpoint name "${endpoint.name}" is used twice (also in ${previous})`,
          'a unique handler name',
        )
      else names.set(endpoint.name, file.path)
      const key = `${endpoint.method} ${endpoint.path}`
      const owner = endpointAt.get(key)
      // A screen's binding is "<screen>.<kind>"; a hand-written declaration is its bare name.
      if (owner && !owner.includes('.'))
        report(file, [...at, 'path'], `${key} is already declared as ${owner}`, 'each method and path once')
      else endpointAt.set(key, endpoint.name)
    })
  }
  return errors
}
