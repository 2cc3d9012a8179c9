import { describe, expect, it } from 'vitest'
import {
  inquiryUiSchema,
  offeredTerms,
  routeChosen,
  type TradeTermOption,
  withTradeTerm,
} from '../../runtime/flows/inquiry/inquiryForm.ts'
import { cellRoutes, routeTarget } from '../../runtime/screens/list/actions.ts'

const option = (
  tradeParty: TradeTermOption['tradeParty'],
  tradeTerm: TradeTermOption['tradeTerm'],
  transportMode: TradeTermOption['transportMode'],
  extra = {},
): TradeTermOption => ({
  tradeParty,
  tradeTerm,
  transportMode,
  isDefault: false,
  needPickUp: false,
  deliveryToConsignee: false,
  collectWarehouse: false,
  customsDeclaration: false,
  lockedCustomsDeclaration: false,
  insurance: false,
  allRisks: false,
  unloadingWarehouse: false,
  otherServices: false,
  ...extra,
})

const OPTIONS = [
  option('seller', 'FOB', 1, {
    isDefault: true,
    needPickUp: true,
    customsDeclaration: true,
    lockedCustomsDeclaration: true,
  }),
  option('seller', 'FCA', 1),
  option('seller', 'FCA', 3, { isDefault: true }),
  option('buyer', 'CIF', 1, { customsDeclaration: true, deliveryToConsignee: true }),
]

describe('the pallet inquiry form', () => {
  it('waits for origin and destination', () => {
    expect(routeChosen({ origin: 'CNSHA' })).toBe(false)
    expect(routeChosen({ origin: 'CNSHA', destination: 'USLAX' })).toBe(true)
  })

  it('offers only terms configured for every chosen mode of the party', () => {
    expect(offeredTerms(OPTIONS, 'seller', [1]).map((o) => o.tradeTerm)).toEqual(['FOB', 'FCA'])
    expect(offeredTerms(OPTIONS, 'seller', [1, 3]).map((o) => o.tradeTerm)).toEqual(['FCA'])
    expect(offeredTerms(OPTIONS, 'seller', [])).toEqual([])
  })

  it('moves to the default term with its services, and locks the customs clearance it names', () => {
    const first = withTradeTerm({}, { tradeRole: 'seller', transportModes: [1] }, OPTIONS)
    expect(first).toMatchObject({ tradeTerm: 'FOB', needPickUp: true, customsDeclaration: ['export'] })
    // Adding rail drops FOB for the term both modes offer; the customer's untick of a locked box does not hold.
    const both = withTradeTerm(first, { ...first, transportModes: [1, 3] }, OPTIONS)
    expect(both.tradeTerm).toBe('FCA')
    const unticked = withTradeTerm(first, { ...first, customsDeclaration: [] }, OPTIONS)
    expect(unticked.customsDeclaration).toEqual(['export'])
    const buyer = withTradeTerm(first, { ...first, tradeRole: 'buyer' }, OPTIONS)
    expect(buyer).toMatchObject({ tradeTerm: 'CIF', customsDeclaration: ['import'], deliveryToConsignee: true })
  })

  it('disables all but the route until it is chosen, and fixes the mode a route presets', () => {
    const base = {
      transportModes: {},
      origin: {},
      goodsReady: { 'ui:widget': 'select' },
      id: { 'ui:widget': 'hidden' },
    }
    const fields = { transportModes: { label: 'field.transportModes' } }
    const waiting = inquiryUiSchema(base, fields, { ready: false, presetModes: [1], terms: [], lockCustoms: true })
    expect(waiting.goodsReady).toMatchObject({ 'ui:disabled': true })
    expect(waiting.origin).toEqual({})
    expect(waiting.id).toEqual({ 'ui:widget': 'hidden' })
    expect(waiting.transportModes).toMatchObject({ 'ui:readonly': true, 'ui:title': 'field.transportModes' })
    expect(waiting.customsDeclaration).toMatchObject({ 'ui:readonly': true })
    const ready = inquiryUiSchema(base, fields, { ready: true, presetModes: [], terms: ['FCA'], lockCustoms: false })
    expect(ready.goodsReady).not.toHaveProperty('ui:disabled')
    expect(ready.transportModes).not.toHaveProperty('ui:readonly')
    expect(ready.tradeTerm).toMatchObject({ 'ui:options': { terms: ['FCA'] } })
  })
})

describe('route actions carry the record id', () => {
  it('in id by default, or in the parameter the action names', () => {
    expect(routeTarget('/viewInquiry', {}, 7)).toBe('/viewInquiry?id=7')
    expect(routeTarget('/inquiryQuoteDetails', { param: 'inquiry' }, 7)).toBe('/inquiryQuoteDetails?inquiry=7')
  })

  it("opens the route of the row's value (linkBy), else the column's link", () => {
    const column = {
      link: 'orderDetails',
      linkBy: { field: 'containerLoadType', routes: { LCL: 'lclOrderDetail', AIR: 'airOrderDetail' } },
    }
    expect(cellRoutes(column, { containerLoadType: 'AIR' })).toEqual(['airOrderDetail'])
    expect(cellRoutes(column, { containerLoadType: 'FCL' })).toEqual(['orderDetails'])
    expect(cellRoutes(column, {})).toEqual(['orderDetails'])
    expect(cellRoutes({}, { containerLoadType: 'AIR' })).toEqual([])
    // A list both sides share names alternatives: the cell opens the first the user may open.
    const shared = {
      link: ['orderDetailsOperator', 'orderDetails'],
      linkBy: { field: 'containerLoadType', routes: { AIR: ['airOrderDetailOperator', 'airOrderDetail'] } },
    }
    expect(cellRoutes(shared, { containerLoadType: 'AIR' })).toEqual(['airOrderDetailOperator', 'airOrderDetail'])
    expect(cellRoutes(shared, { containerLoadType: 'FCL' })).toEqual(['orderDetailsOperator', 'orderDetails'])
    expect(routeTarget('/editTradeTerm', {}, undefined)).toBe('/editTradeTerm')
  })
})
