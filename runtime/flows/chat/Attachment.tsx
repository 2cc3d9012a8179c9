import { Button, Caption1, Link, ProgressBar } from '@fluentui/react-components'
import { useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ImMessageRow, StoredFile } from '../../../generated/content.ts'
import { formatBytes } from '../../../rules/fileLimits.ts'
import { RequestError } from '../../api.ts'
import { fileUrl, refusal, uploadFile } from '../../widgets/fileTransfer.ts'
import { ATTACHMENT_TARGET, attachmentLimits } from './model.ts'
import { useChatStyles } from './styles.ts'

/**
 * The chat's attachments: the composer's attach button (the file widget's upload call, to imMessage.attachment,
 * within that field's types and size from the manifest), the picked file shown until it is sent, and an
 * attachment in the message list as a download link with its name — an image as a small preview.
 */
export function AttachmentPicker({
  value,
  onChange,
  onRefusal,
  disabled,
}: {
  value: StoredFile | null
  onChange: (file: StoredFile | null) => void
  onRefusal: (message: string | null) => void
  disabled: boolean
}) {
  const styles = useChatStyles()
  const { t } = useTranslation()
  const input = useRef<HTMLInputElement>(null)
  const [progress, setProgress] = useState<{ name: string; fraction: number } | null>(null)
  const limits = attachmentLimits()

  async function take(file: File | undefined) {
    if (!file) return
    const refused = refusal(file, limits)
    onRefusal(refused ? t(refused.key, refused.params) : null)
    if (refused) return
    setProgress({ name: file.name, fraction: 0 })
    try {
      onChange(await uploadFile(file, ATTACHMENT_TARGET, (fraction) => setProgress({ name: file.name, fraction })))
    } catch (error) {
      onRefusal(error instanceof RequestError && error.message ? error.message : t('widget.uploadFailed'))
    } finally {
      setProgress(null)
    }
  }

  return (
    <div className={styles.attach}>
      <Button
        appearance="subtle"
        disabled={disabled || progress !== null}
        onClick={() => input.current?.click()}
        title={t('chat.attachHint', { types: limits.accept.join(', '), size: formatBytes(limits.maxBytes) })}
      >
        {t('chat.attach')}
      </Button>
      <input
        ref={input}
        className={styles.hiddenInput}
        type="file"
        tabIndex={-1}
        aria-hidden="true"
        data-testid="chat-attach-input"
        accept={limits.accept.map((ext) => `.${ext}`).join(',')}
        onChange={(event) => {
          const file = event.target.files?.[0]
          event.target.value = ''
          void take(file)
        }}
      />
      {progress && (
        <ProgressBar
          className={styles.attachProgress}
          value={progress.fraction}
          aria-label={t('widget.uploading', { name: progress.name })}
        />
      )}
      {value && (
        <span className={styles.picked} data-testid="chat-picked">
          <Caption1>
            {value.name} · {formatBytes(value.size)}
          </Caption1>
          <Button
            size="small"
            appearance="subtle"
            aria-label={t('chat.removeAttachment', { name: value.name })}
            onClick={() => onChange(null)}
          >
            ×
          </Button>
        </span>
      )}
    </div>
  )
}

/** A message's attachment: a link that downloads it under its name; a picture drawn small inside the link. */
export function MessageAttachment({ message }: { message: ImMessageRow }) {
  const styles = useChatStyles()
  const { t } = useTranslation()
  if (!message.attachment) return null
  const name = message.attachmentName ?? t('chat.attachment')
  const href = fileUrl(message.attachment)
  const image = message.attachmentType?.startsWith('image/') ?? false
  return (
    <Link className={styles.attachment} href={href} download={name} target="_blank" rel="noopener">
      {image && <img className={styles.preview} src={href} alt={t('chat.attachmentPreview', { name })} />}
      <span>
        {name}
        {message.attachmentSize != null && ` · ${formatBytes(message.attachmentSize)}`}
      </span>
    </Link>
  )
}
