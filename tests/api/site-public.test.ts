import { describe, expect, it } from 'vitest'
import { setupTestApp } from '../support/app.ts'

/** The public site's calls (issue 6): personalization, page copy, featured lanes and the seeded settings. */
const test = setupTestApp()

const get = (url: string, host = 'localhost', language = 'en_US') =>
  test.app.inject({ method: 'GET', url, headers: { host, language } })

describe('personalization (GET /b2b/public/api/personalization)', () => {
  it("answers each tenant's own home template and home mode", async () => {
    const demo = (await get('/api/b2b/public/api/personalization')).json()
    const acme = (await get('/api/b2b/public/api/personalization', 'acme.localhost')).json()
    expect(demo.content).toMatchObject({ pageTemplate: 0, homeMode: 1 })
    expect(acme.content).toMatchObject({ pageTemplate: 2, homeMode: 2 })
  })
})

describe('site settings for the public pages', () => {
  it('carry agreements in every language, at most 3 background images and a contact address', async () => {
    const settings = (await get('/api/b2b/public/api/site/settings')).json().content
    for (const list of [settings.serviceAgreementList, settings.privacyAgreementList]) {
      expect(list.map((a: { language: string }) => a.language).sort()).toEqual(['en', 'es', 'ja', 'zh'])
      // Rich text: at least five paragraphs each.
      for (const entry of list) expect(entry.content.match(/<p>/g)?.length ?? 0).toBeGreaterThanOrEqual(5)
    }
    expect(settings.serviceAgreementList[0].content).toContain('华远国际货运代理（上海）有限公司')
    expect(settings.backgroundImageList.length).toBeGreaterThan(0)
    expect(settings.backgroundImageList.length).toBeLessThanOrEqual(3)
    expect(settings.companyAddressEn).toMatch(/Shanghai/)
    // The direct-order contact stays for signed-in customers.
    expect(settings.directOrder).toBeUndefined()
  })
})

describe('page copy (GET /b2b/public/api/site/pages)', () => {
  it("answers every service and about page in the caller's language with the site's name filled in", async () => {
    const en = (await get('/api/b2b/public/api/site/pages')).json().content
    const zh = (await get('/api/b2b/public/api/site/pages', 'localhost', 'zh_CN')).json().content
    const ja = (await get('/api/b2b/public/api/site/pages', 'localhost', 'ja_JP')).json().content
    for (const name of ['services', 'fcl', 'lcl', 'air', 'fba', 'sea', 'insurance', 'about', 'philosophy']) {
      expect(en[name].sections.length).toBeGreaterThanOrEqual(3)
      expect(zh[name].title).not.toBe(en[name].title)
      expect(ja[name].title).not.toBe(en[name].title)
    }
    expect(en.fcl.title).toBe('Sea freight FCL')
    expect(en.about.lead).toContain('Huayuan Logistics')
    expect(zh.about.lead).toContain('华远国际物流')
    expect(JSON.stringify(en)).not.toContain('{{site}}')
  })

  it("answers acme's name on acme's host", async () => {
    const en = (await get('/api/b2b/public/api/site/pages', 'acme.localhost')).json().content
    expect(en.about.lead).toContain('Acme Logistics')
  })
})

describe('featured lanes (GET /b2b/public/api/site/specialRoutes)', () => {
  it("answers the tenant's first homeSpecialRouteCount lanes in order, with port and carrier names", async () => {
    const demo = (await get('/api/b2b/public/api/site/specialRoutes')).json().content
    expect(demo.list).toHaveLength(6)
    expect(demo.list[0]).toMatchObject({
      pol: 'CNSHA',
      polNameEn: 'Shanghai',
      pod: 'USLAX',
      podNameZh: '洛杉矶',
      containerLoadType: 'FCL',
      carrier: 'COSU',
      priceFrom: '1850.00',
      currency: 'USD',
      transitDays: 14,
    })
    expect(demo.list[0].carrierName).toMatch(/COSCO/)
  })

  it("never shows another tenant's lanes and honours each tenant's count", async () => {
    const acme = (await get('/api/b2b/public/api/site/specialRoutes', 'acme.localhost')).json().content
    expect(acme.list).toHaveLength(4)
    expect(acme.list.every((lane: { pol: string }) => lane.pol === 'CNSZX')).toBe(true)
  })
})
