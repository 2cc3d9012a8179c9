import { describe, expect, it } from 'vitest'
import { formatError } from '../errors.ts'
import { parseSource, type Sources } from '../load.ts'
import { endpointResponses, withEntityResponses } from './endpointResponses.ts'

const entity = (name: string, fields: string) =>
  parseSource(
    '/p',
    `/p/schemas/${name}.yaml`,
    `entity: ${name}\nlabel: entity.x\nstored: false\nfields:\n${fields}`,
    'entity',
  )

const area = (endpoints: string) =>
  parseSource(
    '/p',
    '/p/screens/news.yaml',
    `area: news\nlabel: area.news\nscreens: []\nendpoints:\n${endpoints}`,
    'screens',
  )

const sources = (...files: ReturnType<typeof parseSource>[]): Sources => ({
  root: '/p',
  files,
  locales: {},
  problems: [],
})

const article = entity(
  'newsArticle',
  '  id: { type: integer, required: true }\n  author: { type: object, entity: person, nullable: true }\n',
)
const person = entity('person', '  name: { type: string, required: true }\n')
const endpoint = (name: string, method: string, response?: string) =>
  `  - name: ${name}\n    method: ${method}\n    path: /${name}\n    summary: s\n${response === undefined ? '' : `    response: ${response}\n`}`

describe('endpointResponses', () => {
  it('accepts every form of response:', () => {
    const all = area(
      [
        endpoint('one', 'GET', 'newsArticle'),
        endpoint('maybe', 'GET', '{ entity: newsArticle, nullable: true }'),
        endpoint('many', 'GET', '{ list: newsArticle }'),
        endpoint('paged', 'POST', '{ page: newsArticle }'),
        endpoint('pdf', 'GET', 'binary'),
        endpoint('like', 'POST', 'none'),
        endpoint('pending', 'GET', 'count'),
      ].join(''),
    )
    expect(endpointResponses(sources(article, person, all))).toEqual([])
  })

  it('refuses an endpoint without a response at its file, line and column', () => {
    const errors = endpointResponses(sources(article, person, area(endpoint('one', 'GET') + endpoint('two', 'GET'))))
    expect(errors.map(formatError).map((e) => e.split('\n')[0])).toEqual([
      'screens/news.yaml:5:5 endpoints[0]: endpoint "one" does not say what it answers',
      'screens/news.yaml:9:5 endpoints[1]: endpoint "two" does not say what it answers',
    ])
  })

  it('refuses unknown entities, with a likely fix, and a file answered to a PUT or DELETE', () => {
    const errors = endpointResponses(
      sources(
        article,
        person,
        area(
          endpoint('one', 'GET', '{ list: newsArticel }') +
            endpoint('two', 'PUT', 'binary') +
            endpoint('three', 'DELETE', 'binary'),
        ),
      ),
    )
    expect(errors.map((e) => [e.path, e.line, e.message, e.fix])).toEqual([
      ['endpoints[0].response.list', 9, 'unknown entity "newsArticel"', 'did you mean "newsArticle"?'],
      ['endpoints[1].response', 14, 'a file is answered to a GET or a POST, not a PUT', 'or answer an entity'],
      ['endpoints[2].response', 19, 'a file is answered to a GET or a POST, not a DELETE', 'or answer an entity'],
    ])
  })

  it('takes a file answered to a POST that sends a body (SPEC §7’s exportPvList), and refuses one that sends none', () => {
    const posted = (body: string) =>
      area(`${endpoint('exportPvList', 'POST', 'binary')}${body ? `    body: ${body}\n` : ''}`)
    expect(endpointResponses(sources(article, person, posted('newsArticle')))).toEqual([])
    const errors = endpointResponses(sources(article, person, posted('')))
    expect(errors.map((e) => [e.path, e.line, e.col, e.message, e.expected, e.fix])).toEqual([
      [
        'endpoints[0].method',
        6,
        13,
        'a file answered to a POST is asked for by its body, and this POST sends none',
        'body: the entity the request sends',
        'or method: GET',
      ],
    ])
  })

  it('takes a success status of a standard’s document (DCSA’s 204 to PUT …/secret), and refuses one on the envelope', () => {
    const withStatus = (response: string) => area(`${endpoint('secret', 'PUT', response)}    status: 204\n`)
    expect(endpointResponses(sources(article, person, withStatus('document')))).toEqual([])
    const errors = endpointResponses(sources(article, person, withStatus('none')))
    expect(errors.map((e) => [e.path, e.line, e.message, e.expected])).toEqual([
      [
        'endpoints[0].status',
        10,
        'status: is the success status of a standard’s document; this endpoint answers the envelope (200)',
        'response: document',
      ],
    ])
  })

  it('refuses nesting fields without a known entity, an entity on another type, and nesting that never ends', () => {
    const broken = entity(
      'broken',
      [
        '  a: { type: object }',
        '  b: { type: list, entity: nobody }',
        '  c: { type: string, entity: person }',
        '  d: { type: list, entity: broken }',
        '  e: { type: map }',
        '  f: { type: map, of: string }',
        '  g: { type: object, schema: overlay }',
        '  h: { type: string, schema: overlay }',
        '',
      ].join('\n'),
    )
    const errors = endpointResponses(sources(person, broken, area(endpoint('one', 'GET', 'broken'))))
    expect(errors.map((e) => `${e.file}:${e.line} ${e.path}: ${e.message}`)).toEqual([
      "schemas/broken.yaml:1 entity: broken → broken: an answer's objects cannot nest themselves",
      'schemas/broken.yaml:5 fields.a.type: an object field needs entity:',
      'schemas/broken.yaml:6 fields.b.entity: unknown entity "nobody"',
      'schemas/broken.yaml:7 fields.c.entity: only object, list and map fields name an entity',
      'schemas/broken.yaml:9 fields.e.type: a map field needs of: or entity:',
      'schemas/broken.yaml:12 fields.h.schema: only object fields name a schema',
    ])
  })

  it('refuses an entity named like a word of response:', () => {
    const none = entity('none', '  x: { type: string }\n')
    expect(endpointResponses(sources(none)).map((e) => e.message)).toEqual([
      '"none" is a word of response:, not an entity name',
    ])
  })
})

describe('withEntityResponses', () => {
  it('hands validateSources the entity-name form and leaves what it cannot read to the meta-schema', () => {
    const all = area(
      [
        endpoint('many', 'GET', '{ list: newsArticle }'),
        endpoint('pdf', 'GET', 'binary'),
        endpoint('odd', 'GET', '{ rows: newsArticle }'),
      ].join(''),
    )
    type Area = { endpoints: { response?: unknown }[] }
    const endpoints = (withEntityResponses(sources(all)).files[0]?.data as Area | undefined)?.endpoints ?? []
    expect(endpoints.map((e) => e.response)).toEqual(['newsArticle', undefined, { rows: 'newsArticle' }])
    expect('response' in (endpoints[1] as object)).toBe(false)
    // The sources it was given are not changed.
    expect((all.data as { endpoints: { response?: unknown }[] }).endpoints[0]?.response).toEqual({
      list: 'newsArticle',
    })
  })
})
