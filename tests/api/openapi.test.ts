import { describe, expect, it } from 'vitest'
import { setupTestApp } from '../support/app.ts'

const test = setupTestApp()

describe('GET /api/openapi.json', () => {
  it('lists exactly the routes the server has under /api', async () => {
    const { app } = test
    await app.ready()
    const response = await app.inject({ method: 'GET', url: '/api/openapi.json' })
    expect(response.statusCode).toBe(200)
    const document = response.json() as { openapi: string; paths: Record<string, Record<string, unknown>> }
    expect(document.openapi).toBe('3.1.0')
    const documented = Object.entries(document.paths)
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`))
      .sort()
    const served = app.registeredRoutes
      .filter((r) => r.url.startsWith('/api/'))
      .map((r) => `${r.method} ${r.url}`)
      .sort()
    expect(served.length).toBeGreaterThan(20)
    expect(served).toEqual(documented)
  })
})

/** The methods and paths SPEC §7 names for the order calls of issue #23, each served and documented. */
const SPEC_ORDER_CALLS = [
  'GET /api/booking/order/getOrderDetailByJobNo',
  'GET /api/booking/order/withdraw',
  'GET /api/booking/order/reapplyOrder',
  'POST /api/booking/order/approve',
  'POST /api/booking/onlineOrders/reEdit',
  'GET /api/booking/order/getChargeListVos',
  'GET /api/booking/orderFile/getFiles',
  'POST /api/booking/order/queryRequirements',
  'POST /api/booking/order/specialOperationCodeList',
  'GET /api/booking/order/public/api/getSop',
  'GET /api/booking/order/queryOrderListByOperator',
  'GET /api/booking/order/queryOrderListByCompany',
  'GET /api/booking/spa/spaCancel',
  'GET /api/b2b/basicData/public/api/seaEqData/list',
  'GET /api/booking/quote/getAutoQuoteList',
  'GET /api/booking/quote/getWarehouseFileByUuid',
  'GET /api/booking/quote/bookingQuote',
  'POST /api/booking/quote/bookingAutoQuote',
  'GET /api/booking/forecastOrderDetails/getForecastOrderDetail',
  'POST /api/booking/forecastOrderDetails/saveForecastOrderDetail',
  'POST /api/booking/forecastOrderDetails/getBusinessLog',
]

describe('the OpenAPI document and SPEC §7', () => {
  it('lists the order calls SPEC §7 names, with its methods, and documents a GET list by its query parameters', async () => {
    const response = await test.app.inject({ method: 'GET', url: '/api/openapi.json' })
    const document = response.json() as {
      paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>
    }
    const documented = new Set(
      Object.entries(document.paths).flatMap(([path, operations]) =>
        Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
      ),
    )
    for (const call of SPEC_ORDER_CALLS) expect(documented, call).toContain(call)
    const list = document.paths['/api/booking/order/queryOrderListByOperator']?.get
    expect(list?.parameters?.map((p) => p.name)).toEqual(
      expect.arrayContaining(['orderNo', 'state', 'beginDate', 'endDate', 'pageNum', 'pageSize', 'sort', 'order']),
    )
  })
})
