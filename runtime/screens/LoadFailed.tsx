import { Button, MessageBar, MessageBarActions, MessageBarBody } from '@fluentui/react-components'
import { useTranslation } from 'react-i18next'

/** A screen's data could not be read: the server's message (else `fallback`) and a Retry — lists, details, charts. */
export function LoadFailed({ message, fallback, retry }: { message?: string; fallback: string; retry: () => void }) {
  const { t } = useTranslation()
  return (
    <MessageBar intent="error">
      <MessageBarBody>{message || t(fallback)}</MessageBarBody>
      <MessageBarActions>
        <Button size="small" onClick={retry}>
          {t('ui.retry')}
        </Button>
      </MessageBarActions>
    </MessageBar>
  )
}
