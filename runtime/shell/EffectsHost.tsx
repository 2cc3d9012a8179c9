import { lazy, type ReactNode, Suspense, useCallback, useMemo, useRef, useState } from 'react'
import { useNavigate } from 'react-router'
import { type ConfirmOptions, type Effects, EffectsOverride, TOAST_MS } from '../effects.tsx'
import type { ToastRequest } from './Toasts.tsx'

const Toasts = lazy(() => import('./Toasts.tsx'))
const ConfirmBox = lazy(() => import('./ConfirmBox.tsx'))

interface PendingConfirm extends ConfirmOptions {
  resolve: (answer: boolean) => void
}

/**
 * The browser's side effects (runtime/effects.tsx): Fluent toasts, one confirm dialog at a time,
 * react-router navigation. The toaster and the dialog are loaded the first time something is said or
 * asked, so a page that never does (the public home page) downloads neither. A toast asked for meanwhile
 * waits for the toaster and is shown when it is there.
 */
export function EffectsHost({ children }: { children: ReactNode }) {
  const routerNavigate = useNavigate()
  const [toasts, setToasts] = useState<ToastRequest[]>([])
  const [toasterWanted, setToasterWanted] = useState(false)
  const nextToast = useRef(1)
  const [pending, setPending] = useState<PendingConfirm | null>(null)
  // The question the box shows: the pending one, or the last one while the box closes.
  const [asked, setAsked] = useState<ConfirmOptions | null>(null)
  // The open question and the ones waiting behind it; state only mirrors the head for rendering.
  const queue = useRef<PendingConfirm[]>([])

  const answer = useCallback((value: boolean) => {
    queue.current.shift()?.resolve(value)
    const next = queue.current[0]
    // The last question stays drawn while the box closes.
    if (next) setAsked(next)
    setPending(next ?? null)
  }, [])

  const shown = useCallback((keys: number[]) => {
    setToasts((list) => {
      const left = list.filter((request) => !keys.includes(request.key))
      return left.length === list.length ? list : left
    })
  }, [])

  const effects = useMemo<Effects>(
    () => ({
      toast(message, { intent = 'info', id, timeout = TOAST_MS } = {}) {
        setToasterWanted(true)
        setToasts((list) => [...list, { key: nextToast.current++, message, intent, id, timeout }])
      },
      confirm(options) {
        return new Promise<boolean>((resolve) => {
          queue.current.push({ ...options, resolve })
          const head = queue.current[0] ?? null
          setPending(head)
          if (head) setAsked(head)
        })
      },
      navigate(to, options) {
        routerNavigate(to, options)
      },
    }),
    [routerNavigate],
  )

  return (
    <EffectsOverride effects={effects}>
      {children}
      {toasterWanted && (
        <Suspense fallback={null}>
          <Toasts requests={toasts} onShown={shown} />
        </Suspense>
      )}
      {asked && (
        <Suspense fallback={null}>
          <ConfirmBox request={asked} open={pending !== null} onAnswer={answer} />
        </Suspense>
      )}
    </EffectsOverride>
  )
}
