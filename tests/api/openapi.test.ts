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
