import { describe, expect, it } from 'vitest'
import manifest from '../../generated/manifest.json'
import * as validators from '../../generated/validators.js'
import type { Manifest } from '../../model/resolve.ts'
import {
  buildUiSchema,
  formSections,
  localizeErrors,
  pickFormData,
  readOnlyValues,
  serverErrorTree,
  widgetFor,
  withRuleMarks,
} from '../../runtime/forms/schemaForm.ts'
import { prefilledRecord } from '../../runtime/screens/form/prefill.ts'
import { brandRamp, parseHex } from '../../runtime/theme.ts'
import { coerce } from '../../runtime/widgets/index.tsx'
import { textBlockStatus } from '../../runtime/widgets/textBlock.ts'

const { entities, screens } = manifest as unknown as Manifest
const entity = (name: string) => {
  const found = entities[name]
  if (!found) throw new Error(`no entity ${name} in the manifest`)
  return found
}
const personalInfo = screens.find((s) => s.name === 'personalInfo')
if (!personalInfo?.form) throw new Error('personalInfo has no form')
const profile = entity('userProfile')
const sections = personalInfo.form.sections

describe('widgets by field', () => {
  it('picks the widget from the field type, the reference and an explicit widget', () => {
    expect(widgetFor({ type: 'string' })).toBe('text')
    expect(widgetFor({ type: 'string', maxLength: 500 })).toBe('textarea')
    expect(widgetFor({ type: 'textBlock' })).toBe('textBlock')
    expect(widgetFor({ type: 'money' })).toBe('money')
    expect(widgetFor({ type: 'enum' })).toBe('select')
    expect(widgetFor({ type: 'boolean' })).toBe('checkbox')
    expect(widgetFor({ type: 'ref', ref: 'port' })).toBe('portSelect')
    // A tenant entity with a look-up gets the search select (runtime/widgets/lookups.ts); others a text box.
    expect(widgetFor({ type: 'ref', ref: 'role' })).toBe('ReferenceWidget')
    expect(widgetFor({ type: 'ref', ref: 'inquiry' })).toBe('text')
    expect(widgetFor({ type: 'file', accept: ['png', 'jpg'] })).toBe('imageUpload')
    expect(widgetFor({ type: 'string', widget: 'richText' })).toBe('richText')
  })

  it('coerces typed input: numbers for numeric schemas, the empty value for an emptied field', () => {
    expect(coerce('42', 'integer')).toBe(42)
    expect(coerce('4.5', ['number', 'null'])).toBe(4.5)
    expect(coerce('', 'string', undefined)).toBeUndefined()
    expect(coerce('abc', 'string')).toBe('abc')
  })
})

describe('the form of a screen', () => {
  it('lays out the sections, hides what no section names, keeps labels as keys', () => {
    const ui = buildUiSchema(profile, formSections(profile, sections))
    expect(ui.realName).toEqual({ 'ui:widget': 'text' })
    expect(ui.language).toEqual({
      'ui:widget': 'select',
      'ui:enumNames': ['enum.language.zh', 'enum.language.en', 'enum.language.ja', 'enum.language.es'],
    })
    expect(ui.id).toEqual({ 'ui:widget': 'hidden' })
    expect(ui.version).toEqual({ 'ui:widget': 'hidden' })
    expect(ui['ui:options']).toEqual({ sections })
  })

  it('makes one section of every editable field when the screen has none', () => {
    const [only] = formSections(entity('operationAccount'))
    expect(only?.fields).toEqual(['username', 'realName', 'email', 'mobile', 'qq', 'companyAppRoleId', 'isUsed'])
  })

  it('edits only what the schema carries and shows the rest read-only', () => {
    const record = {
      id: 3,
      version: 2,
      realName: 'Li Wei',
      email: null,
      createdAt: 'x',
      userInfo: { username: 'opadmin' },
    }
    expect(pickFormData(profile.schema, record)).toEqual({ id: 3, version: 2, realName: 'Li Wei' })
    expect(readOnlyValues(profile, sections, record)).toEqual({ username: 'opadmin' })
  })
})

describe('messages', () => {
  const translate = (key: string, params: Record<string, unknown>) => `${key}${JSON.stringify(params)}`

  it('turns the generated validator errors into locale keys, per field', () => {
    const validate = validators.userProfile
    expect(validate({ email: 'not-an-email', mobile: '123' })).toBe(false)
    const errors = structuredClone(validate.errors ?? [])
    localizeErrors(errors, profile.fields, translate)
    const messages = errors.map((e) => [e.instancePath, e.message])
    expect(messages).toContainEqual(['', 'validation.required{}'])
    expect(messages).toContainEqual(['/email', 'rule.emailFormat{}'])
    expect(messages).toContainEqual(['/mobile', 'rule.chinaMobile{}'])
  })

  it('moves a cross-field rule error to the field it names', () => {
    const validate = validators.order
    validate({
      transportMode: 1,
      containerLoadType: 'FCL',
      pol: 'CNSHA',
      pod: 'CNSHA',
      shipper: 'A',
      consignee: 'B',
    })
    const errors = structuredClone(validate.errors ?? [])
    localizeErrors(errors, entity('order').fields, translate)
    expect(errors.map((e) => [e.instancePath, e.message])).toContainEqual([
      '/pod',
      expect.stringMatching(/^rule\.podDiffersFromPol/),
    ])
  })

  it("puts a rule over rows at each offending row's cell: the FBA products naming a box the order lacks", () => {
    const validate = validators.fbaOrder
    const line = (boxNo: string) => ({
      boxNo,
      sku: 'MH-SILK-SCARF-NV',
      hsCode: '621410',
      nameCn: '方巾',
      nameEn: 'Scarf',
      quantity: 1,
      declaredPrice: '6.50',
    })
    validate({
      platformSource: 'amazon',
      collectionType: 1,
      deliveryType: 1,
      customsType: 1,
      warehouseCode: 'ONT8',
      boxes: [{ boxNo: 'MH-001', quantity: 1, weight: 5, length: 40, width: 30, height: 30 }],
      products: [line('MH-009'), line('MH-001'), line('MH-010')],
    })
    const errors = structuredClone(validate.errors ?? [])
    localizeErrors(errors, entity('fbaOrder').fields, translate)
    expect(errors.map((e) => [e.instancePath, e.message])).toEqual([
      ['/products/0/boxNo', 'fba.productBoxUnknown{}'],
      ['/products/2/boxNo', 'fba.productBoxUnknown{}'],
    ])
  })

  it('places server field errors under their fields, in the reader language when the key is known', () => {
    const tree = serverErrorTree(
      [
        { field: 'realName', key: 'validation.required', message: '此项为必填项' },
        { field: 'containers[1].weight', key: 'unknown.key', message: 'Too heavy' },
      ],
      (key) => (key === 'validation.required' ? 'This field is required' : null),
    )
    expect(tree).toEqual({
      realName: { __errors: ['This field is required'] },
      containers: { 1: { weight: { __errors: ['Too heavy'] } } },
    })
  })
})

describe('text blocks (SPEC §5: 35 characters × 7 lines)', () => {
  const limits = { lineLength: 35, maxLines: 7 }
  it('follows the cursor line and flags long lines and too many lines', () => {
    expect(textBlockStatus('', 0, limits)).toEqual({
      line: 1,
      chars: 0,
      lines: 0,
      lineTooLong: false,
      tooManyLines: false,
    })
    expect(textBlockStatus('ACME LTD\nNo. 1 Road', 12, limits)).toMatchObject({ line: 2, chars: 10, lines: 2 })
    expect(textBlockStatus('x'.repeat(36), 3, limits).lineTooLong).toBe(true)
    expect(textBlockStatus('a\nb\nc\nd\ne\nf\ng\nh', 0, limits).tooManyLines).toBe(true)
    expect(textBlockStatus('中文公司名', 5, limits).chars).toBe(5)
  })
})

describe('tenant theme colour', () => {
  it('builds a 16-shade ramp with the colour at 80, darker below, lighter above', () => {
    const ramp = brandRamp('#409EFF')
    expect(Object.keys(ramp).map(Number)).toEqual([
      10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 160,
    ])
    expect(ramp[80]).toBe('#409eff')
    const lightness = (hex: string) => (parseHex(hex) ?? [0, 0, 0]).reduce((a, b) => a + b, 0)
    for (const [darker, lighter] of [
      [10, 20],
      [70, 80],
      [80, 90],
      [150, 160],
    ] as const) {
      expect(lightness(ramp[darker])).toBeLessThan(lightness(ramp[lighter]))
    }
  })

  it('falls back to the default for an unreadable colour and reads #rgb', () => {
    expect(brandRamp('not a colour')[80]).toBe('#409eff')
    expect(brandRamp(undefined)[80]).toBe('#409eff')
    expect(brandRamp('#f00')[80]).toBe('#ff0000')
  })
})

describe('the required mark of a rule that holds now (schemas/inquiry.yaml requiredWhen)', () => {
  const inquiry = entity('inquiry')
  const ui = buildUiSchema(inquiry, [{ title: '', fields: ['needPickUp', 'pickUpAddress', 'deliveryAddress'] }])
  const marked = (data: Record<string, unknown>, field: string) =>
    ((withRuleMarks(ui, inquiry, data)[field] as Record<string, unknown>)['ui:options'] as { ruleRequired?: boolean })
      ?.ruleRequired === true

  it('marks the pick-up address while pick-up is needed, and only then', () => {
    expect(marked({ needPickUp: true }, 'pickUpAddress')).toBe(true)
    expect(marked({ needPickUp: false }, 'pickUpAddress')).toBe(false)
    expect(marked({}, 'pickUpAddress')).toBe(false)
    expect(marked({ needPickUp: true }, 'deliveryAddress')).toBe(false)
  })

  it('keeps what the field had, and leaves the uiSchema alone when no rule holds', () => {
    const withOptions = { ...ui, pickUpAddress: { 'ui:widget': 'text', 'ui:options': { maxLines: 2 } } }
    expect(withRuleMarks(withOptions, inquiry, { needPickUp: true }).pickUpAddress).toEqual({
      'ui:widget': 'text',
      'ui:options': { maxLines: 2, ruleRequired: true },
    })
    expect(withRuleMarks(ui, inquiry, { needPickUp: false })).toBe(ui)
    // A field the form hides gets no mark.
    const hidden = { ...ui, pickUpAddress: { 'ui:widget': 'hidden' } }
    expect(withRuleMarks(hidden, inquiry, { needPickUp: true }).pickUpAddress).toEqual({ 'ui:widget': 'hidden' })
  })
})

describe('a form prefilled from its query (form.prefill)', () => {
  const screen = screens.find((s) => s.name === 'shipmentSubscriptionDetail')
  if (!screen) throw new Error('no shipmentSubscriptionDetail screen')
  const subscription = entity('shipmentSubscription')

  it('takes the fields the YAML names, as the field stores them, and nothing else', () => {
    expect(prefilledRecord(screen, subscription, new URLSearchParams('order=12&containerNo=CSQU3054383'))).toEqual({
      order: 12,
    })
  })

  it('is nothing without the parameter, or for a screen that names none', () => {
    expect(prefilledRecord(screen, subscription, new URLSearchParams('order='))).toBeNull()
    expect(prefilledRecord({ form: { sections } }, profile, new URLSearchParams('username=x'))).toBeNull()
  })
})
