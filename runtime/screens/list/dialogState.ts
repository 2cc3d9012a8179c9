import { useCallback, useState } from 'react'

/**
 * What a list's dialog shows and whether it is open. Closing keeps it mounted with `open` false: Fluent's Dialog
 * hides the rest of the page from assistive technology while open (aria-hidden on the root), and gives it back
 * only when it closes through `open` — unmounted while open as the page's last dialog, it disposes the focus
 * manager before the page is given back, and the page stays hidden (microsoft/fluentui#35139, tabster#530; the
 * confirm box does the same, runtime/shell/ConfirmBox.tsx). `key` is new at each showing, so a dialog starts
 * afresh (an empty form) rather than from the last one's state.
 */
export interface DialogState<T> {
  shown: T | null
  open: boolean
  key: number
}

export function useDialogState<T>() {
  const [state, setState] = useState<DialogState<T>>({ shown: null, open: false, key: 0 })
  const show = useCallback((shown: T) => setState((s) => ({ shown, open: true, key: s.key + 1 })), [])
  /** Closes it; `keep` says what it still shows while it closes (a secret: nothing). */
  const close = useCallback(
    (keep?: (shown: T) => T) =>
      setState((s) => ({ ...s, open: false, shown: keep && s.shown !== null ? keep(s.shown) : s.shown })),
    [],
  )
  return { ...state, show, close }
}
