import type { AreaDef } from '../../model/definitions.ts'
import { SYSTEM_FIELDS } from '../../model/jsonschema.ts'
import { type ConfigError, listOf } from '../errors.ts'
import { type CheckContext, collector, type Path, suggestion } from './context.ts'

/**
 * A screen's columns, search fields and form sections name fields of its entity (its own, the system
 * fields, its state field); a range search has two params.
 */
export function checkScreenFields({ areaFiles, entities }: CheckContext): ConfigError[] {
  const { errors, report } = collector()
  const endpoints = new Map(
    areaFiles.flatMap((file) => ((file.data as AreaDef).endpoints ?? []).map((e) => [e.name, e] as const)),
  )
  for (const file of areaFiles) {
    ;(file.data as AreaDef).screens.forEach((screen, i) => {
      const at: Path = ['screens', i]
      const entity = screen.entity ? entities[screen.entity] : undefined
      const known = entity
        ? [...Object.keys(entity.fields), ...SYSTEM_FIELDS, ...(entity.states ? [entity.states.field] : [])]
        : []
      const needField = (path: Path, name: string) => {
        if (entity && !known.includes(name))
          report(
            file,
            path,
            `unknown field "${name}" of entity ${entity.entity}`,
            `one of ${listOf(known, 30)}`,
            suggestion(name, known) ?? `add ${name} to schemas/${entity.entity}.yaml`,
          )
      }
      screen.columns?.forEach((c, j) => {
        needField([...at, 'columns', j, 'field'], c.field)
        if (c.linkBy) needField([...at, 'columns', j, 'linkBy', 'field'], c.linkBy.field)
        // The link's query names fields of the row (a sailing's rateId as the comparison table's ids).
        for (const [name, field] of Object.entries(c.linkQuery ?? {}))
          if (field !== 'id') needField([...at, 'columns', j, 'linkQuery', name], field)
        // A money column's currency is a field of the row (the export writes the amount in its code).
        if (c.currency) needField([...at, 'columns', j, 'currency'], c.currency)
      })
      screen.search?.forEach((s, j) => {
        needField([...at, 'search', j, 'field'], s.field)
        if ((s.op === 'between' || s.op === 'dateRange') && s.params && s.params.length !== 2)
          report(file, [...at, 'search', j, 'params'], `${s.op} needs two params (begin and end)`, '[beginKey, endKey]')
      })
      // Tabs are over the entity's state machine, its values states, and the tab searches by the field.
      if (screen.tabs) {
        const tabs = screen.tabs
        const states = entity?.states
        if (!states || states.field !== tabs.field)
          report(
            file,
            [...at, 'tabs', 'field'],
            `"${tabs.field}" is not the state field of ${entity ? `entity ${entity.entity}` : 'the screen (it has no entity)'}`,
            states ? `field: ${states.field}` : 'a list of an entity with states',
          )
        else
          tabs.values.forEach((value, j) => {
            if (!states.values[value])
              report(
                file,
                [...at, 'tabs', 'values', j],
                `"${value}" is not a state of ${entity?.entity}`,
                `one of ${listOf(Object.keys(states.values), 30)}`,
                suggestion(value, Object.keys(states.values)),
              )
          })
        if (!screen.search?.some((s) => s.field === tabs.field && (s.op === 'in' || s.op === 'eq')))
          report(
            file,
            [...at, 'tabs'],
            `the tabs search by "${tabs.field}" but the screen has no such search`,
            `a search entry { field: ${tabs.field}, op: in }`,
            `add { field: ${tabs.field}, op: in } to the screen's search`,
          )
      }
      screen.form?.sections.forEach((section, j) =>
        section.fields.forEach((f, k) => needField([...at, 'form', 'sections', j, 'fields', k], f)),
      )
      // A prefilled field is one the form shows, so the reader sees what the page filled in.
      const shown = new Set(screen.form?.sections.flatMap((section) => section.fields) ?? [])
      // A form screen, or a hand-written flow that draws its entity's form from these sections (the B/L editor).
      const drawsForm = screen.kind === 'form' || (screen.kind === 'custom' && !!entity)
      screen.form?.prefill?.forEach((f, k) => {
        needField([...at, 'form', 'prefill', k], f)
        if (!drawsForm)
          report(
            file,
            [...at, 'form', 'prefill'],
            'only a form screen is prefilled from its query',
            'kind: form, or kind: custom with an entity',
          )
        else if (!shown.has(f) && (!entity || known.includes(f)))
          report(
            file,
            [...at, 'form', 'prefill', k],
            `"${f}" is not a field of the form's sections`,
            `one of ${listOf([...shown], 30)}`,
            `add ${f} to a section's fields`,
          )
      })
      // What an import asks besides the file: a body entity whose fields are the screen's entity's, set on each row.
      for (const [kind, binding] of Object.entries(screen.endpoints ?? {})) {
        if (!binding?.input) continue
        const at_ = [...at, 'endpoints', kind, 'input']
        const input = entities[binding.input]
        if (kind !== 'import')
          report(file, at_, 'only an import binding asks for input besides its file', `endpoints.import`)
        else if (input?.stored !== false)
          report(
            file,
            at_,
            `"${binding.input}" is not a request entity (stored: false)`,
            'the entity of the dialog form: schemas/<name>.yaml with stored: false',
          )
        else
          for (const name of Object.keys(input.fields))
            if (entity && !entity.fields[name])
              report(
                file,
                at_,
                `${binding.input}'s "${name}" is not a field of ${entity.entity}: the import sets it on every row`,
                `fields of ${entity.entity}`,
              )
      }
      // The call a prefill asks: a hand-written GET taking the prefilled fields as its query, and answering the
      // form's entity (or a body extending it), so what it gives are fields the form holds.
      const prefillCall = screen.form?.prefillCall
      if (prefillCall !== undefined) {
        const endpoint = endpoints.get(prefillCall)
        const answer = endpoint && typeof endpoint.response === 'string' ? entities[endpoint.response] : undefined
        const query = endpoint?.body ? entities[endpoint.body] : undefined
        if (!screen.form?.prefill?.length)
          report(
            file,
            [...at, 'form', 'prefillCall'],
            'a prefill call is asked with the prefilled fields: the form names none',
            'prefill: [order] beside it',
          )
        if (endpoint?.method !== 'GET')
          report(
            file,
            [...at, 'form', 'prefillCall'],
            `"${prefillCall}" is not a hand-written GET endpoint`,
            `one of ${listOf(
              [...endpoints.values()].filter((e) => e.method === 'GET').map((e) => e.name),
              30,
            )}`,
            suggestion(prefillCall, [...endpoints.keys()]) ?? "declare it under an area's endpoints:",
          )
        else if (!answer || (answer.entity !== screen.entity && answer.extends?.entity !== screen.entity))
          report(
            file,
            [...at, 'form', 'prefillCall'],
            `"${prefillCall}" answers ${String(endpoint.response)}, not the form's entity ${String(screen.entity)}`,
            `response: ${String(screen.entity)}, or an entity that extends it`,
          )
        else
          for (const name of screen.form?.prefill ?? [])
            if (!query?.fields[name])
              report(
                file,
                [...at, 'form', 'prefillCall'],
                `"${prefillCall}" takes no "${name}": the prefilled fields are its query`,
                `a body entity with the field ${name}`,
              )
      }
      // A notice reads two site settings the portal has (schemas/siteSettingsView.yaml), the switch a boolean;
      // or a hand-written GET endpoint of some area, the switch a boolean field of its answer.
      const notice = screen.notice
      if (notice && 'call' in notice) {
        if (screen.kind !== 'form' && screen.kind !== 'list')
          report(file, [...at, 'notice'], 'a notice from a call is shown by list and form screens only', 'kind: list')
        const endpoint = endpoints.get(notice.call)
        const answer = endpoint && typeof endpoint.response === 'string' ? entities[endpoint.response] : undefined
        if (endpoint?.method !== 'GET')
          report(
            file,
            [...at, 'notice', 'call'],
            `"${notice.call}" is not a hand-written GET endpoint`,
            `one of ${listOf(
              [...endpoints.values()].filter((e) => e.method === 'GET').map((e) => e.name),
              30,
            )}`,
            suggestion(notice.call, [...endpoints.keys()]) ?? "declare it under an area's endpoints:",
          )
        else if (answer?.fields[notice.when]?.type !== 'boolean')
          report(
            file,
            [...at, 'notice', 'when'],
            `"${notice.when}" is not a boolean field of ${String(endpoint.response)}, the answer of ${notice.call}`,
            'a boolean field of the answer',
            `add ${notice.when} to schemas/${String(endpoint.response)}.yaml`,
          )
      } else {
        const settings = entities.siteSettingsView?.fields ?? {}
        if (notice && screen.kind !== 'form')
          report(file, [...at, 'notice'], 'a notice is shown by form screens only', 'kind: form')
        for (const [key, type] of [
          ['text', 'string'],
          ['when', 'boolean'],
        ] as const) {
          const name = notice?.[key]
          if (name !== undefined && settings[name]?.type !== type)
            report(
              file,
              [...at, 'notice', key],
              `"${name}" is not a ${type} site setting of schemas/siteSettingsView.yaml`,
              `one of ${listOf(
                Object.keys(settings).filter((f) => settings[f]?.type === type),
                30,
              )}`,
              suggestion(name, Object.keys(settings)) ?? `add ${name} to schemas/siteSettingsView.yaml`,
            )
        }
      }
    })
  }
  return errors
}
