import { createContext, type ReactNode, useContext } from 'react'
import type { NavigateOptions } from 'react-router'

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

export function useEffects(): Effects {
  const effects = useContext(EffectsContext)
  if (!effects) throw new Error('useEffects() outside <EffectsHost>: wrap the app (runtime/main.tsx) in it')
  return effects
}

/**
 * Provides the side effects: the browser's (runtime/shell/EffectsHost.tsx, toasts and the confirm box
 * loaded on first use) or, in tests, any Effects object, e.g. one that records what a screen asked for.
 */
export function EffectsOverride({ effects, children }: { effects: Effects; children: ReactNode }) {
  return <EffectsContext.Provider value={effects}>{children}</EffectsContext.Provider>
}
