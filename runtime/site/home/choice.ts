import { useQuery } from '@tanstack/react-query'
import { useLocation } from 'react-router'
import { quietClient } from '../../quietClient.ts'

/**
 * Which of the six home templates a visitor sees (SPEC §2): the `pageTemplate` of the personalization
 * call; if that call fails, the host name's entry in HOST_TEMPLATES; otherwise 0. A `?template=N` on the
 * address previews template N (0–5) — a tenant comparing designs before changing its setting; it changes
 * nothing but the layout of this one page view (docs/DECISIONS.md).
 */

export const TEMPLATE_COUNT = 6

/**
 * The fallback map of SPEC §2 "if that call fails the template is chosen from the host name": the
 * first label of the host (acme.localhost → acme, acme.example.com → acme). Kept in step with the
 * seeded tenants' pageTemplate; a tenant added later without an entry gets 0.
 */
export const HOST_TEMPLATES: Readonly<Record<string, number>> = { acme: 2 }

export function isTemplate(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < TEMPLATE_COUNT
}

export function templateFromHost(hostname: string): number {
  const label = hostname.toLowerCase().split('.')[0] ?? ''
  return HOST_TEMPLATES[label] ?? 0
}

export function templateFromPreview(search: string): number | null {
  const raw = new URLSearchParams(search).get('template')
  if (raw === null || !/^\d$/.test(raw)) return null
  const value = Number(raw)
  return isTemplate(value) ? value : null
}

export interface TemplateInput {
  preview: number | null
  /** The personalization call's pageTemplate; undefined while it is on its way. */
  personalized: unknown
  failed: boolean
  hostname: string
}

/** The template number, or undefined while the personalization call is still on its way. */
export function chooseTemplate({ preview, personalized, failed, hostname }: TemplateInput): number | undefined {
  if (preview !== null) return preview
  if (failed) return templateFromHost(hostname)
  if (personalized === undefined) return undefined
  const value = Number(personalized)
  return isTemplate(value) ? value : 0
}

export function usePageTemplate(): number | undefined {
  const { search } = useLocation()
  const { data, isError } = useQuery({
    queryKey: ['personalization'],
    queryFn: async ({ signal }) => (await quietClient.b2b.personalization({}, signal)).content,
    staleTime: 5 * 60_000,
    retry: false,
  })
  return chooseTemplate({
    preview: templateFromPreview(search),
    personalized: data ? (data.pageTemplate ?? 0) : undefined,
    failed: isError,
    hostname: window.location.hostname,
  })
}
