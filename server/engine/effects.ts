import type { DerivationContext, EffectContext, Registry } from './registry.ts'

/**
 * Runs the effects and derivations an entity names (`effects:` of an entity, `effects:` of a transition) from
 * what the domain modules registered (./registry.ts): all in the call's transaction, so a failing one undoes
 * the whole call. The names were checked against the registry when the engine was created.
 */

export async function runEffects(
  registry: Registry,
  names: readonly string[] | undefined,
  context: EffectContext,
): Promise<void> {
  for (const name of names ?? []) {
    const effect = registry.effects.get(name)
    if (!effect) throw new Error(`effect ${name} is not registered`)
    await effect(context)
  }
}

/** The values of the derivations in order, each seeing the record with what the ones before it derived. */
export async function runDerivations(
  registry: Registry,
  names: readonly string[] | undefined,
  context: DerivationContext,
): Promise<Record<string, unknown>> {
  const derived: Record<string, unknown> = {}
  for (const name of names ?? []) {
    const derivation = registry.derivations.get(name)
    if (!derivation) throw new Error(`derivation ${name} is not registered`)
    Object.assign(derived, await derivation({ ...context, data: { ...context.data, ...derived } }))
  }
  return derived
}
