import { crc32, createDeflateRaw, deflateRawSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { IMPORT_LIMITS } from '../../rules/fileLimits.ts'
import { setupTestApp } from '../support/app.ts'
import { bearerCalls } from '../support/calls.ts'
import {
  type Cell,
  type ImportEnvelope as Envelope,
  type ImportProblem as Problem,
  workbook as sheetOf,
  XLSX,
} from '../support/workbook.ts'

/**
 * Rate import (screens/rates.yaml `endpoints.import`, server/engine/import/): real xlsx and xls workbooks
 * built here with the library the server reads them with; every row checked, all or nothing, in the
 * caller's tenant only.
 */

const test = setupTestApp()

const workbook = (rows: Cell[][], bookType: 'xlsx' | 'biff8' = 'xlsx') => sheetOf(rows, 'rates', bookType)

/**
 * A real xlsx whose first sheet is `unpacked` bytes of XML compressed to about a thousandth of that, built as a
 * stream (the test never holds the unpacked sheet). `claim` makes the directory lie about the sheet's size.
 */
async function bombWorkbook(unpacked: number, claim?: number): Promise<Buffer> {
  const CFB = XLSX.CFB as unknown as {
    read: (
      data: Buffer,
      options: { type: 'buffer' },
    ) => { FullPaths: string[]; FileIndex: { content?: Uint8Array; type: number }[] }
  }
  const small = CFB.read(workbook([HEADER, fcl('IMP-BOMB-1')]), { type: 'buffer' })
  const members: { name: string; data: Buffer; size: number; crc: number }[] = []
  small.FullPaths.forEach((path, i) => {
    const entry = small.FileIndex[i]
    const name = path.replace(/^Root Entry\//, '').replace(/^\//, '')
    if (entry?.type !== 2 || !entry.content || name.endsWith('/')) return
    if (name === 'xl/worksheets/sheet1.xml') return
    const content = Buffer.from(entry.content)
    members.push({ name, data: deflateRawSync(content), size: content.length, crc: crc32(content) })
  })
  const head =
    '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
  const tail = '</sheetData></worksheet>'
  const filler = Buffer.alloc(1024 * 1024, '<row/>')
  const deflate = createDeflateRaw({ level: 9 })
  const chunks: Buffer[] = []
  deflate.on('data', (chunk: Buffer) => chunks.push(chunk))
  const finished = new Promise((done) => deflate.on('end', done))
  let crc = crc32(head)
  deflate.write(head)
  let written = head.length
  while (written + filler.length + tail.length <= unpacked) {
    deflate.write(filler)
    crc = crc32(filler, crc)
    written += filler.length
  }
  deflate.end(tail)
  crc = crc32(tail, crc)
  written += tail.length
  await finished
  members.push({ name: 'xl/worksheets/sheet1.xml', data: Buffer.concat(chunks), size: claim ?? written, crc })
  return zipOf(members)
}

/** A ZIP of deflated members: local headers, data, the central directory and its end record. */
function zipOf(members: { name: string; data: Buffer; size: number; crc: number }[]): Buffer {
  const parts: Buffer[] = []
  const directory: Buffer[] = []
  let offset = 0
  for (const member of members) {
    const name = Buffer.from(member.name)
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt16LE(8, 8)
    local.writeUInt32LE(member.crc >>> 0, 14)
    local.writeUInt32LE(member.data.length, 18)
    local.writeUInt32LE(member.size, 22)
    local.writeUInt16LE(name.length, 26)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(20, 4)
    central.writeUInt16LE(20, 6)
    central.writeUInt16LE(8, 10)
    central.writeUInt32LE(member.crc >>> 0, 16)
    central.writeUInt32LE(member.data.length, 20)
    central.writeUInt32LE(member.size, 24)
    central.writeUInt16LE(name.length, 28)
    central.writeUInt32LE(offset, 42)
    parts.push(local, name, member.data)
    directory.push(central, name)
    offset += local.length + name.length + member.data.length
  }
  const size = directory.reduce((sum, part) => sum + part.length, 0)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(members.length, 8)
  end.writeUInt16LE(members.length, 10)
  end.writeUInt32LE(size, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...parts, ...directory, end])
}

async function upload(token: string, name: string, bytes: Buffer, host = 'localhost', path = '/api/price/rate/import') {
  const response = await bearerCalls(test).upload(path, token, { name, bytes }, { host })
  return { status: response.statusCode, body: response.json() as Envelope }
}

async function ratesNamed(token: string, rateNo: string, host = 'localhost') {
  const response = await test.app.inject({
    method: 'POST',
    url: '/api/price/rate/list',
    headers: { host, authorization: `Bearer ${token}`, language: 'en_US' },
    payload: { searchParams: { rateNo }, pageSize: 100 },
  })
  const body = response.json()
  expect(body.code, response.body.slice(0, 300)).toBe('0000')
  return body.content as { list: Record<string, unknown>[]; total: number }
}

// Headers as an operator writes them: field names, English and Chinese labels, container columns by their
// common names (20GP, 40'HQ) and by ISO code (42G1), surcharges in the compact form.
const HEADER: Cell[] = [
  'rateNo',
  'Mode',
  'carrier',
  '起运港',
  'pod',
  'originAirport',
  'destinationAirport',
  'validFrom',
  'validTo',
  '币种',
  'chargeUnit',
  'transitDays',
  'departureDays',
  '20GP',
  '42G1',
  "40'HQ",
  'pricePerCbm',
  'pricePerTon',
  'minimumCharge',
  'airBreaks',
  'surcharges',
]
const col = (name: string) => String.fromCharCode(65 + HEADER.indexOf(name))

const fcl = (rateNo: string, overrides: Record<number, Cell> = {}): Cell[] => {
  const row: Cell[] = [
    rateNo,
    'FCL',
    'COSU',
    'CNSHA',
    'USLAX',
    null,
    null,
    '2026-03-01',
    '2026-03-31',
    'USD',
    'container',
    16,
    '3,6',
    1650,
    2000.5,
    '2100.125',
    null,
    null,
    null,
    null,
    'THC|Terminal handling|origin|container|850|CNY; BAF|Bunker|freight|container|120|USD',
  ]
  for (const [i, value] of Object.entries(overrides)) row[Number(i)] = value
  return row
}
const lcl = (rateNo: string): Cell[] => [
  rateNo,
  'LCL',
  'MAEU',
  'CNNGB',
  'DEHAM',
  null,
  null,
  '2026-04-01',
  '2026-06-30',
  'USD',
  'wm',
  30,
  null,
  null,
  null,
  null,
  45,
  12.5,
  60,
  null,
  null,
]
const air = (rateNo: string): Cell[] => [
  rateNo,
  'AIR',
  'COSU',
  null,
  null,
  'PVG',
  'LAX',
  '2026-04-01',
  '2026-04-30',
  'CNY',
  'kg',
  2,
  '1,3,5',
  null,
  null,
  null,
  null,
  null,
  null,
  '45|32.5; 100|28; 300|24.8',
  null,
]

describe('rate import', () => {
  it('imports every row of a good xlsx in one go, with the container prices, surcharges and air breaks', async () => {
    const token = await test.login('opadmin')
    const file = workbook([HEADER, fcl('IMP-GOOD-1'), lcl('IMP-GOOD-2'), [], air('IMP-GOOD-3')])
    const { status, body } = await upload(token, 'rates.xlsx', file)
    expect(status, JSON.stringify(body)).toBe(200)
    expect(body.code).toBe('0000')
    expect(body.content).toEqual({ imported: 3, problems: [] })
    const stored = await ratesNamed(token, 'IMP-GOOD-')
    expect(stored.total).toBe(3)
    const first = stored.list.find((r) => r.rateNo === 'IMP-GOOD-1') as Record<string, unknown>
    expect(first.containerPrices).toEqual([
      { containerType: '22G1', price: '1650' },
      { containerType: '42G1', price: '2000.5' },
      { containerType: '45G1', price: '2100.125' },
    ])
    expect(first.surcharges).toEqual([
      { code: 'THC', name: 'Terminal handling', category: 'origin', unit: 'container', amount: '850', currency: 'CNY' },
      { code: 'BAF', name: 'Bunker', category: 'freight', unit: 'container', amount: '120', currency: 'USD' },
    ])
    const third = stored.list.find((r) => r.rateNo === 'IMP-GOOD-3') as Record<string, unknown>
    expect(third.airBreaks).toEqual([
      { minKg: 45, price: '32.5' },
      { minKg: 100, price: '28' },
      { minKg: 300, price: '24.8' },
    ])
    // Audited as created by the import.
    const detail = await test.app.inject({
      method: 'GET',
      url: `/api/price/rate/detail?id=${first.id}`,
      headers: { host: 'localhost', authorization: `Bearer ${token}` },
    })
    expect(detail.json().content.history[0]).toMatchObject({ action: 'create', remark: 'import' })
  })

  it('imports an xls (BIFF8) workbook too', async () => {
    const token = await test.login('opadmin')
    const { body } = await upload(token, 'rates.xls', workbook([HEADER, fcl('IMP-XLS-1')], 'biff8'))
    expect(body.content).toEqual({ imported: 1, problems: [] })
    expect((await ratesNamed(token, 'IMP-XLS-')).total).toBe(1)
  })

  it('imports nothing when one row is bad and names the row, column and problem of every bad cell', async () => {
    const token = await test.login('opadmin')
    const file = workbook([
      HEADER,
      fcl('IMP-BAD-1'),
      fcl('IMP-BAD-2', { 3: 'XXNOP' }), // no such port
      fcl('IMP-BAD-3', { 15: 1.2345 }), // four decimals in 40'HQ
      fcl('IMP-BAD-4', { 2: null }), // carrier missing
      fcl('IMP-BAD-1'), // the same rate number twice
    ])
    const { body } = await upload(token, 'rates.xlsx', file)
    expect(body.code).toBe('0000')
    expect(body.content.imported).toBe(0)
    const problems = body.content.problems.map((p) => ({ row: p.row, column: p.column, key: p.key }))
    expect(problems).toEqual(
      expect.arrayContaining([
        { row: 3, column: col('起运港'), key: 'import.unknownReference' },
        { row: 4, column: col("40'HQ"), key: 'validation.pattern' },
        { row: 5, column: col('carrier'), key: 'validation.required' },
        { row: 6, column: col('rateNo'), key: 'import.duplicateInFile' },
      ]),
    )
    expect(problems).toHaveLength(4)
    const port = body.content.problems.find((p) => p.row === 3) as Problem
    expect(port.header).toBe('起运港')
    expect(port.message).toBe('"XXNOP" is not a known code')
    expect((await ratesNamed(token, 'IMP-BAD-')).total).toBe(0)
  })

  it('reports a rate number already stored, and unknown or repeated headers', async () => {
    const token = await test.login('opadmin')
    const { body } = await upload(token, 'again.xlsx', workbook([[...HEADER, 'colour', 'rateNo'], fcl('IMP-GOOD-1')]))
    expect(body.content.imported).toBe(0)
    expect(body.content.problems.map((p) => [p.row, p.column, p.key])).toEqual([
      [1, 'V', 'import.unknownColumn'],
      [1, 'W', 'import.duplicateColumn'],
      [2, 'A', 'import.alreadyExists'],
    ])
  })

  it('refuses what is not an xls or xlsx by its bytes, whatever its name', async () => {
    const token = await test.login('opadmin')
    const csv = Buffer.from('rateNo,mode\nIMP-CSV-1,FCL\n')
    for (const name of ['rates.xlsx', 'rates.xls', 'rates.csv']) {
      const { status, body } = await upload(token, name, csv)
      expect(status).toBe(400)
      expect(body.content.fieldErrors?.[0]?.key).toBe('import.notSpreadsheet')
    }
    // A ZIP that is not a workbook (no xl/workbook.xml), and an OLE2 header over garbage.
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 7)])
    expect((await upload(token, 'x.xlsx', zip)).body.content.fieldErrors?.[0]?.key).toBe('import.notSpreadsheet')
    const ole = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(600, 0)])
    expect((await upload(token, 'x.xls', ole)).body.content.fieldErrors?.[0]?.key).toBe('import.unreadable')
  })

  it('refuses a file over 10 MB and a sheet over 5,000 rows', async () => {
    const token = await test.login('opadmin')
    const big = Buffer.concat([workbook([HEADER]), Buffer.alloc(IMPORT_LIMITS.maxBytes, 0)])
    const large = await upload(token, 'big.xlsx', big)
    expect(large.status).toBe(413)
    expect(large.body.content.fieldErrors?.[0]?.key).toBe('import.tooLarge')
    const rows: Cell[][] = [['rateNo', 'mode']]
    for (let i = 0; i <= IMPORT_LIMITS.maxRows; i++) rows.push([`IMP-MANY-${i}`, 'FCL'])
    const many = await upload(token, 'many.xlsx', workbook(rows))
    expect(many.status).toBe(400)
    expect(many.body.content.fieldErrors?.[0]?.key).toBe('import.tooManyRows')
    expect((await ratesNamed(token, 'IMP-MANY-')).total).toBe(0)
  })

  it('refuses a zip bomb before unpacking it: 1 MB that unpacks to 1 GB, and a member that lies about its size', async () => {
    const token = await test.login('opadmin')
    const before = process.memoryUsage().rss
    const bomb = await bombWorkbook(1024 * 1024 * 1024)
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024)
    const refused = await upload(token, 'bomb.xlsx', bomb)
    expect(refused.status).toBe(413)
    expect(refused.body.content.fieldErrors?.[0]).toEqual({
      field: 'file',
      key: 'import.unpacksTooLarge',
      message: 'bomb.xlsx unpacks to more than 32 MB: remove unneeded sheets or content and retry',
    })
    // The same bomb whose directory claims a small sheet: unpacking stops one byte past the claim.
    const liar = await upload(token, 'liar.xlsx', await bombWorkbook(256 * 1024 * 1024, 1000))
    expect(liar.status).toBe(413)
    expect(liar.body.content.fieldErrors?.[0]?.key).toBe('import.unpacksTooLarge')
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * 1024 * 1024)
    expect((await ratesNamed(token, 'IMP-BOMB-')).total).toBe(0)
    // A good workbook still imports after them.
    const good = await upload(token, 'good.xlsx', workbook([HEADER, fcl('IMP-AFTER-BOMB')]))
    expect(good.body.code, JSON.stringify(good.body)).toBe('0000')
  })

  it('is not polluted by a workbook whose headers and cells are __proto__ and constructor', async () => {
    const token = await test.login('opadmin')
    const file = workbook([
      ['__proto__', 'constructor', 'prototype', 'rateNo'],
      ['{"polluted":true}', 'x', 'y', 'IMP-PROTO-1'],
    ])
    const { body } = await upload(token, 'proto.xlsx', file)
    expect(body.content.imported).toBe(0)
    expect(body.content.problems.filter((p) => p.key === 'import.unknownColumn').map((p) => p.header)).toEqual([
      '__proto__',
      'constructor',
      'prototype',
    ])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(Object.hasOwn(Object.prototype, 'polluted')).toBe(false)
  })

  it('keeps imported rates in the importing tenant', async () => {
    const acme = await test.login('opadmin', 'acme.localhost')
    expect((await ratesNamed(acme, 'IMP-GOOD-', 'acme.localhost')).total).toBe(0)
    const { body } = await upload(acme, 'acme.xlsx', workbook([HEADER, fcl('IMP-ACME-1')]), 'acme.localhost')
    expect(body.content.imported).toBe(1)
    const demo = await test.login('opadmin')
    expect((await ratesNamed(demo, 'IMP-ACME-')).total).toBe(0)
  })

  it('refuses a user without freightRateManage with 220000', async () => {
    const token = await test.login('entadmin')
    const { status, body } = await upload(token, 'rates.xlsx', workbook([HEADER, fcl('IMP-CUST-1')]))
    expect(status).toBe(403)
    expect(body.code).toBe('220000')
    const template = await test.app.inject({
      method: 'GET',
      url: '/api/price/rate/import',
      headers: { host: 'localhost', authorization: `Bearer ${token}` },
    })
    expect(template.json().code).toBe('220000')
  })

  it('answers a template workbook whose example row imports as it is', async () => {
    const token = await test.login('opadmin')
    const response = await test.app.inject({
      method: 'GET',
      url: '/api/price/rate/import',
      headers: { host: 'localhost', authorization: `Bearer ${token}`, language: 'en_US' },
    })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toContain('spreadsheetml')
    const book = XLSX.read(response.rawPayload, { type: 'buffer' })
    const [header, example] = XLSX.utils.sheet_to_json<Cell[]>(book.Sheets[book.SheetNames[0] as string] as never, {
      header: 1,
    })
    expect(header).toContain('Rate no.')
    expect(header).toContain("40'HQ")
    expect(example).toContain('FCL-CNSHA-USLAX-0001')
    const { body } = await upload(token, 'template.xlsx', Buffer.from(response.rawPayload))
    expect(body.content).toEqual({ imported: 1, problems: [] })
  })

  it('imports price levels through the same generic import', async () => {
    const token = await test.login('opadmin')
    const file = workbook([
      ['code', 'Level name', 'markupPercent', 'isDefault'],
      ['IMPA', 'Imported A', 5, 'no'],
      ['IMPB', 'Imported B', -1.5, false],
    ])
    const { body } = await upload(token, 'levels.xlsx', file, 'localhost', '/api/price/priceLevel/import')
    expect(body.content).toEqual({ imported: 2, problems: [] })
  })
})
