import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
} from '@fluentui/react-components'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { EntityForm } from '../../forms/EntityForm.tsx'
import type { PortalEntity } from '../manifest.ts'

/** The row's own identity: sent with the call, never asked for. */
const ROW_KEYS = new Set(['id', 'version'])

/**
 * A row action that calls a hand-written endpoint and asks for something first (`input:`, e.g. the account a
 * role is assigned to): the input entity's form in a dialog, its fields but the row's id and version. The
 * server's refusals show under their fields; the dialog closes once the call succeeded.
 */
export default function ActionInputDialog({
  open,
  title,
  entity,
  row,
  sent,
  asks,
  onSubmit,
  onClose,
}: {
  /** False while it closes: it stays mounted (./dialogState.ts). */
  open: boolean
  title: string
  entity: PortalEntity
  /** The fields asked for (the action's `asks:`); default every field but the row's id and version. */
  asks?: string[]
  /** The row acted on: its id and version fill the input's own (the validator requires the id). */
  row: { id?: unknown; version?: unknown }
  /** What the call sends beside the asked (a detail's record id in the action's `param`): checked, never asked. */
  sent?: Record<string, unknown>
  onSubmit: (values: Record<string, unknown>) => Promise<void>
  onClose: () => void
}) {
  const { t } = useTranslation()
  const [busy, setBusy] = useState(false)
  const formId = `action-${entity.entity}`
  const sections = useMemo(
    () => [{ title: '', columns: 1, fields: asks ?? Object.keys(entity.fields).filter((name) => !ROW_KEYS.has(name)) }],
    [entity, asks],
  )

  const identity = useMemo(() => ({ id: row.id, version: row.version, ...sent }), [row, sent])

  const submit = async (values: Record<string, unknown>) => {
    setBusy(true)
    try {
      const asked = Object.fromEntries(
        Object.entries(values).filter(([name]) => !ROW_KEYS.has(name) && !(sent && name in sent)),
      )
      await onSubmit(asked)
    } finally {
      setBusy(false)
    }
  }

  return (
    <Dialog open={open} onOpenChange={(_, data) => !data.open && onClose()}>
      <DialogSurface style={{ maxWidth: 520 }}>
        <DialogBody>
          <DialogTitle>{title}</DialogTitle>
          <DialogContent>
            <EntityForm
              id={formId}
              entity={entity}
              sections={sections}
              record={identity}
              disabled={busy}
              onSubmit={submit}
            />
          </DialogContent>
          <DialogActions>
            <Button type="submit" form={formId} appearance="primary" disabled={busy}>
              {t('ui.ok')}
            </Button>
            <Button onClick={onClose}>{t('ui.cancel')}</Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  )
}
