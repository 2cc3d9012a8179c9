import { useQuery } from '@tanstack/react-query'
import { useEffect, useMemo } from 'react'
import {
  type OverlayDocument,
  overlayEntity,
  overlayRuleSchema,
  overlayScreen,
  overlayTexts,
} from '../../model/overlay.ts'
import type { ManifestScreen } from '../../model/resolve.ts'
import { useClient } from '../client.tsx'
import i18next from '../i18n.ts'
import { entityDef, type PortalEntity, screenDef } from '../screens/manifest.ts'
import { useSession } from '../session.ts'

/**
 * Screens as the caller's tenant has customised them (DESIGN §1): the generated manifest with the
 * tenant's overlays in force merged in. The overlays are read once per page load (a saved change shows
 * on the next load, or at once in the session that saved it: the editor refreshes this query).
 */

export const OVERLAYS_KEY = ['screenOverlays'] as const

export type OverlaysInForce = Record<string, { version: number; document: OverlayDocument }>

/** The entity a tenant's form edits: hidden fields left out and the overlay's extra rules beside it. */
export type TenantEntity = PortalEntity & {
  hiddenFields?: string[]
  /** A plain JSON Schema of the overlay's tighter rules, checked eval-free (runtime/overlays/rules.ts). */
  overlayRules?: Record<string, unknown> | null
}

export interface TenantScreen {
  /** False while the overlays are on their way: draw nothing yet rather than the screen twice. */
  ready: boolean
  screen?: ManifestScreen
  entity?: TenantEntity
  /** The version of the overlay in force, if any. */
  version?: number
}

export function useOverlays() {
  const client = useClient()
  const session = useSession()
  return useQuery({
    queryKey: [...OVERLAYS_KEY, session.user?.userInfo.userId ?? 0],
    queryFn: async ({ signal }) => (await client.b2b.screenOverlays({}, signal)).content.screens,
    enabled: session.loggedIn,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  })
}

/** The overlay's labels as locale keys in every language loaded now, and in each one loaded later. */
function useOverlayTexts(
  screen: ManifestScreen | undefined,
  entity: PortalEntity | undefined,
  document?: OverlayDocument,
) {
  useEffect(() => {
    if (!screen || !entity || !document) return
    const texts = overlayTexts(screen, entity, document)
    const install = (language: string) => {
      const own = texts[language as keyof typeof texts]
      if (!own || !i18next.hasResourceBundle(language, 'translation')) return
      for (const [key, text] of Object.entries(own)) i18next.addResource(language, 'translation', key, text)
    }
    for (const language of Object.keys(texts)) install(language)
    i18next.on('languageChanged', install)
    return () => i18next.off('languageChanged', install)
  }, [screen, entity, document])
}

export function useTenantScreen(name: string): TenantScreen {
  const overlays = useOverlays()
  const base = screenDef(name)
  const baseEntity = entityDef(base?.entity)
  const inForce = overlays.data?.[name]
  useOverlayTexts(base, baseEntity, inForce?.document)
  return useMemo(() => {
    // A failed read has been toasted; the screen as shipped is better than none.
    const ready = !overlays.isPending || overlays.fetchStatus === 'idle'
    if (!base) return { ready }
    const document = inForce?.document
    const screen = overlayScreen(base, document)
    const entity = baseEntity
      ? ({
          ...overlayEntity(name, baseEntity, document),
          overlayRules: overlayRuleSchema(document),
        } as TenantEntity)
      : undefined
    return { ready, screen, entity, ...(inForce ? { version: inForce.version } : {}) }
  }, [overlays.isPending, overlays.fetchStatus, base, baseEntity, inForce, name])
}
