import {
  Button,
  Field,
  MessageBar,
  MessageBarBody,
  makeStyles,
  Select,
  Subtitle2,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  tokens,
} from '@fluentui/react-components'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ManifestScreen } from '../../../model/resolve.ts'
import { fileLimits, formatBytes } from '../../../rules/fileLimits.ts'
import { useClient } from '../../client.tsx'
import { formatDateTime } from '../../dates.ts'
import { useSession } from '../../session.ts'
import { fileUrl, refusal, uploadTo } from '../../widgets/fileTransfer.ts'
import { clientCall, entityDef, manifest, mayCall } from '../manifest.ts'
import { DETAIL_PANEL } from './styles.ts'

const useStyles = makeStyles({
  panel: DETAIL_PANEL,
  upload: { display: 'flex', gap: '12px', alignItems: 'end', flexWrap: 'wrap' },
  link: { color: tokens.colorBrandForeground1 },
})

interface AttachmentRow {
  id: number
  name: string
  size: number
  file: string
  createdAt: string
  [field: string]: unknown
}

/** The rows of an attachments list's answer that are documents (an id, a name, a size, a file, when added). */
function attachmentRows(content: unknown): AttachmentRow[] {
  if (!Array.isArray(content)) return []
  return content.filter(
    (row): row is AttachmentRow =>
      !!row &&
      typeof row === 'object' &&
      typeof row.id === 'number' &&
      typeof row.name === 'string' &&
      typeof row.size === 'number' &&
      typeof row.file === 'string' &&
      typeof row.createdAt === 'string',
  )
}

/**
 * A detail screen's documents (`attachments:` in the YAML, issue #23): the record's files as its list endpoint
 * answers them, and, for a holder of the upload endpoint's permission, a type (the enum of the upload's form)
 * and a file to send. Limits and refusals are the server's, shown in the user's language; the portal refuses a
 * file of a type or size the field cannot take before sending it.
 */
export function Attachments({ screen, recordId }: { screen: ManifestScreen; recordId: number }) {
  const styles = useStyles()
  const { t, i18n } = useTranslation()
  const client = useClient()
  const queryClient = useQueryClient()
  const { permissions } = useSession()
  const spec = screen.attachments
  const list = manifest.endpoints.find((e) => e.id === spec?.list)
  const upload = manifest.endpoints.find((e) => e.id === spec?.upload)
  const form = entityDef(spec?.form)
  const [typeName, typeField] =
    Object.entries(form?.fields ?? {}).find(([name, field]) => name !== spec?.param && field.type === 'enum') ?? []
  const [chosen, setChosen] = useState<string>(String(typeField?.values?.[0]?.value ?? ''))
  const [problem, setProblem] = useState<string | null>(null)
  const [sending, setSending] = useState(false)
  const input = useRef<HTMLInputElement>(null)
  const key = ['attachments', spec?.list, recordId]
  const rows = useQuery({
    queryKey: key,
    enabled: !!list && !!spec,
    queryFn: async ({ signal }) => {
      const call = list ? clientCall(client, list) : null
      if (!call || !spec) return []
      return attachmentRows((await call({ [spec.param]: recordId }, signal)).content)
    },
  })
  if (!spec || !list || !upload) return null
  const mayUpload = mayCall(upload, permissions)
  const limits = fileLimits({ maxSizeKb: 5120 })
  const typeLabel = (value: unknown) => {
    const label = typeField?.values?.find((v) => String(v.value) === String(value))?.label
    return label ? t(label) : String(value ?? '')
  }

  async function send(file: File) {
    if (!spec || !upload || !typeName) return
    const refused = refusal(file, limits)
    if (refused) return setProblem(t(refused.key, refused.params))
    setProblem(null)
    setSending(true)
    try {
      await uploadTo(upload.path, { [spec.param]: recordId, [typeName]: chosen }, file, () => {})
      await queryClient.invalidateQueries({ queryKey: key })
    } catch (error) {
      setProblem((error as Error).message || t('widget.uploadFailed'))
    } finally {
      setSending(false)
      if (input.current) input.current.value = ''
    }
  }

  return (
    <section className={styles.panel} aria-label={t(spec.title)} data-testid="attachments">
      <Subtitle2 as="h2">{t(spec.title)}</Subtitle2>
      {mayUpload && typeName && typeField && (
        <div className={styles.upload}>
          <Field label={t(typeField.label ?? `field.${typeName}`)}>
            <Select value={chosen} onChange={(_event, data) => setChosen(data.value)} data-testid="attachment-type">
              {(typeField.values ?? []).map((v) => (
                <option key={String(v.value)} value={String(v.value)}>
                  {t(v.label)}
                </option>
              ))}
            </Select>
          </Field>
          <input
            ref={input}
            type="file"
            hidden
            data-testid="attachment-file"
            onChange={(event) => {
              const file = event.target.files?.[0]
              if (file) void send(file)
            }}
          />
          <Button appearance="primary" disabled={sending} onClick={() => input.current?.click()}>
            {t('widget.uploadDocument')}
          </Button>
        </div>
      )}
      {problem && (
        <MessageBar intent="error" role="alert">
          <MessageBarBody>{problem}</MessageBarBody>
        </MessageBar>
      )}
      <Table size="small">
        <TableHeader>
          <TableRow>
            <TableHeaderCell>{typeField ? t(typeField.label ?? '') : ''}</TableHeaderCell>
            <TableHeaderCell>{t('widget.fileName')}</TableHeaderCell>
            <TableHeaderCell>{t('widget.fileSize')}</TableHeaderCell>
            <TableHeaderCell>{t('field.createdAt')}</TableHeaderCell>
          </TableRow>
        </TableHeader>
        <TableBody>
          {(rows.data ?? []).map((row) => (
            <TableRow key={row.id}>
              <TableCell>{typeLabel(typeName ? row[typeName] : undefined)}</TableCell>
              <TableCell>
                <a className={styles.link} href={fileUrl(row.file)}>
                  {row.name}
                </a>
              </TableCell>
              <TableCell>{formatBytes(row.size)}</TableCell>
              <TableCell>{formatDateTime(row.createdAt, i18n.language)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </section>
  )
}
