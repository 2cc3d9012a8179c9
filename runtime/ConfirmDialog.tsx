import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
} from '@fluentui/react-components'
import { useTranslation } from 'react-i18next'
import type { ConfirmOptions } from './effects.tsx'

/** The confirm box of the side-effects context; loaded the first time something asks. */
export default function ConfirmDialog({
  request,
  onAnswer,
}: {
  request: ConfirmOptions
  onAnswer: (answer: boolean) => void
}) {
  const { t } = useTranslation()
  return (
    <Dialog open onOpenChange={(_, data) => !data.open && onAnswer(false)}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{request.title}</DialogTitle>
          <DialogContent>{request.body}</DialogContent>
          <DialogActions>
            <Button appearance="primary" onClick={() => onAnswer(true)}>
              {request.confirmLabel ?? t('ui.ok')}
            </Button>
            <Button appearance="secondary" onClick={() => onAnswer(false)}>
              {request.cancelLabel ?? t('ui.cancel')}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  )
}
