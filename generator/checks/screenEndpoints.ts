import type { AreaDef } from '../../model/definitions.ts'
import { type ConfigError, listOf } from '../errors.ts'
import { type CheckContext, collector, type Path } from './context.ts'

/**
 * The calls a screen binds: each needs the screen's entity, an import is a POST, an export a POST or a GET, a built list binds its
 * list, an action's endpoint is one the screen binds (an import only on a list's toolbar), and a built
 * screen says its kind.
 */
export function checkScreenEndpoints({ areaFiles }: CheckContext): ConfigError[] {
  const { errors, report } = collector()
  for (const file of areaFiles) {
    ;(file.data as AreaDef).screens.forEach((screen, i) => {
      const at: Path = ['screens', i]
      for (const kind of ['toolbar', 'row'] as const)
        screen.actions?.[kind]?.forEach((action, j) => {
          const path: Path = [...at, 'actions', kind, j, 'endpoint']
          if (action.endpoint === 'import' && (kind !== 'toolbar' || screen.kind !== 'list'))
            report(
              file,
              path,
              "an import action reads a file into the whole list: only a list screen's toolbar offers it",
              'actions.toolbar of a kind: list screen',
            )
          if (action.endpoint && !screen.endpoints?.[action.endpoint])
            report(
              file,
              path,
              `the screen binds no ${action.endpoint} endpoint`,
              `one of ${listOf(Object.keys(screen.endpoints ?? {}))}`,
            )
        })
      for (const [kind, endpoint] of Object.entries(screen.endpoints ?? {})) {
        if (!screen.entity)
          report(file, [...at, 'endpoints', kind], "an endpoint binding needs the screen's entity", 'entity: <name>')
        if (kind === 'import' && endpoint.method !== 'POST')
          report(
            file,
            [...at, 'endpoints', kind, 'method'],
            'an import receives the file as multipart/form-data',
            'method: POST',
            'method: POST (the same path answers the template to GET)',
          )
        // An export answers its file as a custom call's file is answered (./endpointResponses.ts).
        if (kind === 'export' && endpoint.method !== 'GET' && endpoint.method !== 'POST')
          report(
            file,
            [...at, 'endpoints', kind, 'method'],
            `an export answers its file to a POST (its list request the body) or a GET, not a ${endpoint.method}`,
            'method: POST or GET',
          )
      }
      if (screen.status === 'built' && screen.kind === 'list' && !screen.endpoints?.list)
        report(file, [...at, 'endpoints'], 'a built list screen needs endpoints.list', '{ method, path }')
      if (screen.status === 'built' && !screen.kind)
        report(file, [...at, 'kind'], 'a built screen needs kind:', 'list, detail, form or custom')
    })
  }
  return errors
}
