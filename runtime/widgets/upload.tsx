import { Button, Caption1, Link, makeStyles, mergeClasses, ProgressBar, Text, tokens } from '@fluentui/react-components'
import type { WidgetProps } from '@rjsf/utils'
import { useQuery } from '@tanstack/react-query'
import { type DragEvent, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { StoredFile } from '../../generated/content.ts'
import { type FileLimits, fileLimits, formatBytes } from '../../rules/fileLimits.ts'
import { formatDimensions } from '../../rules/imageSize.ts'
import { RequestError } from '../api.ts'
import { useClient } from '../client.tsx'
import { fileUrl, refusal, sizeRefusal, uploadFile } from './fileTransfer.ts'

/**
 * File and image fields: a drop zone with a Fluent "choose a file" button, each upload with its progress,
 * the stored files listed with a remove button (images with a preview). The field holds the uploaded
 * files' uuids (one, or a list when `multiple`). Limits come from the field's YAML (ui:options, built by
 * runtime/forms/schemaForm.ts from rules/fileLimits.ts) and are checked here before a byte is sent; the
 * server checks the bytes again.
 */

const useStyles = makeStyles({
  zone: {
    border: `1px dashed ${tokens.colorNeutralStroke1}`,
    borderRadius: tokens.borderRadiusMedium,
    padding: '12px',
    display: 'flex',
    flexDirection: 'column',
    gap: '8px',
  },
  over: { border: `1px dashed ${tokens.colorBrandStroke1}`, backgroundColor: tokens.colorBrandBackground2 },
  pick: { display: 'flex', alignItems: 'center', gap: '6px', flexWrap: 'wrap' },
  hiddenInput: { position: 'absolute', width: '1px', height: '1px', opacity: 0, overflow: 'hidden' },
  list: { listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: '6px' },
  item: { display: 'flex', alignItems: 'center', gap: '8px' },
  preview: { width: '48px', height: '48px', objectFit: 'cover', borderRadius: tokens.borderRadiusMedium },
  name: { flexGrow: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  error: { color: tokens.colorPaletteRedForeground1 },
  hint: { color: tokens.colorNeutralForeground3 },
})

export interface UploadOptions extends FileLimits {
  entity: string
  field: string
}

interface Pending {
  key: string
  name: string
  progress: number
}

/** The uuids a value holds. */
export function uuidsOf(value: unknown): string[] {
  const list = Array.isArray(value) ? value : value ? [value] : []
  return list.filter((v): v is string => typeof v === 'string' && v !== '')
}

export function UploadWidget(props: WidgetProps) {
  const styles = useStyles()
  const { t } = useTranslation()
  const client = useClient()
  const inputId = useId()
  const inputRef = useRef<HTMLInputElement>(null)
  const options = props.options as unknown as Partial<UploadOptions>
  const limits: FileLimits = {
    ...fileLimits({ widget: props.options.image ? 'imageUpload' : undefined }),
    ...(options.accept ? { accept: options.accept } : {}),
    ...(options.maxBytes ? { maxBytes: options.maxBytes } : {}),
    ...(options.maxFiles ? { maxFiles: options.maxFiles } : {}),
    ...(options.dimensions ? { dimensions: options.dimensions } : {}),
    image: options.image === true,
  }
  const multiple = props.schema.type === 'array'
  const uuids = uuidsOf(props.value)
  const [pending, setPending] = useState<Pending[]>([])
  const [problems, setProblems] = useState<string[]>([])
  const [dragging, setDragging] = useState(false)
  // Names the uploads answered, so a new file shows its name before any look-up.
  const [uploaded, setUploaded] = useState<Record<string, StoredFile>>({})
  const unknown = uuids.filter((u) => !uploaded[u] && /^[0-9a-f-]{36}$/.test(u))
  const info = useQuery({
    queryKey: ['fileInfo', unknown.join(',')],
    queryFn: async ({ signal }) => (await client.b2b.fileInfo({ uuids: unknown.join(',') }, signal)).content.list,
    enabled: unknown.length > 0,
    staleTime: Number.POSITIVE_INFINITY,
  })
  const describe = (uuid: string) => uploaded[uuid] ?? info.data?.find((f) => f.uuid === uuid)

  const emit = (next: string[]) =>
    props.onChange(multiple ? (next.length ? next : props.options.emptyValue) : (next[0] ?? props.options.emptyValue))

  const take = async (files: File[]) => {
    const messages: string[] = []
    const room = limits.maxFiles - uuids.length - pending.length
    if (files.length > Math.max(room, 0) && (multiple || uuids.length === 0 || files.length > 1))
      messages.push(t('widget.tooManyFiles', { count: limits.maxFiles }))
    // A single-file field replaces its file; a list takes what fits.
    const chosen = multiple ? files.slice(0, Math.max(room, 0)) : files.slice(0, 1)
    const fits = await Promise.all(
      chosen.map(async (file) => {
        const refused = refusal(file, limits) ?? (await sizeRefusal(file, limits))
        if (refused) messages.push(t(refused.key, refused.params))
        return !refused
      }),
    )
    const accepted = chosen.filter((_, index) => fits[index])
    setProblems(messages)
    let current = multiple ? uuids : []
    await Promise.all(
      accepted.map(async (file, index) => {
        const key = `${Date.now()}-${index}-${file.name}`
        setPending((list) => [...list, { key, name: file.name, progress: 0 }])
        try {
          const stored = await uploadFile(file, { entity: options.entity ?? '', field: options.field ?? '' }, (p) =>
            setPending((list) => list.map((item) => (item.key === key ? { ...item, progress: p } : item))),
          )
          setUploaded((known) => ({ ...known, [stored.uuid]: stored }))
          current = [...current, stored.uuid]
          emit(current)
        } catch (error) {
          const message = error instanceof RequestError && error.message ? error.message : t('widget.uploadFailed')
          setProblems((list) => [...list, message])
        } finally {
          setPending((list) => list.filter((item) => item.key !== key))
        }
      }),
    )
  }

  const disabled = props.disabled || props.readonly
  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault()
    setDragging(false)
    if (!disabled) void take([...event.dataTransfer.files])
  }

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the drop target; the button inside is the keyboard way in
    <div
      className={mergeClasses(styles.zone, dragging && styles.over)}
      onDragOver={(event) => {
        event.preventDefault()
        if (!disabled) setDragging(true)
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      data-testid={`upload-${props.id}`}
    >
      {uuids.length > 0 && (
        <ul className={styles.list} aria-label={t('widget.fileList')}>
          {uuids.map((uuid) => {
            const file = describe(uuid)
            const name = file?.name ?? uuid
            const image = limits.image || file?.contentType.startsWith('image/')
            return (
              <li key={uuid} className={styles.item}>
                {image && <img className={styles.preview} src={fileUrl(uuid)} alt={t('widget.preview', { name })} />}
                <Link className={styles.name} href={fileUrl(uuid)} target="_blank" rel="noopener">
                  {name}
                </Link>
                {file && <Caption1 className={styles.hint}>{formatBytes(file.size)}</Caption1>}
                {!disabled && (
                  <Button
                    size="small"
                    appearance="subtle"
                    aria-label={t('widget.remove', { name })}
                    onClick={() => emit(uuids.filter((u) => u !== uuid))}
                  >
                    ×
                  </Button>
                )}
              </li>
            )
          })}
        </ul>
      )}
      {pending.map((item) => (
        <div key={item.key}>
          <Text size={200}>{t('widget.uploading', { name: item.name })}</Text>
          <ProgressBar value={item.progress} aria-label={t('widget.uploading', { name: item.name })} />
        </div>
      ))}
      {!disabled && (
        <div className={styles.pick}>
          <Text size={200}>{t('widget.dropHere')}</Text>
          <Button size="small" onClick={() => inputRef.current?.click()} aria-describedby={`${inputId}-hint`}>
            {t('widget.browse')}
          </Button>
          <input
            ref={inputRef}
            id={props.id}
            className={styles.hiddenInput}
            type="file"
            tabIndex={-1}
            aria-hidden="true"
            multiple={multiple}
            accept={limits.accept.map((ext) => `.${ext}`).join(',')}
            onChange={(event) => {
              const files = [...(event.target.files ?? [])]
              event.target.value = ''
              void take(files)
            }}
          />
        </div>
      )}
      <Caption1 id={`${inputId}-hint`} className={styles.hint}>
        {t('widget.uploadHint', {
          types: limits.accept.join(', '),
          size: formatBytes(limits.maxBytes),
          count: limits.maxFiles,
        })}
        {limits.dimensions && ` · ${t('widget.imageSizeHint', { size: formatDimensions(limits.dimensions) })}`}
      </Caption1>
      {problems.map((message) => (
        <Caption1 key={message} className={styles.error} role="alert">
          {message}
        </Caption1>
      ))}
    </div>
  )
}
