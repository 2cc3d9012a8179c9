import { Validator } from '@cfworker/json-schema'
import { describe, expect, it } from 'vitest'
import manifestJson from '../../generated/manifest.json'
import {
  combineOverlays,
  type OverlayDocument,
  overlayEntity,
  overlayProblems,
  overlayRuleSchema,
  overlayScreen,
  overlayTexts,
} from '../../model/overlay.ts'
import { metaProblems, readOverlaySource } from '../../model/overlay-source.ts'
import type { Manifest, ManifestEntity, ManifestScreen } from '../../model/resolve.ts'

const manifest = manifestJson as unknown as Manifest
const screenNamed = (name: string) => manifest.screens.find((s) => s.name === name) as ManifestScreen
const orderList = screenNamed('orderList')
const personalInfo = screenNamed('personalInfo')
const order = manifest.entities.order as ManifestEntity
const userProfile = manifest.entities.userProfile as ManifestEntity

describe('overlay documents: the meta-schema, eval-free', () => {
  it('accepts a full overlay and names each wrong key, type and bound by place', () => {
    expect(
      metaProblems({
        columns: { hidden: ['jobNo'], order: ['pol'], labels: { pol: { en: 'Origin' }, pod: 'Destination' } },
        fields: { readOnly: ['remark'], rules: { vessel: { maxLength: 20, required: true } } },
        paging: { pageSize: 20 },
      }),
    ).toEqual([])
    expect(metaProblems({ columns: { hidden: ['jobNo'], bogus: 1 } })).toEqual([
      { path: '/columns/bogus', message: 'overlay.unknownKey', params: { name: 'bogus' } },
    ])
    expect(metaProblems({ fields: { rules: { vessel: { maxLength: 'ten' } } } })).toEqual([
      { path: '/fields/rules/vessel/maxLength', message: 'validation.type_integer' },
    ])
    expect(metaProblems({ paging: { pageSize: 0 } })).toEqual([
      { path: '/paging/pageSize', message: 'validation.minimum', params: { limit: 1 } },
    ])
    expect(metaProblems({ columns: { labels: { pol: { fr: 'Origine' } } } })).toEqual([
      { path: '/columns/labels/pol/fr', message: 'overlay.unknownKey', params: { name: 'fr' } },
    ])
  })
})

describe('overlay problems: names exist, rules only tighten', () => {
  it('refuses names the screen does not have', () => {
    const problems = overlayProblems(
      { columns: { hidden: ['jobNo', 'shoeSize'] }, search: { hidden: ['vessel'] } },
      orderList,
      order,
    )
    expect(problems.map((p) => [p.path, p.message, p.params?.name])).toEqual([
      ['/columns/hidden/1', 'overlay.unknownColumn', 'shoeSize'],
      ['/search/hidden/0', 'overlay.unknownSearch', 'vessel'],
    ])
  })

  it('refuses a looser bound, a rule of the wrong type and a contradiction', () => {
    const problems = overlayProblems(
      {
        fields: {
          rules: {
            vessel: { maxLength: 65 },
            voyage: { maxLength: 10, minLength: 12 },
            boxes: { maxLength: 3 },
            containerLoadType: { enum: ['FCL', 'BULK'] },
            mbl: { pattern: '([' },
          },
        },
      },
      orderList,
      order,
    )
    expect(problems.map((p) => [p.path, p.message])).toEqual([
      ['/fields/rules/vessel/maxLength', 'overlay.ruleLooser'],
      ['/fields/rules/voyage/minLength', 'overlay.ruleEmpty'],
      ['/fields/rules/boxes/maxLength', 'overlay.ruleType'],
      ['/fields/rules/containerLoadType/enum/1', 'overlay.ruleEnum'],
      ['/fields/rules/mbl/pattern', 'overlay.rulePattern'],
    ])
    expect(overlayProblems({ fields: { rules: { vessel: { maxLength: 20 } } } }, orderList, order)).toEqual([])
  })

  it('hides a required field only with a default, and never on a hand-written save', () => {
    expect(overlayProblems({ fields: { hidden: ['shipper'] } }, orderList, order)[0]?.message).toBe(
      'overlay.hiddenRequired',
    )
    expect(
      overlayProblems({ fields: { hidden: ['shipper'], defaults: { shipper: 'TBA' } } }, orderList, order),
    ).toEqual([])
    expect(
      overlayProblems({ fields: { readOnly: ['realName'] } }, personalInfo, userProfile, { customSave: true })[0]
        ?.message,
    ).toBe('overlay.requiredLocked')
  })

  it('points a problem at its line and column in the YAML', () => {
    const read = readOverlaySource('# orders\ncolumns:\n  hidden:\n    - jobNo\n    - shoeSize\n', orderList, order)
    expect(read.document).toBeUndefined()
    expect(read.problems).toEqual([
      expect.objectContaining({ message: 'overlay.unknownColumn', line: 5, column: 7, path: '/columns/hidden/1' }),
    ])
    expect(readOverlaySource('columns: [', orderList, order).problems[0]?.message).toBe('overlay.yaml')
    expect(readOverlaySource('# nothing yet\n', orderList, order)).toEqual({ document: {}, problems: [] })
  })
})

describe('applying an overlay', () => {
  const document: OverlayDocument = {
    columns: { hidden: ['jobNo'], order: ['pol', 'pod'], labels: { customerCompany: { en: 'Client' } } },
    search: { hidden: ['hbl'] },
    paging: { pageSize: 25 },
    fields: { readOnly: ['vessel'], defaults: { cargoType: 'FCL' }, labels: { vessel: 'Ship' } },
  }

  it('hides, reorders and relabels columns without touching the manifest', () => {
    const screen = overlayScreen(orderList, document)
    expect(screen.columns?.map((c) => c.field).slice(0, 3)).toEqual(['pol', 'pod', 'orderNo'])
    expect(screen.columns?.some((c) => c.field === 'jobNo')).toBe(false)
    expect(screen.columns?.find((c) => c.field === 'customerCompany')?.label).toBe(
      'tenant.orderList.columns.customerCompany',
    )
    expect(screen.search?.some((s) => s.field === 'hbl')).toBe(false)
    expect(screen.paging?.pageSize).toBe(25)
    expect(screen.paging?.pageSizes).toContain(25)
    expect(orderList.columns?.some((c) => c.field === 'jobNo')).toBe(true)
  })

  it('gives a relabelled column its text per language, keeping the own label where none is given', () => {
    const texts = overlayTexts(orderList, order, document)
    expect(texts.en['tenant.orderList.columns.customerCompany']).toBe('Client')
    expect(texts.zh['tenant.orderList.columns.customerCompany']).toMatch(/^\$t\(field\./)
    expect(texts.ja['tenant.orderList.fields.vessel']).toBe('Ship')
  })

  it('locks, defaults and relabels form fields', () => {
    const entity = overlayEntity('orderList', order, document)
    expect(entity.fields.vessel?.readOnly).toBe(true)
    expect(entity.fields.vessel?.label).toBe('tenant.orderList.fields.vessel')
    expect(entity.fields.cargoType?.default).toBe('FCL')
    expect(order.fields.vessel?.readOnly).toBeUndefined()
  })

  it('checks tighter rules with an eval-free validator, several overlays all applying', () => {
    const schema = overlayRuleSchema([
      { fields: { rules: { vessel: { maxLength: 10 } } } },
      { fields: { rules: { vessel: { pattern: '^[A-Z ]+$' }, voyage: { required: true } } } },
    ]) as Record<string, unknown>
    const validator = new Validator(schema as never, '2020-12', false)
    expect(validator.validate({ vessel: 'MAERSK', voyage: '123E' }).valid).toBe(true)
    expect(validator.validate({ vessel: 'MSC GULSUN XIV', voyage: '1' }).valid).toBe(false)
    expect(validator.validate({ vessel: 'maersk', voyage: '1' }).valid).toBe(false)
    expect(validator.validate({ vessel: 'MAERSK' }).valid).toBe(false)
    expect(overlayRuleSchema({ columns: { hidden: ['jobNo'] } })).toBeNull()
  })

  it('unites what several screens over one endpoint hide and lock', () => {
    const combined = combineOverlays([
      { columns: { hidden: ['jobNo'] }, fields: { readOnly: ['vessel'] } },
      { columns: { hidden: ['mbl', 'jobNo'] }, fields: { hidden: ['remark'] } },
    ])
    expect(combined?.columns?.hidden).toEqual(['jobNo', 'mbl'])
    expect(combined?.fields?.readOnly).toEqual(['vessel'])
    expect(combined?.fields?.hidden).toEqual(['remark'])
  })
})
