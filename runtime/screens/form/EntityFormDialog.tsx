import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
} from '@fluentui/react-components'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ManifestScreen } from '../../../model/resolve.ts'
import { useClient } from '../../client.tsx'
import { useEffects } from '../../effects.tsx'
import { EntityForm } from '../../forms/EntityForm.tsx'
import type { RowData } from '../list/actions.ts'
import { clientCall, type PortalEntity } from '../manifest.ts'
import { labelledRecord } from './labels.ts'

/** A list's create or update action: the entity form in a dialog, saved through the screen's endpoint. */
export default function EntityFormDialog({
  screen,
  entity,
  mode,
  title,
  row,
  open = true,
  onClose,
}: {
  screen: ManifestScreen
  entity: PortalEntity
  mode: 'create' | 'update'
  title: string
  row?: RowData
  /** False while it closes: it stays mounted until then (runtime/screens/list/dialogState.ts). */
  open?: boolean
  onClose: (saved: boolean) => void
}) {
  const { t } = useTranslation()
  const client = useClient()
  const effects = useEffects()
  const [busy, setBusy] = useState(false)
  const formId = `dialog-${screen.name}-${mode}`

  // A list screen's own `form.sections` lay out its dialog, and only their fields are sent (the sales of an
  // enterprise, its services: calls that take those fields and no other).
  const sections = screen.form?.sections
  const save = async (entered: Record<string, unknown>) => {
    const call = clientCall(client, screen.endpoints?.[mode])
    if (!call) return
    const shown = sections ? new Set(sections.flatMap((s) => s.fields)) : null
    const values = shown ? Object.fromEntries(Object.entries(entered).filter(([name]) => shown.has(name))) : entered
    setBusy(true)
    try {
      await call(mode === 'update' && row ? { ...values, id: row.id, version: row.version } : values)
      effects.toast(t('ui.saved'), { intent: 'success' })
      onClose(true)
    } finally {
      setBusy(false)
    }
  }

  return (
    <Dialog open={open} onOpenChange={(_, data) => !data.open && onClose(false)}>
      <DialogSurface style={{ maxWidth: 760 }}>
        <DialogBody>
          <DialogTitle>{title}</DialogTitle>
          <DialogContent>
            <EntityForm
              id={formId}
              entity={entity}
              record={mode === 'update' ? labelledRecord(entity, row) : null}
              sections={sections}
              disabled={busy}
              onSubmit={save}
            />
          </DialogContent>
          <DialogActions>
            <Button type="submit" form={formId} appearance="primary" disabled={busy}>
              {t('ui.save')}
            </Button>
            <Button onClick={() => onClose(false)}>{t('ui.cancel')}</Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  )
}
