import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Link,
  MessageBar,
  MessageBarBody,
  makeStyles,
  ProgressBar,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  tokens,
} from '@fluentui/react-components'
import { useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ImportContent } from '../../../generated/client.ts'
import { formatBytes, IMPORT_LIMITS } from '../../../rules/fileLimits.ts'
import { RequestError } from '../../api.ts'
import { EntityForm } from '../../forms/EntityForm.tsx'
import { extensionOf, importTemplateUrl, uploadImport } from '../../widgets/fileTransfer.ts'
import type { PortalEntity } from '../manifest.ts'

const useStyles = makeStyles({
  body: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  picker: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalM, flexWrap: 'wrap' },
  problems: { maxHeight: '50vh', overflowY: 'auto' },
})

/** How many problems the dialog lists; the count above says how many there are in all. */
const SHOWN = 200

/**
 * A list's import (`endpoint: import`): pick one xls or xlsx file (checked here for type and size, again
 * on the server on its bytes), send it, and show either "N rows imported" or every problem by row and
 * column — in which case nothing was stored. Loaded only when the action is used. An import that asks for
 * more than the file (the binding's `input:`, the customer an operator imports bookings for) shows that
 * entity's form above the file; the form is checked by its validator before the upload, and sent as the query.
 */
export default function ImportDialog({
  title,
  path,
  asks,
  sheets = false,
  open = true,
  onClose,
}: {
  title: string
  /** The import endpoint's path (below /api); GET on it answers the template. */
  path: string
  /** The entity of what the import asks besides the file, if anything. */
  asks?: PortalEntity
  /** The records' items come on sheets of their own (the binding's `sheets:`): problems name their sheet too. */
  sheets?: boolean
  /** False while it closes: it stays mounted until then (./dialogState.ts). */
  open?: boolean
  onClose: (imported: boolean) => void
}) {
  const { t } = useTranslation()
  const styles = useStyles()
  const input = useRef<HTMLInputElement>(null)
  const [file, setFile] = useState<File | null>(null)
  const [progress, setProgress] = useState<number | null>(null)
  const [result, setResult] = useState<ImportContent | null>(null)
  const [error, setError] = useState<string | null>(null)
  const size = formatBytes(IMPORT_LIMITS.maxBytes)

  const choose = (chosen: File | undefined) => {
    setResult(null)
    setError(null)
    setFile(null)
    if (!chosen) return
    if (!(IMPORT_LIMITS.accept as readonly string[]).includes(extensionOf(chosen.name)))
      return setError(t('import.notSpreadsheet', { name: chosen.name, types: IMPORT_LIMITS.accept.join(', ') }))
    if (chosen.size > IMPORT_LIMITS.maxBytes) return setError(t('import.tooLarge', { name: chosen.name, size }))
    setFile(chosen)
  }

  const formId = `import-${asks?.entity ?? 'file'}`
  const sections = useMemo(() => (asks ? [{ title: '', columns: 1, fields: Object.keys(asks.fields) }] : []), [asks])
  const send = async (params: Record<string, unknown> = {}) => {
    if (!file) return
    setError(null)
    setResult(null)
    setProgress(0)
    try {
      setResult(await uploadImport(file, path, setProgress, undefined, params))
    } catch (failure) {
      setError(failure instanceof RequestError && failure.message ? failure.message : t('ui.loadFailed'))
    } finally {
      setProgress(null)
      if (input.current) input.current.value = ''
      setFile(null)
    }
  }

  const imported = (result?.imported ?? 0) > 0
  return (
    <Dialog open={open} modalType="modal" onOpenChange={(_event, data) => !data.open && onClose(imported)}>
      <DialogSurface aria-label={title} style={{ maxWidth: 860 }}>
        <DialogBody>
          <DialogTitle>{title}</DialogTitle>
          <DialogContent className={styles.body}>
            <Text>
              {t(sheets ? 'import.hintSheets' : 'import.hint', { size, rows: IMPORT_LIMITS.maxRows.toLocaleString() })}
            </Text>
            {asks && (
              <EntityForm
                id={formId}
                entity={asks}
                sections={sections}
                disabled={progress !== null}
                onSubmit={(values) => send(values)}
              />
            )}
            <div className={styles.picker}>
              <input
                ref={input}
                type="file"
                accept=".xls,.xlsx,application/vnd.ms-excel,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
                aria-label={t('import.choose')}
                onChange={(event) => choose(event.target.files?.[0])}
              />
              <Link href={importTemplateUrl(path)} download>
                {t('import.template')}
              </Link>
            </div>
            {progress !== null && <ProgressBar value={progress} aria-label={t('import.uploading')} />}
            {error && (
              <MessageBar intent="error">
                <MessageBarBody>{error}</MessageBarBody>
              </MessageBar>
            )}
            {result && result.problems.length === 0 && (
              <MessageBar intent="success">
                <MessageBarBody>{t('import.imported', { count: result.imported })}</MessageBarBody>
              </MessageBar>
            )}
            {result && result.problems.length > 0 && (
              <>
                <MessageBar intent="warning">
                  <MessageBarBody>{t('import.problems', { count: result.problems.length })}</MessageBarBody>
                </MessageBar>
                <div className={styles.problems}>
                  <Table size="small" aria-label={t('import.problems', { count: result.problems.length })}>
                    <TableHeader>
                      <TableRow>
                        <TableHeaderCell style={{ width: 70 }}>{t('import.row')}</TableHeaderCell>
                        <TableHeaderCell style={{ width: 200 }}>{t('import.column')}</TableHeaderCell>
                        <TableHeaderCell>{t('import.message')}</TableHeaderCell>
                      </TableRow>
                    </TableHeader>
                    <TableBody>
                      {result.problems.slice(0, SHOWN).map((problem) => (
                        <TableRow
                          key={`${problem.row}:${problem.column}:${problem.field}:${problem.key}:${JSON.stringify(problem.params)}`}
                        >
                          <TableCell>{problem.row}</TableCell>
                          <TableCell>
                            {[problem.cell ?? problem.column, problem.header].filter(Boolean).join(' · ') || '—'}
                          </TableCell>
                          <TableCell>{problem.message}</TableCell>
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                  {result.problems.length > SHOWN && (
                    <Text>{t('import.rowsHidden', { count: result.problems.length - SHOWN })}</Text>
                  )}
                </div>
              </>
            )}
          </DialogContent>
          <DialogActions>
            <Button
              appearance="primary"
              disabled={!file || progress !== null}
              {...(asks ? { type: 'submit' as const, form: formId } : { onClick: () => void send() })}
            >
              {progress !== null ? t('import.uploading') : t('import.upload')}
            </Button>
            <Button onClick={() => onClose(imported)}>{t('import.close')}</Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  )
}
