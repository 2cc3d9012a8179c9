import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Input,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
} from '@fluentui/react-components'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'

/**
 * What a call answered to be shown once (an action's `reveals:`, issue #29: an API key's or a webhook's secret): read-only, with
 * a copy button and the word that it will not be shown again. Closed, it is gone: the portal keeps no copy.
 */
export default function RevealDialog({
  open,
  title,
  value,
  onClose,
}: {
  /** False while it closes (./dialogState.ts); the value is gone by then. */
  open: boolean
  title: string
  value: string
  onClose: () => void
}) {
  const { t } = useTranslation()
  const [copied, setCopied] = useState(false)
  const copy = async () => {
    await navigator.clipboard?.writeText(value).catch(() => undefined)
    setCopied(true)
  }
  return (
    <Dialog open={open} modalType="alert">
      <DialogSurface style={{ maxWidth: 560 }}>
        <DialogBody>
          <DialogTitle>{title}</DialogTitle>
          <DialogContent>
            <MessageBar intent="warning" style={{ marginBottom: 12 }}>
              <MessageBarBody>
                <MessageBarTitle>{t('ui.revealOnceTitle')}</MessageBarTitle>
                {t('ui.revealOnceBody')}
              </MessageBarBody>
            </MessageBar>
            <Input
              readOnly
              value={value}
              aria-label={title}
              data-testid="revealed-value"
              style={{ width: '100%', fontFamily: 'monospace' }}
              onFocus={(event) => event.currentTarget.select()}
            />
          </DialogContent>
          <DialogActions>
            <Button appearance="primary" onClick={() => void copy()}>
              {copied ? t('ui.copiedValue') : t('ui.copyValue')}
            </Button>
            <Button onClick={onClose}>{t('ui.revealClose')}</Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  )
}
