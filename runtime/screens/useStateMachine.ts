import type { BadgeProps } from '@fluentui/react-components'
import { useMemo } from 'react'
import type { TransitionDef } from '../../model/definitions.ts'
import { useSession } from '../session.ts'
import { entityDef, type PortalEntity } from './manifest.ts'

/**
 * An entity's state machine as the YAML declares it (schemas/*.yaml `states:`), for custom components
 * (STYLE §7: a state's label and colour, a transition's label, confirm text and input are said once, in the
 * YAML; a component asks this hook rather than keeping its own table). Labels are locale keys.
 */

export interface StateView {
  name: string
  /** Locale key; the state's own name when the YAML does not know it. */
  label: string
  color: NonNullable<BadgeProps['color']>
}

export interface TransitionView extends TransitionDef {
  name: string
}

export interface StateMachineView {
  /** The field that holds the state; undefined when the entity has no state machine. */
  field: string | undefined
  states: StateView[]
  state(name: string | null | undefined): StateView
  transition(name: string): TransitionView | undefined
  /** The transitions from a state that one of these permissions may fire (not `onUpdate` ones), in the YAML's order. */
  allowed(state: string | null | undefined, permissions: Iterable<string>): TransitionView[]
}

/** The view of an entity's state machine (pure: the hook below adds the session). */
export function stateMachineOf(entity: Pick<PortalEntity, 'states'> | undefined): StateMachineView {
  const machine = entity?.states
  const states: StateView[] = Object.entries(machine?.values ?? {}).map(([name, value]) => ({
    name,
    label: value.label,
    color: value.color ?? 'informative',
  }))
  const transitions: TransitionView[] = Object.entries(machine?.transitions ?? {}).map(([name, def]) => ({
    ...def,
    name,
  }))
  return {
    field: machine?.field,
    states,
    state: (name) =>
      states.find((s) => s.name === name) ?? { name: name ?? '', label: name ?? '', color: 'informative' },
    transition: (name) => transitions.find((t) => t.name === name),
    allowed: (state, permissions) => {
      const held = new Set(permissions)
      // Not those the engine fires itself on an update (`onUpdate: true`): no call fires them.
      return state ? transitions.filter((t) => !t.onUpdate && t.from.includes(state) && held.has(t.permission)) : []
    },
  }
}

/** The state machine of a manifest entity, with `allowedNow`: what the signed-in user may fire from a state. */
export function useStates(entity: string): StateMachineView & {
  allowedNow(state: string | null | undefined): TransitionView[]
} {
  const { permissions } = useSession()
  return useMemo(() => {
    const view = stateMachineOf(entityDef(entity))
    return { ...view, allowedNow: (state) => view.allowed(state, permissions) }
  }, [entity, permissions])
}
