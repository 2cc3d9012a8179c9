import type { AccessDef, AreaDef, EntityDef } from '../../model/definitions.ts'
import { ERROR_CODES } from '../../model/errorCodes.ts'
import type { ConfigError } from '../errors.ts'
import type { SourceFile } from '../load.ts'
import { asList, type CheckContext, collector, type Path, permissionPath, suggestion } from './context.ts'

/**
 * One permission catalogue (screens/access.yaml), and every permission named anywhere — by a role, a
 * transition, a screen, an action, an endpoint — is one of it. A public endpoint needs none.
 */
export function checkPermissions({ accessFiles, entityFiles, areaFiles, permissions }: CheckContext): ConfigError[] {
  const { errors, report } = collector()
  if (accessFiles.length === 0)
    errors.push({
      file: 'screens/access.yaml',
      line: 1,
      col: 1,
      path: '',
      message: 'the permission catalogue is missing',
      fix: 'create screens/access.yaml with permissions: and roles:',
    })
  for (const file of accessFiles.slice(1))
    report(
      file,
      [],
      `a second permission catalogue (the first is ${accessFiles[0]?.path})`,
      undefined,
      'merge it into one file',
    )

  const need = (file: SourceFile, path: Path, name: string) => {
    if (!permissions.has(name))
      report(
        file,
        path,
        `unknown permission "${name}"`,
        'a permission of screens/access.yaml',
        suggestion(name, permissions) ?? `add ${name} to screens/access.yaml permissions`,
      )
  }
  const catalogue = accessFiles[0]
  if (catalogue) {
    for (const [role, def] of Object.entries((catalogue.data as AccessDef).roles)) {
      if (def.permissions === '*') continue
      def.permissions.forEach((p, i) => need(catalogue, ['roles', role, 'permissions', i], p))
    }
  }
  for (const file of entityFiles) {
    for (const [name, t] of Object.entries((file.data as EntityDef).states?.transitions ?? {}))
      need(file, ['states', 'transitions', name, 'permission'], t.permission)
  }
  for (const file of areaFiles) {
    const area = file.data as AreaDef
    area.screens.forEach((screen, i) => {
      const at: Path = ['screens', i]
      asList(screen.permission).forEach((p, j) => need(file, permissionPath(screen.permission, at, j), p))
      for (const kind of ['toolbar', 'row'] as const)
        screen.actions?.[kind]?.forEach((action, j) => {
          const ap: Path = [...at, 'actions', kind, j]
          asList(action.permission).forEach((p, k) => need(file, permissionPath(action.permission, ap, k), p))
        })
      for (const [kind, endpoint] of Object.entries(screen.endpoints ?? {})) {
        const ep: Path = [...at, 'endpoints', kind]
        asList(endpoint.permission).forEach((p, k) => need(file, permissionPath(endpoint.permission, ep, k), p))
      }
    })
    ;(area.endpoints ?? []).forEach((endpoint, i) => {
      const at: Path = ['endpoints', i]
      asList(endpoint.permission).forEach((p, k) => need(file, permissionPath(endpoint.permission, at, k), p))
      if (endpoint.public && endpoint.permission !== undefined)
        report(
          file,
          [...at, 'public'],
          'a public endpoint cannot need a permission',
          'public: true or a permission, not both',
        )
      // A refusal of its own is what a caller without the permission is answered: without one, nobody is refused.
      if (endpoint.refusal !== undefined && endpoint.permission === undefined)
        report(
          file,
          [...at, 'refusal'],
          'a refusal without a permission refuses nobody',
          'a permission: to refuse with it',
        )
      if (endpoint.refusal !== undefined && !Object.hasOwn(ERROR_CODES, endpoint.refusal))
        report(
          file,
          [...at, 'refusal'],
          `unknown error code "${endpoint.refusal}"`,
          'a code of model/errorCodes.ts',
          suggestion(endpoint.refusal, new Set(Object.keys(ERROR_CODES))) ?? 'add it to model/errorCodes.ts',
        )
    })
  }
  return errors
}
