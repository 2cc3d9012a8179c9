import { beforeAll, describe, expect, it } from 'vitest'
import { setupTestApp } from '../support/app.ts'
import { administratorOf, bearerCalls } from '../support/calls.ts'
import { now } from '../support/clock.ts'
import { png } from '../support/images.ts'

/**
 * FBA parcels, part 1 (issue #26): the service an enterprise asks for and the operator enables (fbaStatus), the
 * gate that keeps an enterprise without it out of every FBA call (360005) and its menus (getCurrentUserInfo),
 * the address book with SPEC §5's rules and Amazon's fulfilment centres, the products with their SKU per
 * enterprise, ASIN check and picture, and the tenant and company walls around both.
 */

const t = setupTestApp()
const { call, answer, ok, upload } = bearerCalls(t)

const ACTIVATE = '/api/booking/fba/activateFbaService'
const SERVICE = '/api/booking/fba/service/list'
const SERVICES_SAVE = '/api/b2b/company/service/edit'
const ENTERPRISES = '/api/b2b/company/enterprise/list'
const CURRENT = '/api/b2b/user/getCurrentUserInfo'
const ADDRESSES = '/api/booking/fba/address/list'
const ADDRESS_ADD = '/api/booking/fba/address/add'
const ADDRESS_DETAIL = '/api/booking/fba/address/detail'
const ADDRESS_UPDATE = '/api/booking/fba/address/update'
const ADDRESS_DELETE = '/api/booking/fba/address/delete'
const PRODUCTS = '/api/booking/fba/product/list'
const PRODUCT_ADD = '/api/booking/fba/product/add'
const PRODUCT_DETAIL = '/api/booking/fba/product/detail'
const CENTRES = '/api/booking/public/api/basic/amazonFc/fuzzyQuery'
const IMAGE_UPLOAD = '/api/b2b/file/upload?entity=fbaProduct&field=image'
const HAITONG = '宁波海通汽车零部件有限公司'

type Row = Record<string, unknown> & { id: number; version: number }

/** A refusal's field errors as `field: locale key`. */
const fieldErrors = (body: { content?: { fieldErrors?: { field: string; key: string }[] } }) =>
  (body.content?.fieldErrors ?? []).map((e) => `${e.field}: ${e.key}`)

const ontario = {
  code: 'ONT8',
  name: 'Amazon ONT8 Moreno Valley',
  purpose: 2,
  country: 'US',
  fulfilmentCentre: 'ONT8',
}

let opadmin = ''
let entadmin = ''
let entop = ''
let nbadmin = ''

beforeAll(async () => {
  ;[opadmin, entadmin, entop] = await Promise.all([t.login('opadmin'), t.login('entadmin'), t.login('entop')])
  nbadmin = await administratorOf(t, HAITONG, 'nbadmin')
})

describe('FBA service', () => {
  it('is asked for by the enterprise, enabled by the operator, and gates the calls and menus until then', async () => {
    // Haitong has not asked: no FBA menu, and every FBA call says why in the user's language.
    const before = await ok('GET', CURRENT, nbadmin)
    expect(before.permissions).toContain('fbaApply')
    expect(before.permissions).not.toContain('fbaAddressBook')
    expect(before.permissions).not.toContain('fbaProductList')
    const refused = await answer('POST', ADDRESSES, nbadmin, {})
    expect(refused.code).toBe('360005')
    expect(refused.message).toBe(
      'The FBA service is not enabled for your enterprise: ask for it on the FBA service page',
    )
    const inChinese = await answer(
      'POST',
      PRODUCT_ADD,
      nbadmin,
      { sku: 'X1', nameCn: '刹车片', nameEn: 'Brake pad' },
      {
        language: 'zh_CN',
      },
    )
    expect(inChinese.code).toBe('360005')
    expect(inChinese.message).toBe('贵企业尚未开通 FBA 服务，请在“FBA 服务”页面申请')
    // Nor a product picture: the upload asks the entity's gate before it reads the file.
    const picture = await upload(IMAGE_UPLOAD, nbadmin, { name: 'pad.png', bytes: png(40, 40) })
    expect(picture.json().code).toBe('360005')

    // The request: what it will ship, required; once asked, asking again says it waits.
    const [service] = (await ok('POST', SERVICE, nbadmin, {})).list as Row[]
    expect(service).toMatchObject({ fbaStatus: 0, fbaApplyNote: '' })
    expect(service?.fbaAppliedAt).toBeUndefined()
    const empty = await answer('POST', ACTIVATE, nbadmin, { fbaApplyNote: '' })
    expect(empty.code).toBe('validation')
    expect(fieldErrors(empty)).toEqual(['fbaApplyNote: validation.required'])
    const asked = await ok('POST', ACTIVATE, nbadmin, { fbaApplyNote: 'Brake pads to Amazon US, 80 cartons a month' })
    expect(asked).toMatchObject({ fbaStatus: 0, fbaApplyNote: 'Brake pads to Amazon US, 80 cartons a month' })
    // The request's time is the server's clock (WAYBILL_NOW when set), not the machine's: within a minute of it.
    expect(Math.abs(Date.parse(String(asked.fbaAppliedAt)) - now().getTime())).toBeLessThan(60_000)
    expect((await answer('POST', ACTIVATE, nbadmin, { fbaApplyNote: 'again' })).code).toBe('360006')
    // Still gated while it waits.
    expect((await answer('POST', ADDRESSES, nbadmin, {})).code).toBe('360005')

    // The operator sees the request on the enterprise list and turns the service on.
    const listed = (await ok('POST', ENTERPRISES, opadmin, { searchParams: { cusCompanyName: HAITONG } })).list as Row[]
    const haitong = listed[0] as Row
    expect(haitong).toMatchObject({ fbaStatus: 0, fbaAppliedAt: asked.fbaAppliedAt })
    await ok('POST', SERVICES_SAVE, opadmin, { id: haitong.id, version: haitong.version, fbaStatus: 1 })
    // The enterprise's history: the operator's enabling, newest first, then the administrator's request.
    const { history } = await ok('GET', `/api/b2b/company/enterprise/detail?id=${haitong.id}`, opadmin)
    const [enabled, request] = history as { transition: string | null; userName: string; after: Row }[]
    expect(enabled?.after).toMatchObject({ fbaStatus: 1 })
    expect(request).toMatchObject({ transition: 'activateFbaService', after: { fbaAppliedAt: asked.fbaAppliedAt } })
    expect(request?.after.fbaApplyNote).toBe('Brake pads to Amazon US, 80 cartons a month')

    const after = await ok('GET', CURRENT, nbadmin)
    expect(after.permissions).toEqual(expect.arrayContaining(['fbaAddressBook', 'fbaProductList']))
    expect((await ok('POST', ADDRESSES, nbadmin, {})).total).toBe(0)
    expect((await ok('POST', ACTIVATE, nbadmin, { fbaApplyNote: 'again' })).fbaStatus).toBe(1)
  })

  it('is no call of the forwarder’s staff, whose FBA work (orders) is the next part of issue #26', async () => {
    expect((await answer('POST', ACTIVATE, opadmin, { fbaApplyNote: 'x' })).code).toBe('220000')
    // The platform's administrator holds every permission, yet is offered no FBA request: it asks nobody.
    const platform = await t.login('platform')
    const held = (await ok('GET', CURRENT, platform)).permissions
    expect(held).toEqual(expect.arrayContaining(['fbaAddressBook', 'fbaProductList']))
    expect(held).not.toContain('fbaApply')
    expect((await answer('POST', ADDRESSES, opadmin, {})).code).toBe('220000')
  })
})

describe('FBA address book', () => {
  it('fills a delivery address from the fulfilment centre picked', async () => {
    const centres = await ok('GET', `${CENTRES}?keyword=ONT`, nbadmin)
    expect(centres.list.map((o: { value: string }) => o.value)).toEqual(expect.arrayContaining(['ONT8', 'ONT2']))
    const created = await ok('POST', ADDRESS_ADD, nbadmin, ontario)
    expect(created).toMatchObject({
      code: 'ONT8',
      country: 'US',
      state: 'CA',
      city: 'Moreno Valley',
      addressLine1: '24208 San Michele Rd',
      zipCode: '92551',
      publicToColleagues: false,
    })
    // A centre or a country not on the shared lists is the field's error.
    const unknown = await answer('POST', ADDRESS_ADD, nbadmin, { ...ontario, code: 'X9', fulfilmentCentre: 'ZZZ9' })
    expect(fieldErrors(unknown)).toEqual(['fulfilmentCentre: validation.unknownReference'])
    const nowhere = await answer('POST', ADDRESS_ADD, nbadmin, { ...ontario, code: 'X9', country: 'XX' })
    expect(fieldErrors(nowhere)).toEqual(['country: validation.unknownReference'])
    // A pickup address keeps no centre.
    const pickup = await ok('POST', ADDRESS_ADD, nbadmin, {
      ...ontario,
      code: 'NB-PICKUP',
      purpose: 1,
      country: 'CN',
      state: '浙江省',
      city: '宁波市',
      addressLine1: '北仑区明州路 318 号',
      zipCode: '315800',
    })
    expect(pickup).toMatchObject({ fulfilmentCentre: null, city: '宁波市' })
  })

  it('asks SPEC §5’s fields, checks the e-mail and keeps one code per enterprise', async () => {
    const missing = await answer('POST', ADDRESS_ADD, nbadmin, { code: 'NB-01', purpose: 1 })
    expect(missing.code).toBe('validation')
    expect(fieldErrors(missing)).toEqual(
      expect.arrayContaining([
        'name: validation.required',
        'country: validation.required',
        'state: fba.stateRequired',
        'city: fba.cityRequired',
        'addressLine1: fba.addressRequired',
        'zipCode: fba.zipCodeRequired',
      ]),
    )
    const pickup = {
      code: 'NB-BL-01',
      name: '海通北仑仓',
      purpose: 1,
      country: 'CN',
      state: '浙江省',
      city: '宁波市',
      district: '北仑区',
      addressLine1: '明州路 318 号',
      zipCode: '315800',
      email: 'sunhao@haitong',
    }
    expect(fieldErrors(await answer('POST', ADDRESS_ADD, nbadmin, pickup))).toEqual(['email: rule.emailFormat'])
    const saved = await ok('POST', ADDRESS_ADD, nbadmin, { ...pickup, email: 'sunhao@haitong-autoparts.example' })
    expect(saved).toMatchObject({ code: 'NB-BL-01', city: '宁波市' })
    const twice = await answer('POST', ADDRESS_ADD, nbadmin, { ...pickup, email: undefined })
    expect(fieldErrors(twice)).toEqual(['code: fba.addressCodeTaken'])
    // Another enterprise may use the same code.
    expect((await ok('POST', ADDRESS_ADD, entadmin, { ...pickup, email: undefined })).code).toBe('NB-BL-01')
    const tooLong = await answer('POST', ADDRESS_ADD, nbadmin, {
      ...pickup,
      email: undefined,
      code: 'NB-2',
      addressLine2: 'x'.repeat(129),
    })
    expect(fieldErrors(tooLong)).toEqual(['addressLine2: validation.maxLength'])
  })

  it('shows a self-scoped user their own addresses and those colleagues made public, inside the enterprise', async () => {
    // Seed: entadmin made the Xiaoshan warehouse, ONT8 and LGB8 public; EWR4 is entop's own.
    const codes = async (token: string) =>
      ((await ok('POST', ADDRESSES, token, { pageSize: 50 })).list as Row[]).map((r) => r.code).sort()
    const mine = await ok('POST', ADDRESS_ADD, entadmin, {
      code: 'HZ-PRIVATE',
      name: '私人地址',
      purpose: 1,
      country: 'CN',
      state: '浙江省',
      city: '杭州市',
      addressLine1: '文三路 478 号',
      zipCode: '310012',
    })
    expect(await codes(entop)).toEqual(['AMZ-EWR4', 'AMZ-LGB8', 'AMZ-ONT8', 'HZ-XS-01'])
    expect(await codes(entadmin)).toEqual(expect.arrayContaining(['AMZ-EWR4', 'HZ-PRIVATE', 'NB-BL-01']))
    expect((await answer('GET', `${ADDRESS_DETAIL}?id=${mine.id}`, entop)).code).toBe('404')
    // A colleague's public address is entop's to read and pick, not to change or delete.
    const shared = (
      (await ok('POST', ADDRESSES, entop, { searchParams: { code: 'HZ-XS-01' } })).list as Row[]
    )[0] as Row
    expect((await ok('GET', `${ADDRESS_DETAIL}?id=${shared.id}`, entop)).name).toBe(shared.name)
    const changed = { id: shared.id, version: shared.version, name: 'entop was here' }
    expect((await answer('POST', ADDRESS_UPDATE, entop, changed)).code).toBe('404')
    expect((await answer('POST', ADDRESS_DELETE, entop, { id: shared.id })).code).toBe('404')
    expect((await ok('GET', `${ADDRESS_DETAIL}?id=${shared.id}`, entadmin)).version).toBe(shared.version)
    // Company wall: Haitong's administrator sees none of Minghui's.
    expect(await codes(nbadmin)).toEqual(['NB-BL-01', 'NB-PICKUP', 'ONT8'])
    expect((await answer('GET', `${ADDRESS_DETAIL}?id=${mine.id}`, nbadmin)).code).toBe('404')
    const update = await answer('POST', ADDRESS_UPDATE, nbadmin, { id: mine.id, version: mine.version, name: 'mine' })
    expect(update.code).toBe('404')
  })

  it('keeps another tenant out', async () => {
    const acme = await t.login('entadmin', 'acme.localhost')
    const demoRow = ((await ok('POST', ADDRESSES, entadmin, {})).list as Row[])[0] as Row
    // Acme's enterprise uses FBA too (the seed), and sees nothing of demo's.
    expect((await ok('POST', ADDRESSES, acme, {}, { host: 'acme.localhost' })).total).toBe(0)
    const detail = await answer('GET', `${ADDRESS_DETAIL}?id=${demoRow.id}`, acme, undefined, {
      host: 'acme.localhost',
    })
    expect(detail.code).toBe('404')
  })
})

describe('FBA products', () => {
  const scarf = { sku: 'HT-BRAKE-01', nameCn: '陶瓷刹车片', nameEn: 'Ceramic brake pad set', brand: 'Haitong' }

  it('checks the ASIN: B0 and eight letters or digits, or an ISBN-10 with its check digit', async () => {
    const bad = await answer('POST', PRODUCT_ADD, nbadmin, { ...scarf, asin: 'B1C7K4M2XQ' }, { language: 'en_US' })
    expect(bad.code).toBe('validation')
    expect(fieldErrors(bad)).toEqual(['asin: fba.asinFormat'])
    const badIsbn = await answer('POST', PRODUCT_ADD, nbadmin, { ...scarf, asin: '0306406153' })
    expect(fieldErrors(badIsbn)).toEqual(['asin: fba.asinFormat'])
    const good = await ok('POST', PRODUCT_ADD, nbadmin, {
      ...scarf,
      asin: 'B0CX7Z2Q4M',
      electric: false,
      dangerous: true,
    })
    expect(good).toMatchObject({ sku: 'HT-BRAKE-01', asin: 'B0CX7Z2Q4M', dangerous: true, magnetic: false })
    const book = await ok('POST', PRODUCT_ADD, nbadmin, { ...scarf, sku: 'HT-MANUAL', asin: '0306406152' })
    expect(book.asin).toBe('0306406152')
  })

  it('keeps one SKU per enterprise', async () => {
    const twice = await answer('POST', PRODUCT_ADD, nbadmin, { ...scarf, asin: 'B0CX7Z2Q4N' })
    expect(fieldErrors(twice)).toEqual(['sku: fba.skuTaken'])
    // Minghui may hold the same SKU.
    expect((await ok('POST', PRODUCT_ADD, entadmin, scarf)).sku).toBe('HT-BRAKE-01')
    const minghui = ((await ok('POST', PRODUCTS, entadmin, { pageSize: 50 })).list as Row[]).map((r) => r.sku)
    expect(minghui).toEqual(expect.arrayContaining(['MH-SILK-SCARF-NV', 'MH-BOOK-SILKROAD', 'HT-BRAKE-01']))
    const haitong = ((await ok('POST', PRODUCTS, nbadmin, { pageSize: 50 })).list as Row[]).map((r) => r.sku)
    expect(haitong.sort()).toEqual(['HT-BRAKE-01', 'HT-MANUAL'])
  })

  it('takes a JPEG or PNG picture of at most 2 MB, judged by its bytes', async () => {
    const tooLarge = await upload(IMAGE_UPLOAD, nbadmin, { name: 'pad.png', bytes: png(40, 40, [200, 40, 40], 3072) })
    expect(tooLarge.json().code).toBe('413')
    const notImage = await upload(IMAGE_UPLOAD, nbadmin, { name: 'pad.png', bytes: Buffer.from('%PDF-1.4\n%%EOF\n') })
    expect(notImage.json().code).toBe('validation')
    const fine = await upload(IMAGE_UPLOAD, nbadmin, { name: 'pad.jpg', bytes: png(40, 40) })
    expect(fine.json().code).toBe('0000')
    const image = fine.json().content
    expect(image.name).toBe('pad.png')
    const saved = await ok('POST', PRODUCT_ADD, nbadmin, { ...scarf, sku: 'HT-PHOTO', image: image.uuid })
    const detail = await ok('GET', `${PRODUCT_DETAIL}?id=${saved.id}`, nbadmin)
    expect(detail.image).toBe(image.uuid)
  })

  it('answers bad input with field errors, never a server error', async () => {
    const response = await call('POST', PRODUCT_ADD, nbadmin, {
      sku: 'x'.repeat(41),
      nameCn: '',
      weight: -1,
      price: '9.99',
    })
    expect(response.statusCode).toBe(400)
    expect(fieldErrors(response.json())).toEqual(
      expect.arrayContaining([
        'sku: validation.maxLength',
        'nameEn: validation.required',
        'weight: validation.exclusiveMinimum',
        'currency: fba.priceCurrency',
      ]),
    )
  })
})
