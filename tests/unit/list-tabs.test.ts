import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import manifest from '../../generated/manifest.json'
import type { Manifest } from '../../model/resolve.ts'
import { ListTabs } from '../../runtime/screens/list/ListTabs.tsx'
import type { ListController } from '../../runtime/screens/list/useListScreen.ts'

const { screens, entities } = manifest as unknown as Manifest
const screen = screens.find((s) => s.name === 'fbaOrderList')
const entity = screen?.entity ? entities[screen.entity] : undefined

/** The tabs of the seller's FBA list, as the list controller hands them its state. */
function tabs(tabCounts: Record<string, number> | undefined): string {
  const list = { screen, entity, tab: 'all', tabCounts, chooseTab: () => undefined }
  return renderToStaticMarkup(createElement(ListTabs, { list: list as unknown as ListController }))
}

const counts = (html: string) =>
  Object.fromEntries([...html.matchAll(/data-count="(\w+)"[^>]*>(\d+)</g)].map(([, tab, n]) => [tab, Number(n)]))

describe('a tabbed list’s tabs', () => {
  it('show each tab, and no count until the list has answered: a 0 would say there are no orders', () => {
    const html = tabs(undefined)
    expect(screen?.tabs?.values.length).toBeGreaterThan(1)
    for (const value of ['all', ...(screen?.tabs?.values ?? [])]) expect(html).toContain(`data-tab="${value}"`)
    expect(html).not.toContain('data-count')
  })

  it('show the answer’s counts, a tab it has none for as 0', () => {
    const [first, second] = screen?.tabs?.values ?? []
    const html = tabs({ all: 3, [String(first)]: 3 })
    expect(counts(html)).toMatchObject({ all: 3, [String(first)]: 3, [String(second)]: 0 })
  })
})
