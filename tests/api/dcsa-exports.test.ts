import { describe, expect, it } from 'vitest'
import { shippingInstructions } from '../../server/domain/dcsa/shippingInstructions.ts'
import { setupTestApp } from '../support/app.ts'
import { BL_INSTRUCTIONS } from '../support/bl-instructions.ts'
import {
  bearerCalls,
  type SeededInstruction,
  type SeededOrder,
  seededInstructions,
  seededOrders,
} from '../support/calls.ts'
import { dcsaErrors } from '../support/dcsa.ts'

/**
 * DCSA exports (issue #23): a booking order as DCSA Booking 2.0 and a B/L instruction as DCSA eBL 3.0
 * Shipping Instructions, each validated against the published OpenAPI definitions themselves
 * (`../shared/standards/dcsa/`, tests/support/dcsa.ts).
 */

const test = setupTestApp()

const BOOKING = '/api/booking/order/dcsa/booking'
const SHIPPING_INSTRUCTIONS = '/api/booking/order/dcsa/shippingInstructions'
const BL_SHIPPING_INSTRUCTIONS = '/api/booking/blSubmission/dcsa/shippingInstructions'

const { get } = bearerCalls(test)

describe('the published DCSA schemas', () => {
  it('compile, and refuse an empty document', () => {
    expect(dcsaErrors('booking', 'CreateBooking', {})).toContainEqual(
      expect.stringContaining("required property 'requestedEquipments'"),
    )
    expect(dcsaErrors('ebl', 'CreateShippingInstructions', {})).toContainEqual(
      expect.stringContaining("required property 'consignmentItems'"),
    )
  })
})

describe('DCSA Booking 2.0 export', () => {
  it('exports every seeded sea FCL order as a booking request that validates, and refuses the others', async () => {
    const tokens = { demo: await test.login('opadmin'), acme: await test.login('opadmin', 'acme.localhost') }
    const orders = await seededOrders(test)
    let exported = 0
    let refused = 0
    for (const order of orders) {
      const host = order.tenant === 'acme' ? 'acme.localhost' : 'localhost'
      const token = order.tenant === 'acme' ? tokens.acme : tokens.demo
      const response = await get(`${BOOKING}?id=${order.id}`, token, { host })
      if (order.loadType === 'FCL') {
        expect(response.statusCode, order.orderNo).toBe(200)
        expect(response.headers['content-type']).toBe('application/json; charset=utf-8')
        expect(response.headers['content-disposition']).toBe(
          `attachment; filename="${order.orderNo}-dcsa-booking.json"`,
        )
        const document = response.json()
        expect(dcsaErrors('booking', 'CreateBooking', document), order.orderNo).toEqual([])
        expect(document.bookingChannelReference).toBe(order.orderNo)
        exported++
      } else {
        expect(response.statusCode, order.orderNo).toBe(400)
        expect(response.json().content.fieldErrors).toEqual([
          expect.objectContaining({ field: 'containers', key: 'rule.dcsaBookingContainers' }),
        ])
        refused++
      }
    }
    // The seed has both kinds, in both tenants.
    expect(exported).toBeGreaterThan(10)
    expect(refused).toBeGreaterThan(0)
    expect(exported + refused).toBe(orders.length)
  })

  it('maps the order: parties, places, equipment, carrier, schedule and the forwarder as booking agent', async () => {
    const token = await test.login('opadmin')
    const order = (await seededOrders(test)).find((o) => o.tenant === 'demo' && o.loadType === 'FCL') as SeededOrder
    const detail = (await get(`/api/booking/order/getOrderDetail?id=${order.id}`, token)).json().content
    const document = (await get(`${BOOKING}?id=${order.id}`, token)).json()
    expect(document).toMatchObject({
      receiptTypeAtOrigin: 'CY',
      cargoMovementTypeAtOrigin: 'FCL',
      isEquipmentSubstitutionAllowed: false,
      carrierCode: detail.carrier,
      carrierCodeListProvider: 'NMFTA',
      vessel: { name: detail.vessel },
      carrierExportVoyageNumber: detail.voyage,
      expectedDepartureDate: detail.etd,
      references: [{ type: 'CR', value: detail.businessRefNo }],
      documentParties: {
        bookingAgent: { partyName: 'Huayuan International Freight Forwarding (Shanghai) Co., Ltd.' },
        shipper: { partyName: detail.shipper.split('\n')[0] },
        consignee: { partyName: detail.consignee.split('\n')[0] },
      },
      shipmentLocations: [
        { location: { UNLocationCode: detail.pol }, locationTypeCode: 'POL' },
        { location: { UNLocationCode: detail.pod }, locationTypeCode: 'POD' },
      ],
    })
    expect(document.requestedEquipments).toEqual(
      detail.containers.map((line: { containerType: string; quantity: number }) =>
        expect.objectContaining({ ISOEquipmentCode: line.containerType, units: line.quantity, isShipperOwned: false }),
      ),
    )
    expect(document.requestedEquipments[0].commodities[0].cargoGrossWeight).toEqual({
      value: detail.grossWeight,
      unit: 'KGM',
    })
  })

  it("answers the customer's own orders, and nobody else's", async () => {
    const orders = await seededOrders(test)
    const demoFcl = orders.filter((o) => o.tenant === 'demo' && o.loadType === 'FCL')
    const acmeOrder = orders.find((o) => o.tenant === 'acme') as SeededOrder
    const customer = await test.login('entadmin')
    const own = await get(`${BOOKING}?id=${(demoFcl[0] as SeededOrder).id}`, customer)
    expect(own.statusCode).toBe(200)
    expect(dcsaErrors('booking', 'CreateBooking', own.json())).toEqual([])
    // Another tenant's order is missing, signed in or not; without a session the call needs one.
    expect((await get(`${BOOKING}?id=${acmeOrder.id}`, customer)).statusCode).toBe(404)
    expect((await get(`${BOOKING}?id=${acmeOrder.id}`, await test.login('opadmin'))).statusCode).toBe(404)
    expect((await get(`${BOOKING}?id=${(demoFcl[0] as SeededOrder).id}`, null)).statusCode).toBe(401)
    // A bad id is a validation error, not a crash.
    expect((await get(`${BOOKING}?id=abc`, customer)).statusCode).toBe(400)
  })

  it('says why an LCL order is refused, in Chinese and in English', async () => {
    const token = await test.login('opadmin')
    const lcl = (await seededOrders(test)).find((o) => o.tenant === 'demo' && o.loadType === 'LCL') as SeededOrder
    const en = (await get(`${BOOKING}?id=${lcl.id}`, token)).json()
    expect(en.content.fieldErrors[0].message).toContain('only a sea FCL order with its containers')
    const zh = (await get(`${BOOKING}?id=${lcl.id}`, token, { language: 'zh_CN' })).json()
    expect(zh.content.fieldErrors[0].message).toContain('海运整箱订单')
  })
})

describe('DCSA eBL 3.0 Shipping Instructions export', () => {
  it.each(BL_INSTRUCTIONS.map((fixture) => [fixture.name, fixture.instruction] as const))(
    'the %s instruction validates against CreateShippingInstructions',
    (_name, instruction) => {
      const document = shippingInstructions(instruction)
      expect(dcsaErrors('ebl', 'CreateShippingInstructions', document)).toEqual([])
      expect(document.transportDocumentReference).toBe(instruction.blNo)
      expect(document.utilizedTransportEquipments.map((e) => e.equipmentReference)).toEqual(
        instruction.containers.map((c) => c.number),
      )
      expect(document.consignmentItems[0]?.cargoItems.map((c) => c.cargoGrossWeight.value)).toEqual(
        instruction.containers.map((c) => c.grossWeight),
      )
    },
  )

  it('maps a to-order consignee, a notify party, wood, the ICS2 zone and house B/Ls', () => {
    const [rotterdam, losAngeles] = BL_INSTRUCTIONS.map((f) => shippingInstructions(f.instruction))
    expect(rotterdam).toMatchObject({
      isToOrder: true,
      isCargoDeliveredInICS2Zone: true,
      freightPaymentTermCode: 'PRE',
      numberOfOriginalsWithCharges: 3,
      documentParties: { notifyParties: [{ partyName: 'DUTCH LINEN TRADING B.V.' }] },
    })
    expect(rotterdam?.consignmentItems[0]?.cargoItems[0]?.outerPackaging?.woodDeclaration).toBe('TREATED_AND_CERTIFIED')
    expect(losAngeles).toMatchObject({
      isToOrder: false,
      isCargoDeliveredInICS2Zone: false,
      freightPaymentTermCode: 'COL',
      isHouseBillOfLadingsIssued: true,
      documentParties: { consignee: { partyName: 'PACIFIC HOME GOODS INC.', isNotifyParty: true } },
    })
  })

  it('a document the schema refuses is caught: the check can fail', () => {
    const document = shippingInstructions((BL_INSTRUCTIONS[0] as (typeof BL_INSTRUCTIONS)[number]).instruction)
    const withoutSeals = {
      ...document,
      utilizedTransportEquipments: document.utilizedTransportEquipments.map(({ seals: _seals, ...rest }) => rest),
    }
    expect(dcsaErrors('ebl', 'CreateShippingInstructions', withoutSeals)).toContainEqual(
      expect.stringContaining("required property 'seals'"),
    )
  })

  it('exports every seeded B/L instruction, by its order and by itself, as Shipping Instructions that validate', async () => {
    const instructions = await seededInstructions(test)
    // Both tenants seed instructions (server/db/seed/blInstructions.ts).
    expect(new Set(instructions.map((i) => i.tenant))).toEqual(new Set(['demo', 'acme']))
    const tokens = { demo: await test.login('opadmin'), acme: await test.login('opadmin', 'acme.localhost') }
    for (const seeded of instructions) {
      const host = seeded.tenant === 'acme' ? 'acme.localhost' : 'localhost'
      const token = seeded.tenant === 'acme' ? tokens.acme : tokens.demo
      const bl = (await get(`/api/booking/blSubmission/detail?id=${seeded.id}`, token, { host })).json().content
      const byOrder = await get(`${SHIPPING_INSTRUCTIONS}?id=${seeded.orderId}`, token, { host })
      expect(byOrder.statusCode, `${seeded.orderNo} ${byOrder.body}`).toBe(200)
      expect(byOrder.headers['content-disposition']).toBe(
        `attachment; filename="${seeded.orderNo}-dcsa-shipping-instructions.json"`,
      )
      const document = byOrder.json()
      expect(dcsaErrors('ebl', 'CreateShippingInstructions', document), seeded.orderNo).toEqual([])
      // The instruction's fields, not the order's: B/L number, containers with numbers and seals, places,
      // goods, HS code, wood.
      expect(document.transportDocumentReference).toBe(bl.blNo)
      expect(document.utilizedTransportEquipments).toEqual(
        bl.containers.map((c: { containerNo: string; sealNo: string }) =>
          expect.objectContaining({ equipmentReference: c.containerNo, seals: [{ number: c.sealNo }] }),
        ),
      )
      expect(document.consignmentItems[0]).toMatchObject({
        descriptionOfGoods: expect.arrayContaining([bl.goodsNameEn.slice(0, 35).trim()]),
        HSCodes: [bl.hsCode],
      })
      expect(document.consignmentItems[0].cargoItems).toEqual(
        bl.containers.map((c: { containerNo: string; grossWeight: number; quantity: number }) =>
          expect.objectContaining({
            equipmentReference: c.containerNo,
            cargoGrossWeight: { value: c.grossWeight, unit: 'KGM' },
            outerPackaging: expect.objectContaining({
              numberOfPackages: c.quantity,
              woodDeclaration: 'NOT_APPLICABLE',
            }),
          }),
        ),
      )
      expect(document).toMatchObject({
        displayedNameForPlaceOfReceipt: [bl.placeOfReceiptName],
        displayedNameForPortOfLoad: [bl.portOfLoadingName],
        displayedNameForPortOfDischarge: [bl.portOfDischargeName],
        displayedNameForPlaceOfDelivery: [bl.placeOfDeliveryName],
        numberOfOriginalsWithCharges: bl.originalCount,
        references: [{ type: 'CR', value: bl.bizNo }],
      })
      // The same document from the B/L editor, by the instruction's id.
      const byInstruction = await get(`${BL_SHIPPING_INSTRUCTIONS}?id=${seeded.id}`, token, { host })
      expect(byInstruction.statusCode, seeded.orderNo).toBe(200)
      expect(byInstruction.json()).toEqual(document)
    }
  })

  it("gives the instruction's documents to its customer, and to no other tenant", async () => {
    const [first] = (await seededInstructions(test)).filter((i) => i.tenant === 'demo')
    const acme = (await seededInstructions(test)).find((i) => i.tenant === 'acme') as SeededInstruction
    const customer = await test.login('entadmin')
    const own = await get(`${BL_SHIPPING_INSTRUCTIONS}?id=${(first as SeededInstruction).id}`, customer)
    expect(own.statusCode).toBe(200)
    expect(dcsaErrors('ebl', 'CreateShippingInstructions', own.json())).toEqual([])
    expect((await get(`${BL_SHIPPING_INSTRUCTIONS}?id=${acme.id}`, customer)).statusCode).toBe(404)
    expect((await get(`${BL_SHIPPING_INSTRUCTIONS}?id=${acme.id}`, await test.login('opadmin'))).statusCode).toBe(404)
    expect((await get(`${BL_SHIPPING_INSTRUCTIONS}?id=${(first as SeededInstruction).id}`, null)).statusCode).toBe(401)
    expect((await get(`${BL_SHIPPING_INSTRUCTIONS}?id=abc`, customer)).statusCode).toBe(400)
  })

  it("refuses an order without an instruction, naming each field it lacks in the reader's language", async () => {
    // An order without a B/L instruction has no container numbers or seals (they come with the instruction):
    // the export names what to fill in instead of sending a document the carrier would refuse.
    const token = await test.login('opadmin')
    const withInstruction = new Set((await seededInstructions(test)).map((i) => i.orderId))
    const order = (await seededOrders(test)).find(
      (o) => o.tenant === 'demo' && o.loadType === 'FCL' && !withInstruction.has(o.id),
    ) as SeededOrder
    const en = await get(`${SHIPPING_INSTRUCTIONS}?id=${order.id}`, token)
    expect(en.statusCode).toBe(400)
    const fields = en.json().content.fieldErrors as { field: string; key: string; message: string }[]
    expect(fields).toContainEqual(expect.objectContaining({ field: 'containers[0].number', message: 'Required' }))
    expect(fields).toContainEqual(expect.objectContaining({ field: 'containers[0].seal', key: 'validation.required' }))
    const zh = await get(`${SHIPPING_INSTRUCTIONS}?id=${order.id}`, token, { language: 'zh_CN' })
    expect(zh.json().content.fieldErrors.map((f: { message: string }) => f.message)).not.toContain('Required')
    const acmeOrder = (await seededOrders(test)).find((o) => o.tenant === 'acme') as SeededOrder
    expect((await get(`${SHIPPING_INSTRUCTIONS}?id=${acmeOrder.id}`, token)).statusCode).toBe(404)
  })
})
