import { describe, expect, it } from 'vitest'
import * as validators from '../../generated/validators.js'
import { setupTestApp } from '../support/app.ts'
import { inDays } from '../support/clock.ts'

/**
 * The booking calls' bodies as the YAML says them (schemas/orderBooking.yaml, orderTemplateEdit.yaml:
 * `extends:`): the order's or template's fields, each optional, null clearing one, the read-only ones the
 * form read back ignored as the engine ignores them, a wrong type refused field by field in the caller's
 * language; and the three calls as the portal makes them (runtime/flows/booking/BookingOrder.tsx).
 */

const test = setupTestApp()

const DRAFT = '/api/booking/orderDraft/addOrEditOrderDraft'
const ADD = '/api/booking/order/add'
const TEMPLATE = '/api/booking/orderTemplate/addOrEditOrderTemplate'

const post = (url: string, token: string, payload: object, language = 'en_US') =>
  test.app.inject({
    method: 'POST',
    url,
    headers: { host: 'localhost', language, authorization: `Bearer ${token}` },
    payload,
  })

async function ok(url: string, token: string, payload: object) {
  const body = (await post(url, token, payload)).json()
  expect(body.code, JSON.stringify(body).slice(0, 400)).toBe('0000')
  return body.content
}

async function detail(token: string, id: number) {
  const body = (
    await test.app.inject({
      method: 'GET',
      url: `/api/booking/orderDraft/detail?id=${id}`,
      headers: { host: 'localhost', authorization: `Bearer ${token}` },
    })
  ).json()
  expect(body.code).toBe('0000')
  return body.content
}

/** A direct FCL booking Shanghai → Los Angeles. */
const directFcl = (extra: object = {}) => ({
  entrustType: 'direct',
  transportMode: 1,
  containerLoadType: 'FCL',
  pol: 'CNSHA',
  pod: 'USLAX',
  carrier: 'MAEU',
  etd: inDays(10),
  containers: [{ containerType: '45G1', quantity: 2 }],
  goodsDescription: 'FURNITURE',
  shipper: 'NINGBO BRIGHT HOME CO., LTD.',
  consignee: 'PACIFIC HOME GOODS INC.',
  ...extra,
})

describe('the booking bodies', () => {
  it('clears a draft field sent as null, and leaves the fields not sent as they were', async () => {
    const customer = await test.login('entadmin')
    const draft = await ok(DRAFT, customer, directFcl({ remarks: 'FRAGILE', marks: 'N/M', hsCode: '940360' }))
    expect(draft).toMatchObject({ remarks: 'FRAGILE', marks: 'N/M', hsCode: '940360' })
    const cleared = await ok(DRAFT, customer, { id: draft.id, version: draft.version, remarks: null, hsCode: '' })
    expect(cleared).toMatchObject({ remarks: null, hsCode: null, marks: 'N/M', carrier: 'MAEU' })
    expect(await detail(customer, draft.id)).toMatchObject({ remarks: null, hsCode: null, marks: 'N/M' })
    // A required field of the order cannot be cleared: the engine checks the record whole.
    const required = (
      await post(DRAFT, customer, { id: draft.id, version: cleared.version, containerLoadType: null })
    ).json()
    expect(required.code).toBe('validation')
    expect(new Set(required.content.fieldErrors.map((e: { field: string }) => e.field))).toEqual(
      new Set(['containerLoadType']),
    )
  })

  it('ignores the read-only fields and what the engine keeps that the form sends back', async () => {
    const customer = await test.login('entadmin')
    const draft = await ok(DRAFT, customer, directFcl())
    const edited = await ok(DRAFT, customer, {
      id: draft.id,
      version: draft.version,
      marks: 'EDITED',
      orderNo: 'FORGED-1',
      state: 'accepted',
      source: 'rate',
      customerCompany: 999_999,
      createdBy: 999_999,
      createdAt: '2000-01-01T00:00:00.000Z',
      labels: { pol: 'Nowhere' },
      history: [{ action: 'forged' }],
    })
    expect(edited).toMatchObject({
      id: draft.id,
      marks: 'EDITED',
      orderNo: draft.orderNo,
      state: 'draft',
      source: 'direct',
      customerCompany: draft.customerCompany,
      createdBy: draft.createdBy,
      createdAt: draft.createdAt,
    })
    expect(edited.labels.pol).not.toBe('Nowhere')
  })

  it('refuses a wrong type field by field, in the language asked for, and stores nothing', async () => {
    const customer = await test.login('entadmin')
    const draft = await ok(DRAFT, customer, directFcl({ marks: 'KEPT' }))
    // The texts as written in locales/, not built by the server's own message function (#20).
    const TEXTS = {
      en: {
        'error.validation': 'Please correct the highlighted fields',
        'validation.type_integer': 'Must be a whole number',
        'validation.type_string': 'Must be text',
        'validation.type_boolean': 'Must be yes or no',
      },
      zh: {
        'error.validation': '请修改标出的字段',
        'validation.type_integer': '请输入整数',
        'validation.type_string': '请输入文本',
        'validation.type_boolean': '请选择是或否',
      },
    } as const
    for (const [language, lang] of [
      ['en_US', 'en'],
      ['zh_CN', 'zh'],
    ] as const) {
      const response = await post(
        DRAFT,
        customer,
        { id: draft.id, version: draft.version, marks: 'LOST', etd: 12, boxes: 'many', submit: 'yes' },
        language,
      )
      expect(response.statusCode).toBe(400)
      const body = response.json()
      expect(body.message).toBe(TEXTS[lang]['error.validation'])
      const errors = body.content.fieldErrors as { field: string; key: string; message: string }[]
      expect(errors.map((e) => [e.field, e.key]).sort()).toEqual([
        ['boxes', 'validation.type_integer'],
        ['etd', 'validation.type_string'],
        ['submit', 'validation.type_boolean'],
      ])
      for (const e of errors) expect(e.message).toBe(TEXTS[lang][e.key as keyof (typeof TEXTS)['en']])
    }
    const enumError = (await post(ADD, customer, directFcl({ containerLoadType: 'SHIP' }))).json()
    expect(enumError.content.fieldErrors).toEqual([
      {
        field: 'containerLoadType',
        key: 'validation.enum',
        message: 'Must be one of: FCL, LCL, AIR, RAILWAY, TRUCK',
      },
    ])
    expect((await detail(customer, draft.id)).marks).toBe('KEPT')
  })

  it('takes the three calls as the booking page makes them: draft, submit, template', async () => {
    const customer = await test.login('entadmin')
    // A new draft: the form's values, nothing read-only yet.
    const values = directFcl({ tradeTerm: 'FOB', services: ['customs'] })
    expect(validators.orderBooking(values)).toBe(true)
    const draft = await ok(DRAFT, customer, values)
    expect(draft.state).toBe('draft')

    // Reopened: the page's record is the stored draft without its history and labels, and the form gives
    // every field back (empty ones as null), the read-only ones too; id and version go with it.
    const { history: _history, labels: _labels, ...record } = await detail(customer, draft.id)
    expect(record.orderNo).toEqual(expect.any(String))
    const body = { ...record, tradeTerm: null, marks: 'SHIPPING MARKS', id: draft.id, version: draft.version }
    expect(validators.orderBooking(body), JSON.stringify(validators.orderBooking.errors)).toBe(true)
    const saved = await ok(DRAFT, customer, body)
    expect(saved).toMatchObject({ id: draft.id, tradeTerm: null, marks: 'SHIPPING MARKS', state: 'draft' })

    const submitted = await ok(ADD, customer, { ...body, version: saved.version, submit: true })
    expect(submitted).toMatchObject({ id: draft.id, state: 'submitted', tradeTerm: null, marks: 'SHIPPING MARKS' })

    // The template: the fields a template carries over, its name and the page's mode.
    const template = {
      shipper: values.shipper,
      consignee: values.consignee,
      pol: 'CNSHA',
      pod: 'USLAX',
      carrier: 'MAEU',
      containers: values.containers,
      goodsDescription: 'FURNITURE',
      remarks: null,
      name: 'Bodies weekly',
      containerLoadType: 'FCL',
    }
    expect(validators.orderTemplateEdit(template)).toBe(true)
    const stored = await ok(TEMPLATE, customer, template)
    expect(stored).toMatchObject({ name: 'Bodies weekly', pol: 'CNSHA', remarks: null })
    // Edited as a partial row: the name only, a field cleared, a read-only one ignored.
    const renamed = await ok(TEMPLATE, customer, {
      id: stored.id,
      version: stored.version,
      name: 'Bodies biweekly',
      carrier: null,
      customerCompany: 999_999,
    })
    expect(renamed).toMatchObject({
      name: 'Bodies biweekly',
      carrier: null,
      pod: 'USLAX',
      customerCompany: stored.customerCompany,
    })
    const wrong = (await post(TEMPLATE, customer, { name: 5, containerLoadType: 'FCL' })).json()
    expect(wrong.content.fieldErrors).toEqual([
      { field: 'name', key: 'validation.type_string', message: 'Must be text' },
    ])
  })
})
