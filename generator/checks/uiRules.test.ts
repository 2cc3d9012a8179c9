import { describe, expect, it } from 'vitest'
import type { FieldDef } from '../../model/definitions.ts'
import { formatError } from '../errors.ts'
import { parseSource, type Sources } from '../load.ts'
import { checkClearWhen, checkRules, checkTransitionInput, uiRuleErrors } from './uiRules.ts'

const fields: Record<string, FieldDef> = {
  origin: { type: 'ref', ref: 'port' },
  destination: { type: 'ref', ref: 'port' },
  transportModes: {
    type: 'enum',
    multiple: true,
    values: [
      { value: 1, label: 'a' },
      { value: 2, label: 'b' },
    ],
  },
  contractNo: { type: 'string' },
  price: { type: 'money' },
  files: { type: 'file' },
}
const routeChosen = {
  all: [
    { field: 'origin', filled: true },
    { field: 'destination', filled: true },
  ],
}

describe('checkRules', () => {
  it('finds nothing wrong with a rule on known fields and values', () => {
    expect(
      checkRules(
        [
          { effect: 'enable', when: routeChosen },
          { effect: 'show', when: { field: 'transportModes', in: [1, 2] } },
        ],
        fields,
        'inquiry',
        ['contractNo'],
        ['rules'],
      ),
    ).toEqual([])
  })

  it('an unknown field, with a likely spelling', () => {
    const [problem, ...rest] = checkRules(
      [{ effect: 'enable', when: { all: [{ field: 'orign', filled: true }] } }],
      fields,
      'inquiry',
      ['contractNo'],
      ['rules'],
    )
    expect(rest).toEqual([])
    expect(problem).toMatchObject({
      path: 'rules[0].when.all[0].field',
      message: 'unknown field "orign" of entity inquiry',
      fix: 'did you mean origin?',
    })
  })

  it('a value the enum does not have (a number written as text)', () => {
    const problems = checkRules(
      [{ effect: 'show', when: { field: 'transportModes', in: [1, '2'] } }],
      fields,
      'inquiry',
      ['contractNo'],
      ['rules'],
    )
    expect(problems.map((p) => [p.path, p.message])).toEqual([
      ['rules[0].when.in[1]', '"2" is not a value of transportModes'],
    ])
  })

  it('a rule that reads a field it governs', () => {
    const problems = checkRules(
      [{ effect: 'enable', when: routeChosen }],
      fields,
      'inquiry',
      ['origin', 'contractNo'],
      ['rules'],
    )
    expect(problems.map((p) => p.path)).toEqual(['rules[0].when.all[0].field'])
    expect(problems[0]?.fix).toContain('move origin out')
  })

  it('a condition nested deeper than the evaluator reads', () => {
    const deep = { not: { not: { not: { not: { not: { field: 'origin', filled: true } } } } } }
    const problems = checkRules([{ effect: 'hide', when: deep }], fields, 'inquiry', ['contractNo'], ['rules'])
    expect(problems[0]?.message).toBe('the condition nests 5 levels of all/any/not')
  })
})

describe('setting conditions', () => {
  it('accept a boolean site setting and name another, with the likely one', () => {
    const settings = ['hasBookingAgent', 'showSeaFreightTerms']
    expect(
      checkRules(
        [{ effect: 'show', when: { setting: 'hasBookingAgent' } }],
        fields,
        'order',
        ['contractNo'],
        ['rules'],
        settings,
      ),
    ).toEqual([])
    const [problem, ...rest] = checkRules(
      [{ effect: 'show', when: { all: [{ setting: 'hasBookingAgnet' }, { field: 'origin', filled: true }] } }],
      fields,
      'order',
      ['contractNo'],
      ['rules'],
      settings,
    )
    expect(rest).toEqual([])
    expect(problem).toMatchObject({
      path: 'rules[0].when.all[0].setting',
      message: '"hasBookingAgnet" is not a boolean site setting the portal reads',
      fix: 'did you mean hasBookingAgent?',
    })
  })
})

describe('checkTransitionInput', () => {
  const entity = (input: string) => ({
    entity: 'spa',
    label: 'x',
    fields,
    states: {
      field: 'state',
      initial: 'a',
      values: { a: { label: 'a' }, b: { label: 'b' } },
      transitions: { approve: { from: ['a'], to: 'b', permission: 'p', label: 'l', input } },
    },
  })
  const request = (name: string, requestFields: Record<string, FieldDef>, stored = false) =>
    [name, { entity: name, label: 'x', stored, fields: requestFields }] as const
  const entities = new Map([
    request('approval', { price: { type: 'money', required: true }, remark: { type: 'string' } }),
    request('badApproval', {
      prize: { type: 'money' },
      state: { type: 'string' },
      files: { type: 'file' },
      contractNo: { type: 'integer' },
    }),
    request('storedThing', { price: { type: 'money' } }, true),
  ])

  it('accepts a request shape of fields the record has, and a remark', () => {
    expect(checkTransitionInput(entity('approval'), entities)).toEqual([])
  })

  it('refuses an unknown entity, a stored one, and fields the transition may not write', () => {
    expect(checkTransitionInput(entity('aproval'), entities).map((p) => [p.message, p.fix])).toEqual([
      ['unknown entity "aproval"', 'did you mean approval?'],
    ])
    expect(checkTransitionInput(entity('storedThing'), entities)[0]?.message).toBe(
      "storedThing is stored: a transition's input is a request shape",
    )
    expect(checkTransitionInput(entity('badApproval'), entities).map((p) => [p.path, p.message])).toEqual([
      ['states.transitions.approve.input', 'badApproval.prize is not a field of spa'],
      ['states.transitions.approve.input', 'badApproval.state is not a field of spa'],
      ['states.transitions.approve.input', 'spa.files is a file field: a transition does not write it'],
      ['states.transitions.approve.input', 'badApproval.contractNo is integer, spa.contractNo is string'],
    ])
  })
})

describe('checkClearWhen', () => {
  const search = (clearWhen: object) => [
    { field: 'state', op: 'in' as const, params: ['status'] },
    { field: 'createdAt', op: 'dateRange' as const },
    { field: 'fbaStatus', op: 'in' as const, clearWhen: clearWhen as never },
  ]
  it('reads the searchParams keys: a param, a range end, a field searched under its own name', () => {
    const when = {
      all: [
        { field: 'status', filled: true },
        { field: 'createdAtBegin', filled: true },
      ],
    }
    expect(checkClearWhen(search({ any: [when, { field: 'fbaStatus', in: [0] }] }), ['search'])).toEqual([])
  })
  it('an unknown key (the field name where a param renames it), with the likely one', () => {
    const problems = checkClearWhen(search({ all: [{ field: 'state', in: ['pending'] }] }), ['screens', 0, 'search'])
    expect(problems.map((p) => [p.path, p.message, p.fix])).toEqual([
      ['screens[0].search[2].clearWhen.all[0].field', 'unknown search key "state"', 'did you mean status?'],
    ])
  })
})

describe('uiRuleErrors', () => {
  it('points at the file, line and column of a section rule', () => {
    const entity = parseSource(
      '/p',
      '/p/schemas/inquiry.yaml',
      'entity: inquiry\nlabel: x\nfields:\n  origin: { type: string }\n  contractNo: { type: string }\n',
      'entity',
    )
    const screens = parseSource(
      '/p',
      '/p/screens/inquiry.yaml',
      [
        'area: inquiry',
        'label: x',
        'screens:',
        '  - name: s',
        '    entity: inquiry',
        '    form:',
        '      sections:',
        '        - title: t',
        '          fields: [contractNo]',
        '          rules: [{ effect: enable, when: { field: destination, filled: true } }]',
        '',
      ].join('\n'),
      'screens',
    )
    const sources: Sources = { root: '/p', files: [entity, screens], locales: {}, problems: [] }
    expect(uiRuleErrors(sources).map(formatError)).toEqual([
      'screens/inquiry.yaml:10:52 screens[0].form.sections[0].rules[0].when.field: unknown field "destination" of entity inquiry\n' +
        '    expected: one of origin, contractNo, id, version, createdAt, updatedAt, createdBy',
    ])
  })
})
