import { Link, makeStyles, tokens } from '@fluentui/react-components'
import { useQuery } from '@tanstack/react-query'
import { formatBytes } from '../../../rules/fileLimits.ts'
import { useClient } from '../../client.tsx'
import { fileUrl } from '../../widgets/fileTransfer.ts'
import { uuidsOf } from '../../widgets/upload.tsx'

const useStyles = makeStyles({
  list: { margin: 0, padding: 0, listStyleType: 'none', display: 'flex', flexDirection: 'column', gap: '4px' },
  size: { color: tokens.colorNeutralForeground3, marginLeft: '8px', fontSize: tokens.fontSizeBase200 },
})

/**
 * A file field's value on a detail screen: each stored file by its name, a link that downloads it (the
 * server answers only a file the reader may see). The names come from the file service, as the upload
 * widget reads them.
 */
export function FileLinks({ value }: { value: unknown }) {
  const styles = useStyles()
  const client = useClient()
  const uuids = uuidsOf(value)
  const info = useQuery({
    queryKey: ['fileInfo', uuids.join(',')],
    queryFn: async ({ signal }) => (await client.b2b.fileInfo({ uuids: uuids.join(',') }, signal)).content.list,
    enabled: uuids.length > 0,
    staleTime: Number.POSITIVE_INFINITY,
  })
  return (
    <ul className={styles.list}>
      {uuids.map((uuid) => {
        const file = info.data?.find((f) => f.uuid === uuid)
        return (
          <li key={uuid}>
            <Link href={fileUrl(uuid)} target="_blank" rel="noopener">
              {file?.name ?? uuid}
            </Link>
            {file && <span className={styles.size}>{formatBytes(file.size)}</span>}
          </li>
        )
      })}
    </ul>
  )
}
