import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { precompressDir } from '../../scripts/precompress.ts'
import { buildApp } from '../../server/app.ts'
import type { Database } from '../../server/db/database.ts'
import { freshDatabase } from '../support/database.ts'

/**
 * Issue #18, transport: what the server answers for the built portal — compressed at build and served as it
 * is, hashed assets cached for a year, pages and site settings revalidated, 404 for what is not a page. No
 * build needed: a portal of its own, an index.html and a hashed asset, precompressed by the build's step.
 */

const dist = mkdtempSync(join(tmpdir(), 'waybill-portal-'))
const ASSET = '/assets/app-Fx7Q2c9a.js'
const script = `export const lanes = [${Array.from({ length: 200 }, (_, i) => `'lane ${i}'`).join(', ')}]\n`
mkdirSync(join(dist, 'assets'))
writeFileSync(join(dist, ASSET), script)
writeFileSync(join(dist, 'assets/tiny-Ab12Cd34.js'), 'export {}\n')
writeFileSync(join(dist, 'logo.svg'), `<svg xmlns="http://www.w3.org/2000/svg">${'<g/>'.repeat(400)}</svg>`)
writeFileSync(
  join(dist, 'index.html'),
  `<!doctype html><html lang="zh"><head><title>Waybill</title><script type="module" src="${ASSET}"></script></head><body><div id="root"></div></body></html>`,
)
const written = precompressDir(dist)

let database: Database
let app: FastifyInstance
beforeAll(async () => {
  database = await freshDatabase()
  app = await buildApp({ database, staticDir: dist })
})
afterAll(async () => {
  await app?.close()
  await database?.close()
  rmSync(dist, { recursive: true, force: true })
})

const get = (url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url, headers: { host: 'localhost', ...headers } })

describe('the build step', () => {
  it('writes .br and .gz beside each compressible file, not beside index.html or a file under 1 KB', () => {
    expect(written.map((w) => w.file).sort()).toEqual(['assets/app-Fx7Q2c9a.js', 'logo.svg'])
    const br = readFileSync(join(dist, `${ASSET}.br`))
    expect(brotliDecompressSync(br).toString()).toBe(script)
    expect(gunzipSync(readFileSync(join(dist, `${ASSET}.gz`))).toString()).toBe(script)
    expect(br.length).toBeLessThan(script.length / 3)
  })
})

describe('static assets', () => {
  it('answers brotli to a browser that takes it, gzip to one that takes only gzip, plain bytes otherwise', async () => {
    const br = await get(ASSET, { 'accept-encoding': 'gzip, deflate, br' })
    expect(br.statusCode).toBe(200)
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.headers['content-type']).toMatch(/javascript/)
    expect(br.headers.vary).toMatch(/accept-encoding/i)
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script)

    const gzip = await get(ASSET, { 'accept-encoding': 'gzip' })
    expect(gzip.headers['content-encoding']).toBe('gzip')
    expect(gzip.headers.vary).toMatch(/accept-encoding/i)
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(script)

    const plain = await get(ASSET)
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.body).toBe(script)
  })

  it('caches hashed assets for a year, immutable; other public files for an hour, revalidated by ETag', async () => {
    for (const encoding of ['br', 'gzip', 'identity']) {
      const response = await get(ASSET, { 'accept-encoding': encoding })
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    }
    const small = await get('/assets/tiny-Ab12Cd34.js', { 'accept-encoding': 'br' })
    expect(small.statusCode).toBe(200)
    expect(small.headers['content-encoding']).toBeUndefined()
    expect(small.headers['cache-control']).toBe('public, max-age=31536000, immutable')

    const logo = await get('/logo.svg', { 'accept-encoding': 'br' })
    expect(logo.headers['content-encoding']).toBe('br')
    expect(logo.headers['cache-control']).toBe('public, max-age=3600')
    const etag = logo.headers.etag as string
    expect(etag).toBeTruthy()
    expect((await get('/logo.svg', { 'accept-encoding': 'br', 'if-none-match': etag })).statusCode).toBe(304)
  })

  it('never serves the compressed files or index.html under their own names', async () => {
    expect((await get(`${ASSET}.br`)).statusCode).toBe(404)
    expect((await get('/index.html')).statusCode).toBe(404)
  })
})

describe('pages', () => {
  it('answers 200 with the portal for every path of the route table, :params included', async () => {
    for (const path of [
      '/',
      '/News',
      '/dashboard',
      '/palletInquiry/sea',
      '/orderList',
      '/InformationCenterDetail?id=1',
    ]) {
      const response = await get(path)
      expect(response.statusCode, path).toBe(200)
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8')
      expect(response.body).toContain('<div id="root">')
    }
    // The portal's router ignores case and a trailing slash; so does the server.
    expect((await get('/news')).statusCode).toBe(200)
    expect((await get('/News/')).statusCode).toBe(200)
  })

  it('answers 404 for anything else, with the portal in the body so it shows its own 404 page', async () => {
    for (const path of [
      '/no-such-page',
      '/robots.php',
      '/wp-login.php',
      '/palletInquiry',
      '/palletInquiry/sea/x',
      '/404',
    ]) {
      const response = await get(path)
      expect(response.statusCode, path).toBe(404)
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8')
      expect(response.body).toContain('<div id="root">')
    }
    // A missing hashed asset is not a page either.
    expect((await get('/assets/app-00000000.js')).statusCode).toBe(404)
  })

  it('keeps the API’s unknown paths and other methods in the envelope', async () => {
    const api = await get('/api/no-such-call')
    expect(api.statusCode).toBe(404)
    expect(api.json()).toMatchObject({ code: '404' })
    const post = await app.inject({ method: 'POST', url: '/News', headers: { host: 'localhost' }, payload: {} })
    expect(post.statusCode).toBe(404)
    expect(post.json()).toMatchObject({ code: '404' })
  })

  it('is revalidated on every visit: no-cache, an ETag, 304 while unchanged', async () => {
    const first = await get('/News')
    expect(first.headers['cache-control']).toBe('no-cache')
    const etag = first.headers.etag as string
    expect(etag).toMatch(/^W\/".+"$/)
    const again = await get('/News', { 'if-none-match': etag })
    expect(again.statusCode).toBe(304)
    expect(again.body).toBe('')
    // A 404 is never a 304.
    expect((await get('/no-such-page', { 'if-none-match': '*' })).statusCode).toBe(404)
  })

  it('goes out compressed', async () => {
    const response = await get('/News', { 'accept-encoding': 'gzip, br' })
    expect(response.headers['content-encoding']).toBe('br')
    expect(response.headers.vary).toMatch(/accept-encoding/i)
    expect(brotliDecompressSync(response.rawPayload).toString()).toContain('<div id="root">')
  })
})

describe('API answers', () => {
  it('compresses JSON over 1 KB, brotli first, and leaves small answers plain', async () => {
    const big = await get('/api/b2b/public/api/site/pages', { 'accept-encoding': 'gzip, br' })
    expect(big.statusCode).toBe(200)
    expect(big.headers['content-encoding']).toBe('br')
    expect(big.headers.vary).toMatch(/accept-encoding/i)
    expect(JSON.parse(brotliDecompressSync(big.rawPayload).toString()).code).toBe('0000')
    const gzip = await get('/api/b2b/public/api/site/pages', { 'accept-encoding': 'gzip' })
    expect(gzip.headers['content-encoding']).toBe('gzip')
    const small = await get('/api/health', { 'accept-encoding': 'br' })
    expect(small.headers['content-encoding']).toBeUndefined()
    expect(small.json().code).toBe('0000')
  })

  it('revalidates the site settings: no-cache, an ETag, 304 while unchanged, per tenant', async () => {
    const url = '/api/b2b/public/api/site/settings'
    const first = await get(url)
    expect(first.statusCode).toBe(200)
    expect(first.headers['cache-control']).toBe('no-cache')
    const etag = first.headers.etag as string
    expect(etag).toBeTruthy()
    const again = await get(url, { 'if-none-match': etag })
    expect(again.statusCode).toBe(304)
    expect(again.body).toBe('')
    // Another tenant's settings are another answer.
    const acme = await get(url, { host: 'acme.localhost', 'if-none-match': etag })
    expect(acme.statusCode).toBe(200)
    expect(acme.headers.etag).not.toBe(etag)
  })

  it('does not take compressed request bodies', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/b2b/public/api/information/list',
      headers: { host: 'localhost', 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: Buffer.from([0x1f, 0x8b, 0x08, 0x00]),
    })
    expect(response.statusCode).toBeGreaterThanOrEqual(400)
  })
})
