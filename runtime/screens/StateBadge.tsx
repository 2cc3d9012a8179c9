import { Badge } from '@fluentui/react-components'
import { useTranslation } from 'react-i18next'
import { cellView } from './list/format.ts'
import type { PortalEntity } from './manifest.ts'

/** A record's state as its badge (the YAML's label and colour). */
export function StateBadge({ entity, state }: { entity: PortalEntity | undefined; state: string | null }) {
  const { t } = useTranslation()
  if (!entity?.states || state === null) return null
  const view = cellView(state, { field: entity.states.field, format: 'state' }, entity)
  if (view.kind !== 'badge') return <Badge appearance="outline">{state}</Badge>
  return (
    <Badge appearance="filled" color={view.color} size="large" data-state={state}>
      {t(view.key)}
    </Badge>
  )
}
