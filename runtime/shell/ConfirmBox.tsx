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
import type { ConfirmOptions } from '../effects.tsx'

/**
 * The confirm box of the side effects (runtime/shell/EffectsHost.tsx), loaded the first time something
 * asks. It stays mounted and closes through `open`: Fluent's Dialog then gives the page back to assistive
 * technology (it hides everything else while open), which unmounting it mid-way would not.
 */
export default function ConfirmBox({
  request,
  open,
  onAnswer,
}: {
  request: ConfirmOptions
  open: boolean
  onAnswer: (answer: boolean) => void
}) {
  const { t } = useTranslation()
  return (
    <Dialog open={open} onOpenChange={(_, data) => !data.open && onAnswer(false)}>
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
