import { Toast, Toaster, ToastTitle, useId, useToastController } from '@fluentui/react-components'
import { useEffect, useRef } from 'react'
import type { ToastIntent } from '../effects.tsx'

export interface ToastRequest {
  /** Unique per request. */
  key: number
  message: string
  intent: ToastIntent
  timeout: number
  /** Fluent's toastId: a toast with the id of one still shown is not shown twice. */
  id?: string
}

/**
 * Fluent's toaster, loaded with the first toast (runtime/shell/EffectsHost.tsx): shows every request
 * once, then tells the host it may forget them.
 */
export default function Toasts({
  requests,
  onShown,
}: {
  requests: readonly ToastRequest[]
  onShown: (keys: number[]) => void
}) {
  const toasterId = useId('toaster')
  const { dispatchToast } = useToastController(toasterId)
  // React may run an effect twice (StrictMode): never show a request twice.
  const shown = useRef(new Set<number>())
  useEffect(() => {
    const fresh = requests.filter((request) => !shown.current.has(request.key))
    for (const request of fresh) {
      shown.current.add(request.key)
      dispatchToast(
        // The intent on the element too: a browser test tells an error toast from a success.
        <Toast data-intent={request.intent}>
          <ToastTitle>{request.message}</ToastTitle>
        </Toast>,
        { intent: request.intent, timeout: request.timeout, toastId: request.id, position: 'top' },
      )
    }
    if (requests.length) onShown(requests.map((request) => request.key))
  }, [requests, dispatchToast, onShown])
  return <Toaster toasterId={toasterId} />
}
