import { describe, expect, it } from 'vitest'
import { pageTitle } from '../../runtime/site/head.ts'
import { rateSearchPath } from '../../runtime/site/home/blocks.tsx'
import { chooseTemplate, templateFromHost, templateFromPreview } from '../../runtime/site/home/choice.ts'
import { pickPlace } from '../../runtime/site/home/PlaceField.tsx'
import { isOwnHost, switchTarget } from '../../runtime/site/mobile/switch.ts'
import { agreementFor } from '../../runtime/site/pages/Agreement.tsx'
import { specialRouteCount } from '../../server/domain/site/handlers.ts'
import { SITE_PAGES, sitePages } from '../../server/domain/site/pages.ts'

describe('home template choice (SPEC §2)', () => {
  const base = { preview: null, personalized: undefined, failed: false, hostname: 'localhost' }
  it('takes pageTemplate from the personalization call', () => {
    for (const n of [0, 1, 2, 3, 4, 5]) expect(chooseTemplate({ ...base, personalized: n })).toBe(n)
    expect(chooseTemplate({ ...base, personalized: 9 })).toBe(0)
  })
  it('waits for the call, then falls back to the host name, then to 0', () => {
    expect(chooseTemplate(base)).toBeUndefined()
    expect(chooseTemplate({ ...base, failed: true, hostname: 'acme.localhost' })).toBe(2)
    expect(chooseTemplate({ ...base, failed: true, hostname: 'unknown.example.com' })).toBe(0)
    expect(templateFromHost('ACME.example.com')).toBe(2)
  })
  it('honours a ?template= preview of 0–5 only', () => {
    expect(templateFromPreview('?template=4')).toBe(4)
    expect(templateFromPreview('?template=6')).toBeNull()
    expect(templateFromPreview('?template=1x')).toBeNull()
    expect(chooseTemplate({ ...base, preview: 3, personalized: 1 })).toBe(3)
  })
})

describe('quick rate search', () => {
  it("opens the mode's rate search with the lane's codes", () => {
    expect(rateSearchPath('FCL', 'CNSHA', 'USLAX')).toBe('/productService?origin=CNSHA&destination=USLAX')
    expect(rateSearchPath('LCL', 'CNSZX', null)).toBe('/lclProductService?origin=CNSZX')
    expect(rateSearchPath('AIR', null, null)).toBe('/airProductService')
  })

  const options = [
    { value: 'USLAX', code: 'USLAX', name: 'Los Angeles', label: 'USLAX — Los Angeles' },
    { value: 'USLGB', code: 'USLGB', name: 'Long Beach', label: 'USLGB — Long Beach' },
  ]
  it('takes the place a typed name or code stands for, in any case', () => {
    expect(pickPlace('los angeles', options)).toBe('USLAX')
    expect(pickPlace(' Long Beach ', options)).toBe('USLGB')
    expect(pickPlace('uslgb', options)).toBe('USLGB')
    // The only answer to what was typed is what was meant.
    expect(pickPlace('Shang', [{ value: 'CNSHA', code: 'CNSHA', name: 'Shanghai', label: 'CNSHA — Shanghai' }])).toBe(
      'CNSHA',
    )
  })
  it('takes nothing where the text names no place or several', () => {
    expect(pickPlace('Lo', options)).toBeNull()
    expect(pickPlace('Atlantis', [])).toBeNull()
    expect(pickPlace('  ', options)).toBeNull()
  })
})

describe('mobile switch', () => {
  const base = {
    layout: 'site' as const,
    pathname: '/dashboard',
    search: '',
    width: 375,
    hostname: 'localhost',
    settings: null,
    fullSiteChosen: false,
  }
  it('sends a narrow visitor on an own host to the mobile counterpart, query included', () => {
    expect(switchTarget(base)).toBe('/m')
    expect(switchTarget({ ...base, pathname: '/orderTracking', search: '?numbers=ABC' })).toBe(
      '/m/tracking?numbers=ABC',
    )
    expect(switchTarget({ ...base, width: 991, pathname: '/News' })).toBe('/m/news')
  })
  it('leaves wide windows, other hosts, pages without a counterpart and a chosen full site alone', () => {
    expect(switchTarget({ ...base, width: 992 })).toBeNull()
    expect(switchTarget({ ...base, hostname: 'partner.example.com' })).toBeNull()
    expect(switchTarget({ ...base, pathname: '/ServiceAgreement' })).toBeNull()
    expect(switchTarget({ ...base, fullSiteChosen: true })).toBeNull()
    expect(switchTarget({ ...base, layout: 'workbench', pathname: '/orderList' })).toBeNull()
  })
  it('sends a wide window on the mobile site back to the full site', () => {
    expect(switchTarget({ ...base, layout: 'mobile', pathname: '/m/tracking', width: 1280 })).toBe('/orderTracking')
    expect(switchTarget({ ...base, layout: 'mobile', pathname: '/m', width: 375 })).toBeNull()
  })
  it("counts the tenant's configured domains as its own hosts", () => {
    expect(isOwnHost('www.huayuan.example', { companyDomainName: 'huayuan.example, www.huayuan.example' })).toBe(true)
    expect(isOwnHost('acme.localhost', null)).toBe(true)
    expect(isOwnHost('other.example', { companyDomainName: 'huayuan.example' })).toBe(false)
  })
})

describe('public page content', () => {
  it('has every page in every language and lets a tenant replace one', () => {
    for (const language of ['zh', 'en', 'ja', 'es'] as const) {
      const pages = sitePages({}, language, 'X')
      for (const name of SITE_PAGES) expect(pages[name].sections.length).toBeGreaterThanOrEqual(3)
    }
    const own = { title: 'Ours', lead: 'Lead', sections: [{ heading: 'H', text: 'T {{site}}' }] }
    const pages = sitePages({ sitePages: { en: { fcl: own } } }, 'en', 'Acme')
    expect(pages.fcl.sections[0]?.text).toBe('T Acme')
    expect(pages.lcl.title).toBe('Sea freight LCL')
  })
  it('picks the agreement in the reader language, else English', () => {
    const list = [
      { language: 'zh', title: '服务协议', content: 'a' },
      { language: 'en', title: 'Service agreement', content: 'b' },
    ]
    expect(agreementFor(list, 'zh')?.title).toBe('服务协议')
    expect(agreementFor(list, 'ja')?.title).toBe('Service agreement')
    expect(agreementFor([], 'en')).toBeNull()
  })
  it('keeps the featured-lane count within 0–12, 6 by default', () => {
    expect(specialRouteCount({})).toBe(6)
    expect(specialRouteCount({ configuration: { homeSpecialRouteCount: 3 } })).toBe(3)
    expect(specialRouteCount({ configuration: { homeSpecialRouteCount: 99 } })).toBe(12)
    expect(specialRouteCount({ configuration: { homeSpecialRouteCount: 'x' } })).toBe(6)
  })
  it('titles a page "<title> — <site>"', () => {
    expect(pageTitle('Sea freight FCL', 'Huayuan Logistics')).toBe('Sea freight FCL — Huayuan Logistics')
  })
})
