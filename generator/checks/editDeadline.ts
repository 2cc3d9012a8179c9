import type { EntityDef, FieldType } from '../../model/definitions.ts'
import type { ConfigError } from '../errors.ts'
import { listOf } from '../errors.ts'
import { type CheckContext, collector, type Path, suggestion } from './context.ts'

/**
 * An entity's `editDeadline:` (rules/editDeadline.ts) names a date field, a datetime field, a line-of-business
 * field of its own, and site settings the portal has (schemas/siteSettingsView.yaml) of the right kinds: the
 * form reads them there and the engine in the tenant's settings, so a name neither has would hold nothing.
 */
export function checkEditDeadlines({ entityFiles, entities }: CheckContext): ConfigError[] {
  const { errors, report } = collector()
  const settings = entities.siteSettingsView?.fields ?? {}
  for (const file of entityFiles) {
    const def = file.data as EntityDef
    const rule = def.editDeadline
    if (!rule) continue
    const needField = (path: Path, name: string, types: FieldType[]) => {
      const field = def.fields[name]
      if (field && types.includes(field.type)) return
      const fitting = Object.keys(def.fields).filter((f) => types.includes(def.fields[f]?.type as FieldType))
      report(
        file,
        path,
        `"${name}" is not a ${types.join(' or ')} field of ${def.entity}`,
        `one of ${listOf(fitting)}`,
        suggestion(name, fitting),
      )
    }
    const needSetting = (path: Path, name: string, types: FieldType[], multiple = false) => {
      const setting = settings[name]
      if (setting && types.includes(setting.type) && Boolean(setting.multiple) === multiple) return
      report(
        file,
        path,
        `"${name}" is not a ${multiple ? 'list' : types.join(' or ')} site setting of schemas/siteSettingsView.yaml`,
        `add ${name} to schemas/siteSettingsView.yaml`,
        suggestion(name, Object.keys(settings)),
      )
    }
    needField(['editDeadline', 'date'], rule.date, ['date', 'datetime'])
    if (rule.until) needField(['editDeadline', 'until'], rule.until, ['datetime'])
    needSetting(['editDeadline', 'enabled'], rule.enabled, ['boolean'])
    needSetting(['editDeadline', 'hours'], rule.hours, ['number', 'integer'])
    if (rule.lineOfBusiness) {
      needField(['editDeadline', 'lineOfBusiness', 'field'], rule.lineOfBusiness.field, ['enum', 'string'])
      needSetting(['editDeadline', 'lineOfBusiness', 'setting'], rule.lineOfBusiness.setting, ['string', 'enum'], true)
    }
  }
  return errors
}
