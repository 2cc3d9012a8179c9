import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { setupTestApp } from '../support/app.ts'
import { bearerCalls } from '../support/calls.ts'
import { inDays } from '../support/clock.ts'
import { seaInquiry } from '../support/fixtures.ts'

/**
 * Trucking fees (issue #25, schemas/truckingFee.yaml, /trailerCosts): the operation administrator keeps them,
 * each in exact decimals of its currency and valid between two days; bad input is refused in the caller's
 * language and writes nothing; another tenant sees none of them; a sea inquiry that needs pick-up gets the
 * matching fee (origin named in its pick-up address, destination its port, valid today) in its automatic
 * quote, priced by its calculation type with its minimum, and an inquiry without pick-up gets no such line.
 */

const test = setupTestApp()
const { answer, ok } = bearerCalls(test)
const ACME = { host: 'acme.localhost' }

let operator: string
let customer: string

beforeAll(async () => {
  operator = await test.login('opadmin')
  customer = await test.login('entadmin')
})

const countFees = async () =>
  Number(
    (await sql<{ n: string }>`select count(*) as n from trucking_fee`.execute(test.database.db)).rows[0]?.n ??
      Number.NaN,
  )

/** A container pick-up fee from Kunshan to Shanghai, valid today, with a minimum above one container's price. */
function kunshanFee(overrides: Record<string, unknown> = {}) {
  return {
    chargeNo: 'TK-KSH-SHA-C',
    name: 'Kunshan → Shanghai port, per container',
    feeType: 'pickUp',
    vendor: 'Kunshan Huayu Container Transport Co., Ltd.',
    transitDays: 1,
    loadType: 'container',
    currency: 'CNY',
    origin: 'Kunshan/昆山',
    destination: 'CNSHA',
    validFrom: inDays(-1),
    validTo: inDays(30),
    chargeLevel: '600.00',
    minimumAmount: '2000.00',
    calcType: 'container',
    ...overrides,
  }
}

interface Line {
  chargeType: string
  name: string
  quantity: number
  unit: string
  unitPrice: string
  currency: string
  amount: string
  remarks?: string
}

/** The trucking lines of the automatic quote of a new inquiry (none when it got no automatic quote). */
async function truckingLinesOf(inquiry: Record<string, unknown>): Promise<Line[]> {
  const saved = await ok('POST', '/api/booking/inquiry/save', customer, inquiry)
  const quotes = await ok('POST', '/api/b2b/quote/list', operator, {
    searchParams: { inquiry: saved.id },
    pageSize: 100,
  })
  const auto = (quotes.list as { id: number; type: string }[]).filter((q) => q.type === 'auto')
  expect(auto, 'one automatic quote').toHaveLength(1)
  const detail = await ok('GET', `/api/b2b/quote/getItem?id=${auto[0]?.id}`, operator)
  return (detail.charges as Line[]).filter((line) => line.chargeType === 'trucking')
}

describe('trucking fees', () => {
  it('lists the seeded fees, then adds, reads, edits and deletes one', async () => {
    const seeded = await ok('POST', '/api/b2b/trailerCosts/list', operator, { pageSize: 100 })
    expect(seeded.total).toBeGreaterThanOrEqual(10)
    const rows = seeded.list as Record<string, unknown>[]
    expect(new Set(rows.map((row) => row.currency))).toEqual(new Set(['CNY']))
    expect(new Set(rows.map((row) => row.destination))).toEqual(new Set(['CNSHA', 'CNNGB']))
    expect(rows.find((row) => row.chargeNo === 'TK-HGH-SHA-C')).toMatchObject({
      loadType: 'container',
      calcType: 'container',
      chargeLevel: '2350.000',
    })

    const created = await ok('POST', '/api/b2b/trailerCosts/add', operator, kunshanFee())
    expect(created).toMatchObject({ chargeNo: 'TK-KSH-SHA-C', chargeLevel: '600.000', minimumAmount: '2000.000' })
    const detail = await ok('GET', `/api/b2b/trailerCosts/detail?id=${created.id}`, operator)
    expect(detail).toMatchObject({ origin: 'Kunshan/昆山', destination: 'CNSHA', validTo: inDays(30) })
    const found = await ok('POST', '/api/b2b/trailerCosts/list', operator, {
      searchParams: { origin: 'Kunshan' },
    })
    expect((found.list as { chargeNo: string }[]).map((row) => row.chargeNo)).toEqual(['TK-KSH-SHA-C'])

    const edited = await ok('POST', '/api/b2b/trailerCosts/edit', operator, {
      id: created.id,
      version: detail.version,
      transitDays: 2,
    })
    expect(edited.transitDays).toBe(2)

    const before = await countFees()
    await ok('DELETE' as 'POST', `/api/b2b/trailerCosts/delete?id=${created.id}`, operator)
    expect(await countFees()).toBe(before - 1)
  })

  it("refuses bad fees in the caller's language and writes nothing", async () => {
    const before = await countFees()
    // JPY has no minor units: 1200.5 JPY is refused, in Chinese.
    const jpy = await answer(
      'POST',
      '/api/b2b/trailerCosts/add',
      operator,
      kunshanFee({ chargeNo: 'TK-JPY-1', currency: 'JPY', chargeLevel: '1200.5' }),
      { language: 'zh_CN' },
    )
    expect(jpy.code).toBe('validation')
    expect(jpy.content.fieldErrors).toContainEqual(
      expect.objectContaining({
        field: 'chargeLevel',
        message: '金额的小数位数超过了币种允许的位数（日元、韩元为整数，其他币种最多 2 位）',
      }),
    )
    // USD 10.005 as a minimum: three decimals.
    const usd = await answer(
      'POST',
      '/api/b2b/trailerCosts/add',
      operator,
      kunshanFee({ chargeNo: 'TK-USD-1', currency: 'USD', chargeLevel: '80', minimumAmount: '10.005' }),
    )
    expect(usd.content.fieldErrors).toContainEqual(expect.objectContaining({ field: 'minimumAmount' }))
    // Validity ending before it starts, in English.
    const backwards = await answer(
      'POST',
      '/api/b2b/trailerCosts/add',
      operator,
      kunshanFee({ chargeNo: 'TK-BACK-1', validFrom: inDays(10), validTo: inDays(2) }),
    )
    expect(backwards.content.fieldErrors).toContainEqual(
      expect.objectContaining({ field: 'validTo', message: 'The end of validity cannot be before its start' }),
    )
    // Loose cargo charged per container, in Spanish; a lower-case charge number, in Japanese.
    const loose = await answer(
      'POST',
      '/api/b2b/trailerCosts/add',
      operator,
      kunshanFee({ chargeNo: 'TK-LOOSE-1', loadType: 'loose' }),
      { language: 'es' },
    )
    expect(loose.content.fieldErrors).toContainEqual(
      expect.objectContaining({ field: 'calcType', message: expect.stringMatching(/^El tipo de cálculo/) }),
    )
    const lower = await answer('POST', '/api/b2b/trailerCosts/add', operator, kunshanFee({ chargeNo: 'tk-1' }), {
      language: 'ja_JP',
    })
    expect(lower.content.fieldErrors).toContainEqual(
      expect.objectContaining({ field: 'chargeNo', message: '料金番号には大文字・数字・ハイフンのみ使用できます' }),
    )
    // A port not on the list.
    const port = await answer(
      'POST',
      '/api/b2b/trailerCosts/add',
      operator,
      kunshanFee({ chargeNo: 'TK-PORT-1', destination: 'CNZZZ' }),
    )
    expect(port.content.fieldErrors).toContainEqual(
      expect.objectContaining({ field: 'destination', message: 'Choose a value from the list' }),
    )
    // A required field left out, and a name beyond its bound.
    const { vendor: _vendor, ...noVendor } = kunshanFee({ chargeNo: 'TK-NOV-1' })
    const missing = await answer('POST', '/api/b2b/trailerCosts/add', operator, noVendor)
    expect(missing.content.fieldErrors).toContainEqual(expect.objectContaining({ field: 'vendor' }))
    const long = await answer(
      'POST',
      '/api/b2b/trailerCosts/add',
      operator,
      kunshanFee({ chargeNo: 'TK-LONG-1', name: 'x'.repeat(61) }),
    )
    expect(long.content.fieldErrors).toContainEqual(expect.objectContaining({ field: 'name' }))
    expect(await countFees()).toBe(before)
  })

  it("keeps a tenant's fees to itself and away from its customers", async () => {
    const demo = await ok('POST', '/api/b2b/trailerCosts/list', operator, { pageSize: 1 })
    const first = (demo.list as { id: number }[])[0]
    expect(first).toBeDefined()
    const acmeOperator = await test.login('opadmin', 'acme.localhost')
    const acme = await ok('POST', '/api/b2b/trailerCosts/list', acmeOperator, { pageSize: 100 }, ACME)
    expect(acme.total).toBe(0)
    const peek = await answer('GET', `/api/b2b/trailerCosts/detail?id=${first?.id}`, acmeOperator, undefined, ACME)
    expect(peek.code).not.toBe('0000')
    const stolen = await answer(
      'POST',
      '/api/b2b/trailerCosts/edit',
      acmeOperator,
      { id: first?.id, version: 1, transitDays: 9 },
      ACME,
    )
    expect(stolen.code).not.toBe('0000')
    // The customer cannot read the forwarder's cost prices.
    const refused = await answer('POST', '/api/b2b/trailerCosts/list', customer, { pageSize: 10 })
    expect(refused.code).toBe('220000')
  })
})

describe('the automatic quote of an inquiry that needs pick-up', () => {
  const hangzhou = {
    needPickUp: true,
    pickUpAddress: 'No. 88 Wenyi West Road, Xihu District, Hangzhou, Zhejiang',
  }

  it("adds the matching fee's line; an inquiry without pick-up gets none", async () => {
    // Two 40'HQ and one 20'GP from Hangzhou to Shanghai port: 3 × 2350.00 CNY (the expired 2480.00 is not used).
    const lines = await truckingLinesOf(seaInquiry(hangzhou))
    expect(lines).toEqual([
      {
        chargeType: 'trucking',
        name: 'Hangzhou → Shanghai port, per container',
        quantity: 3,
        unit: 'container',
        unitPrice: '2350.000',
        currency: 'CNY',
        amount: '7050.00',
        remarks: 'TK-HGH-SHA-C',
      },
    ])
    // The address in Chinese names the same place.
    const zh = await truckingLinesOf(
      seaInquiry({ needPickUp: true, pickUpAddress: '浙江省杭州市萧山区建设一路 66 号' }),
    )
    expect(zh.map((line) => line.remarks)).toEqual(['TK-HGH-SHA-C'])
    // No pick-up, or a town with no fee to this port (Yiwu trucks to Ningbo): no trucking line.
    expect(await truckingLinesOf(seaInquiry())).toEqual([])
    expect(await truckingLinesOf(seaInquiry({ ...hangzhou, needPickUp: false }))).toEqual([])
    expect(await truckingLinesOf(seaInquiry({ needPickUp: true, pickUpAddress: 'Futian Road 1, Yiwu' }))).toEqual([])
  })

  it('adds the delivery fee from the destination port when the consignee wants delivery, and counts both in the amount due', async () => {
    const fee = await ok('POST', '/api/b2b/trailerCosts/add', operator, {
      ...kunshanFee(),
      chargeNo: 'TK-LAX-ONT-C',
      name: 'Los Angeles port → Ontario, per container',
      feeType: 'delivery',
      vendor: 'Pacific Drayage Services LLC',
      currency: 'USD',
      origin: 'Ontario',
      destination: 'USLAX',
      chargeLevel: '850.00',
      minimumAmount: null,
    })
    const ontario = { deliveryToConsignee: true, deliveryAddress: '1900 S Milliken Ave, Ontario, CA 91761' }
    const lines = await truckingLinesOf(seaInquiry({ ...hangzhou, ...ontario }))
    expect(lines.map((line) => [line.remarks, line.quantity, line.currency, line.amount])).toEqual([
      ['TK-HGH-SHA-C', 3, 'CNY', '7050.00'],
      ['TK-LAX-ONT-C', 3, 'USD', '2550.00'],
    ])
    // The amount due is the cost of the move: the rate's cost with the trucking it needs (no markup on either).
    const due = async (inquiry: Record<string, unknown>) => {
      const saved = await ok('POST', '/api/booking/inquiry/save', customer, inquiry)
      const answer = await ok(
        'GET',
        `/api/b2b/quote/amountDue?inquiry=${saved.id}&transportMode=1&currency=USD`,
        operator,
      )
      return Number(answer.amount)
    }
    const bare = await due(seaInquiry())
    expect(bare).toBeGreaterThan(0)
    expect((await due(seaInquiry(ontario))) - bare).toBeCloseTo(2550, 2)
    await ok('DELETE' as 'POST', `/api/b2b/trailerCosts/delete?id=${fee.id}`, operator)
  })

  it('charges the minimum when the count is under it, and ignores a fee not yet valid', async () => {
    const kunshan = { needPickUp: true, pickUpAddress: 'Zuchongzhi Road 1180, Kunshan, Jiangsu' }
    expect(await truckingLinesOf(seaInquiry(kunshan))).toEqual([])
    await ok(
      'POST',
      '/api/b2b/trailerCosts/add',
      operator,
      kunshanFee({ chargeNo: 'TK-KSH-SHA-NEXT', chargeLevel: '100.00', validFrom: inDays(5) }),
    )
    const fee = await ok('POST', '/api/b2b/trailerCosts/add', operator, kunshanFee({ chargeNo: 'TK-KSH-SHA-MIN' }))
    // One 20'GP: 600.00 is under the 2000.00 minimum, so the line is one shipment at the minimum.
    const lines = await truckingLinesOf(
      seaInquiry({ ...kunshan, containers: [{ containerType: '22G1', quantity: 1 }] }),
    )
    expect(lines).toEqual([
      expect.objectContaining({
        quantity: 1,
        unit: 'shipment',
        unitPrice: '2000.00',
        amount: '2000.00',
        remarks: 'TK-KSH-SHA-MIN minimum',
      }),
    ])
    // Four containers: 2400.00 is over it, so each container at the charge level.
    const four = await truckingLinesOf(seaInquiry({ ...kunshan, containers: [{ containerType: '45G1', quantity: 4 }] }))
    expect(four).toEqual([expect.objectContaining({ quantity: 4, unit: 'container', amount: '2400.00' })])
    await ok('DELETE' as 'POST', `/api/b2b/trailerCosts/delete?id=${fee.id}`, operator)
  })
})
