import type { BrowserContext } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { openContext } from '../support/browser.ts'
import { screenWalker, setupPortal } from '../support/portal.ts'

/**
 * The news screens in every language: the public pages and the operators' administration screens show no
 * raw translation key or unfilled placeholder, and the administration list offers its actions.
 */

const portal = setupPortal()
const RAW_KEY = /\b(?:news|field|enum|state|action|confirm|route|detail|ui)\.[a-zA-Z][a-zA-Z0-9_.]*\b/g

async function contextFor(language: string): Promise<BrowserContext> {
  const context = await openContext(portal.browser, { viewport: { width: 1440, height: 900 } })
  await context.addCookies([{ name: 'language', value: language, url: portal.server.url }])
  const response = await context.request.post(`${portal.server.url}/api/b2b/user/login`, {
    headers: { resource: '1' },
    data: { username: 'opadmin', password: 'Demo@2026' },
  })
  expect((await response.json()).code).toBe('0000')
  return context
}

describe('news screens in every language', () => {
  for (const language of ['zh', 'en', 'ja', 'es']) {
    it(`shows no raw key in ${language}`, async () => {
      const context = await contextFor(language)
      const api = async (url: string) =>
        (
          await (
            await context.request.post(`${portal.server.url}${url}`, {
              headers: { resource: '1' },
              data: { pageNum: 1, pageSize: 1 },
            })
          ).json()
        ).content.list[0].id as number
      const itemId = await api('/api/b2b/information/manage/list')
      const typeId = await api('/api/b2b/information/type/list')
      const paths = [
        '/News',
        '/informationCenterList?category=industry',
        `/InformationCenterDetail?id=${itemId}`,
        `/informationCenterDetail?id=${itemId}`,
        '/infomationTypeManagementList',
        `/infomationTypeDetail?id=${typeId}`,
        '/infomationManagementList',
        `/InfoManageDetail?id=${itemId}`,
      ]
      const found: string[] = []
      const walk = await screenWalker(context, portal.server.url)
      for (const path of paths) {
        const text = await walk(path)
        for (const match of text.match(RAW_KEY) ?? []) found.push(`${path}: ${match}`)
        if (text.includes('{{')) found.push(`${path}: unfilled {{placeholder}}`)
        if (text.trim().length < 40) found.push(`${path}: (almost) empty`)
      }
      expect(found).toEqual([])
      await context.close()
    })
  }
})
