import { Toast, Toaster, ToastTitle, useId, useToastController } from '@fluentui/react-components'
import {
  createContext,
  lazy,
  type ReactNode,
  Suspense,
  useCallback,
  useContext,
  useMemo,
  useRef,
  useState,
} from 'react'
import { type NavigateOptions, useNavigate } from 'react-router'

/** SPEC §8: failure messages stay five seconds. */
export const TOAST_MS = 5_000

export type ToastIntent = 'success' | 'error' | 'warning' | 'info'

export interface ConfirmOptions {
  title: string
  body: string
  confirmLabel?: string
  cancelLabel?: string
}

/**
 * Everything a screen does besides drawing: tell the user something, ask them something, go somewhere.
 * Screens receive these through one context (STYLE §3), so a test can hand them a recording double.
 */
export interface Effects {
  toast(message: string, options?: { intent?: ToastIntent; id?: string; timeout?: number }): void
  confirm(options: ConfirmOptions): Promise<boolean>
  navigate(to: string, options?: NavigateOptions): void
}

const EffectsContext = createContext<Effects | null>(null)
const ConfirmDialog = lazy(() => import('./ConfirmDialog.tsx'))

export function useEffects(): Effects {
  const effects = useContext(EffectsContext)
  if (!effects) throw new Error('useEffects() outside <EffectsProvider>: wrap the app (runtime/main.tsx) in it')
  return effects
}

/** For tests and stories: any Effects object, e.g. one that records what a screen asked for. */
export function EffectsOverride({ effects, children }: { effects: Effects; children: ReactNode }) {
  return <EffectsContext.Provider value={effects}>{children}</EffectsContext.Provider>
}

interface PendingConfirm extends ConfirmOptions {
  resolve: (answer: boolean) => void
}

/** The browser implementation: Fluent toasts, one confirm dialog at a time, react-router navigation. */
export function EffectsProvider({ children }: { children: ReactNode }) {
  const toasterId = useId('toaster')
  const { dispatchToast } = useToastController(toasterId)
  const routerNavigate = useNavigate()
  const [pending, setPending] = useState<PendingConfirm | null>(null)
  // The open question and the ones waiting behind it; state only mirrors the head for rendering.
  const queue = useRef<PendingConfirm[]>([])

  const answer = useCallback((value: boolean) => {
    queue.current.shift()?.resolve(value)
    setPending(queue.current[0] ?? null)
  }, [])

  const effects = useMemo<Effects>(
    () => ({
      toast(message, { intent = 'info', id, timeout = TOAST_MS } = {}) {
        dispatchToast(
          <Toast>
            <ToastTitle>{message}</ToastTitle>
          </Toast>,
          { intent, timeout, toastId: id, position: 'top' },
        )
      },
      confirm(options) {
        return new Promise<boolean>((resolve) => {
          queue.current.push({ ...options, resolve })
          setPending(queue.current[0] ?? null)
        })
      },
      navigate(to, options) {
        routerNavigate(to, options)
      },
    }),
    [dispatchToast, routerNavigate],
  )

  return (
    <EffectsContext.Provider value={effects}>
      {children}
      <Toaster toasterId={toasterId} />
      {pending && (
        <Suspense fallback={null}>
          <ConfirmDialog request={pending} onAnswer={answer} />
        </Suspense>
      )}
    </EffectsContext.Provider>
  )
}
