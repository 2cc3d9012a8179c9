/** Hands the user a file (an export, say) as the browser's download. */
export function downloadFile(fileName: string, content: string | Blob, type = 'application/octet-stream'): void {
  const blob = content instanceof Blob ? content : new Blob([content], { type: `${type};charset=utf-8` })
  const link = document.createElement('a')
  link.href = URL.createObjectURL(blob)
  link.download = fileName
  link.click()
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000)
}
