import { describe, expect, it } from 'vitest'
import { instructionOf, sizeTypeOf } from '../../server/domain/dcsa/instruction.ts'

/**
 * What the DCSA exports and the draft B/L are made of (issue #23): the order's B/L instruction field by field,
 * the order where the instruction has no such field, and the order alone when it has no instruction.
 */

const ORDER = {
  id: 7,
  orderNo: 'HY2601220001',
  hbl: 'HYSHA260001',
  mbl: 'COSU6300000001',
  businessRefNo: 'PO-88',
  vessel: 'ORDER VESSEL',
  voyage: '001W',
  pol: 'CNSHA',
  pod: 'USLAX',
  carrier: 'COSU',
  labels: { pol: 'Shanghai', pod: 'Los Angeles', carrier: 'COSCO' },
  tradeTerm: 'FOB',
  etd: '2027-01-10',
  shipper: 'ORDER SHIPPER',
  consignee: 'ORDER CONSIGNEE',
  containers: [{ containerType: '45G1', quantity: 2, grossWeight: 1000 }],
  goodsDescription: 'ORDER GOODS',
  hsCode: '610910',
}

const BL = {
  id: 3,
  order: 7,
  blNo: 'COSU6371843210',
  bizNo: 'HZMH-2026-0412',
  originalCount: 3,
  copyCount: 2,
  blWay: 'splitHbl',
  shipper: 'BL SHIPPER\nHANGZHOU',
  consignee: 'TO ORDER',
  notifyParty: 'SAME AS CONSIGNEE',
  placeOfReceiptCode: 'CNHGH',
  placeOfReceiptName: 'HANGZHOU',
  portOfLoadingCode: 'CNNGB',
  portOfLoadingName: 'NINGBO',
  portOfDischargeCode: 'NLRTM',
  portOfDischargeName: 'ROTTERDAM',
  placeOfDeliveryCode: 'DEHAM',
  placeOfDeliveryName: 'HAMBURG',
  carrier: 'MAEU',
  labels: { carrier: 'Maersk' },
  vessel: 'MAERSK ESSEN',
  voyage: '245W',
  transportClause: 'CY-DOOR',
  remarks: 'FREIGHT COLLECT',
  packageType: 'CS',
  containers: [
    {
      containerNo: 'CSQU3054383',
      sealNo: 'CN1234567',
      size: '20',
      type: 'GP',
      quantity: 10,
      grossWeight: 500.5,
      volume: 12.25,
      marks: 'N/M',
      description: 'WOODEN CASES',
    },
  ],
  goodsNameEn: 'MACHINE PARTS',
  goodsNameCn: '机器零件',
  hsCode: '848790',
  woodPackagingType: 'treated',
  dgClass: '9',
  unNo: '3480',
  createdBy: 12,
}

describe('instructionOf', () => {
  it("reads every SPEC §3 field from the order's B/L instruction", () => {
    const instruction = instructionOf(ORDER, BL)
    expect(instruction).toMatchObject({
      blNo: 'COSU6371843210',
      bizNo: 'HZMH-2026-0412',
      originalCount: 3,
      copyCount: 2,
      blWay: 'split',
      shipper: 'BL SHIPPER\nHANGZHOU',
      placeOfReceipt: { code: 'CNHGH', name: 'HANGZHOU' },
      portOfLoading: { code: 'CNNGB', name: 'NINGBO' },
      portOfDischarge: { code: 'NLRTM', name: 'ROTTERDAM' },
      placeOfDelivery: { code: 'DEHAM', name: 'HAMBURG' },
      carrier: 'MAEU',
      carrierName: 'Maersk',
      vessel: 'MAERSK ESSEN',
      transportClause: 'CY-DOOR',
      packageType: 'CS',
      goodsNameEn: 'MACHINE PARTS',
      goodsNameCn: '机器零件',
      hsCode: '848790',
      woodPackaging: 'treated',
      dangerousClass: '9',
      unNo: '3480',
      containers: [
        {
          number: 'CSQU3054383',
          seal: 'CN1234567',
          sizeType: '22G1',
          quantity: 10,
          grossWeight: 500.5,
          volume: 12.25,
          marks: 'N/M',
          description: 'WOODEN CASES',
        },
      ],
    })
    // What the instruction does not hold comes from the order: the booking number, ETD, freight term.
    expect(instruction).toMatchObject({ bookingNo: 'COSU6300000001', etd: '2027-01-10', freightTerm: 'collect' })
  })

  it("takes the submitter as contact when the order has none, and the order's when it has one", () => {
    const submitter = { name: 'Li Ming', phone: '13800000000', email: '' }
    expect(instructionOf(ORDER, BL, submitter).contact).toEqual(submitter)
    const withContact = { ...ORDER, contactName: 'Wang Fang', contactEmail: 'wang@example.com' }
    expect(instructionOf(withContact, BL, submitter).contact).toEqual({
      name: 'Wang Fang',
      phone: '',
      email: 'wang@example.com',
    })
  })

  it('reads the order alone without an instruction: no container numbers or seals', () => {
    const instruction = instructionOf(ORDER, null)
    expect(instruction.blNo).toBe('HYSHA260001')
    expect(instruction.containers).toEqual([expect.objectContaining({ number: '', seal: '', sizeType: '45G1' })])
    expect(instruction.placeOfReceipt).toBeNull()
  })

  it('names ISO 6346 size-types', () => {
    expect(sizeTypeOf('40', 'HQ')).toBe('45G1')
    expect(sizeTypeOf('40', 'GP')).toBe('42G1')
    expect(sizeTypeOf('45', 'HQ')).toBe('L5G1')
  })
})
