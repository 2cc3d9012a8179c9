import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { listsForScreens } from '../../generator/emit/index.ts'
import type { Manifest } from '../../model/resolve.ts'
import { openedAddress } from '../../runtime/screens/list/actions.ts'
import { letterAddress } from '../../runtime/shell/Notifications.tsx'

const manifest = JSON.parse(readFileSync(new URL('../../generated/manifest.json', import.meta.url), 'utf8')) as Manifest
const endpoint = (id: string) => {
  const found = manifest.endpoints.find((e) => e.id === id)
  if (!found) throw new Error(`no endpoint ${id}`)
  return found
}

describe('the letter calls, typed by the generated client', () => {
  it('types a hand-written list a list screen binds as a list request, the others by their body', () => {
    expect(listsForScreens(manifest, endpoint('letterList'))).toBe(true)
    expect(listsForScreens(manifest, endpoint('listSpaApply'))).toBe(true)
    // A body of its own, or no list screen: not a list request.
    expect(listsForScreens(manifest, endpoint('letterRead'))).toBe(false)
    expect(listsForScreens(manifest, endpoint('letterReadAll'))).toBe(false)
    const client = readFileSync(new URL('../../generated/client.ts', import.meta.url), 'utf8')
    expect(client).toContain('letterList: (body: ListRequest, signal?: AbortSignal)')
    expect(client).toContain('letterRead: (body: T.LetterRef, signal?: AbortSignal)')
    expect(client).toContain('transport<C.LetterPage>')
  })
})

describe('where an opened letter leads', () => {
  it('goes to its link when it is an address of this site, nowhere otherwise', () => {
    expect(letterAddress({ link: '/orderDetails?id=12' })).toBe('/orderDetails?id=12')
    expect(letterAddress({ link: null })).toBeNull()
    expect(letterAddress({ link: '' })).toBeNull()
    expect(letterAddress({ link: '//evil.example/x' })).toBeNull()
    expect(letterAddress({ link: 'https://evil.example/x' })).toBeNull()
    expect(letterAddress({ link: '/\\evil.example' })).toBeNull()
  })

  it('lets a list row action open the row’s field after its call (opens:)', () => {
    expect(openedAddress({ opens: 'link' }, { id: 1, link: '/spaDetails?id=3' })).toBe('/spaDetails?id=3')
    expect(openedAddress({ opens: 'link' }, { id: 1, link: null })).toBeNull()
    expect(openedAddress({}, { id: 1, link: '/spaDetails?id=3' })).toBeNull()
  })
})
