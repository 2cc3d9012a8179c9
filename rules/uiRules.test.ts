import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { UiCondition, UiRule } from '../model/definitions.ts'
import { conditionHolds, fieldRulesOf, ignoredOnWrite, inactiveFields, ruleState, withoutInactive } from './uiRules.ts'

const routeChosen: UiCondition = {
  all: [
    { field: 'origin', filled: true },
    { field: 'destination', filled: true },
  ],
}

describe('conditions', () => {
  it('filled: a value, not empty text, null or an empty list', () => {
    for (const value of ['x', 0, false, [1]])
      expect(conditionHolds({ field: 'a', filled: true }, { a: value })).toBe(true)
    for (const value of [undefined, null, '', []])
      expect(conditionHolds({ field: 'a', filled: true }, { a: value })).toBe(false)
    expect(conditionHolds({ field: 'a', filled: false }, {})).toBe(true)
  })

  it('equals compares values as they are (1 is not "1")', () => {
    expect(conditionHolds({ field: 'insurance', equals: true }, { insurance: true })).toBe(true)
    expect(conditionHolds({ field: 'mode', equals: 1 }, { mode: '1' })).toBe(false)
  })

  it('in: the value, or any item of a list value, among the values', () => {
    expect(conditionHolds({ field: 'transportModes', in: [1, 2] }, { transportModes: [3, 2] })).toBe(true)
    expect(conditionHolds({ field: 'transportModes', in: [1, 2] }, { transportModes: [3, 4] })).toBe(false)
    expect(conditionHolds({ field: 'mode', in: ['sea'] }, { mode: 'sea' })).toBe(true)
    expect(conditionHolds({ field: 'mode', in: ['sea'] }, {})).toBe(false)
  })

  it('all, any and not combine', () => {
    expect(conditionHolds(routeChosen, { origin: 1, destination: 2 })).toBe(true)
    expect(conditionHolds(routeChosen, { origin: 1 })).toBe(false)
    expect(
      conditionHolds(
        {
          any: [
            { field: 'a', filled: true },
            { field: 'b', filled: true },
          ],
        },
        { b: 1 },
      ),
    ).toBe(true)
    expect(conditionHolds({ not: routeChosen }, { origin: 1 })).toBe(true)
  })

  it('a condition nested deeper than the evaluator reads never holds', () => {
    let deep: UiCondition = { field: 'a', filled: false }
    for (let i = 0; i < 6; i++) deep = { not: { not: deep } }
    expect(conditionHolds(deep, {})).toBe(false)
  })
})

describe('effects', () => {
  it('disable holds while, enable until; hide and show likewise', () => {
    expect(ruleState([{ effect: 'enable', when: routeChosen }], {})).toEqual({ hidden: false, disabled: true })
    expect(ruleState([{ effect: 'enable', when: routeChosen }], { origin: 1, destination: 2 })).toEqual({
      hidden: false,
      disabled: false,
    })
    expect(ruleState([{ effect: 'disable', when: { field: 'x', filled: true } }], { x: 1 }).disabled).toBe(true)
    expect(ruleState([{ effect: 'show', when: { field: 'insurance', equals: true } }], {}).hidden).toBe(true)
    expect(ruleState([{ effect: 'hide', when: { field: 'insurance', equals: true } }], {}).hidden).toBe(false)
    expect(ruleState(undefined, {})).toEqual({ hidden: false, disabled: false })
  })

  it('a field gets its own rules and those of its section', () => {
    const rules = fieldRulesOf(
      { goodsValue: { rules: [{ effect: 'show', when: { field: 'insurance', equals: true } }] }, origin: {} },
      [{ fields: ['insurance', 'goodsValue'], rules: [{ effect: 'enable', when: routeChosen }] }],
    )
    expect(rules.get('goodsValue')).toHaveLength(2)
    expect(rules.get('insurance')).toHaveLength(1)
    expect(rules.has('origin')).toBe(false)
    expect([...inactiveFields(rules, { origin: 1, destination: 2, insurance: false }).keys()]).toEqual(['goodsValue'])
  })
})

describe('the record as written', () => {
  const rules = fieldRulesOf(
    {
      pickUpAddress: { rules: [{ effect: 'show', when: { field: 'needPickUp', equals: true } }] },
    },
    [{ fields: ['needPickUp', 'pickUpAddress', 'contractNo'], rules: [{ effect: 'enable', when: routeChosen }] }],
  )

  it('leaves out what the rules disable, and what those fields alone kept open', () => {
    const data = { origin: 1, needPickUp: true, pickUpAddress: 'Dock 4', contractNo: 'C-1' }
    expect(withoutInactive(rules, data)).toEqual({ origin: 1 })
    expect([...ignoredOnWrite(rules, data)].sort()).toEqual(['contractNo', 'needPickUp', 'pickUpAddress'])
    const open = { ...data, destination: 2 }
    expect(withoutInactive(rules, open)).toEqual(open)
    expect(withoutInactive(rules, { ...open, needPickUp: false })).toEqual({
      origin: 1,
      destination: 2,
      needPickUp: false,
      contractNo: 'C-1',
    })
  })

  const names = ['a', 'b', 'c', 'd']
  const leaf: fc.Arbitrary<UiCondition> = fc.oneof(
    fc.record({ field: fc.constantFrom(...names), filled: fc.boolean() }),
    fc.record({ field: fc.constantFrom(...names), equals: fc.constantFrom(1, 2, true, 'x') }),
    fc.record({
      field: fc.constantFrom(...names),
      in: fc.array(fc.constantFrom(1, 2, 'x'), { minLength: 1, maxLength: 3 }),
    }),
  )
  const condition: fc.Arbitrary<UiCondition> = fc.oneof(
    leaf,
    fc.record({ all: fc.array(leaf, { minLength: 1, maxLength: 3 }) }),
    fc.record({ any: fc.array(leaf, { minLength: 1, maxLength: 3 }) }),
    fc.record({ not: leaf }),
  )
  const rule: fc.Arbitrary<UiRule> = fc.record({
    effect: fc.constantFrom('show', 'hide', 'enable', 'disable'),
    when: condition,
  })
  const ruleSet = fc.dictionary(fc.constantFrom(...names), fc.array(rule, { minLength: 1, maxLength: 2 }))
  const record = fc.dictionary(fc.constantFrom(...names), fc.constantFrom(1, 2, true, false, 'x', '', null, [1, 'x']))

  it('keeps nothing a rule turns off for the record kept, and gives that record back unchanged', () => {
    fc.assert(
      fc.property(ruleSet, record, (byField, data) => {
        const rules = new Map(Object.entries(byField))
        const kept = withoutInactive(rules, data)
        for (const name of inactiveFields(rules, kept).keys()) expect(Object.hasOwn(kept, name)).toBe(false)
        expect(withoutInactive(rules, kept)).toEqual(kept)
        for (const [name, value] of Object.entries(kept)) expect(data[name]).toBe(value)
        expect(ignoredOnWrite(rules, kept).size).toBe(0)
      }),
      { seed: 19, numRuns: 500 },
    )
  })

  it('show is hide of the negated condition, enable is disable of it', () => {
    fc.assert(
      fc.property(condition, record, (when, data) => {
        expect(ruleState([{ effect: 'show', when }], data).hidden).toBe(
          ruleState([{ effect: 'hide', when: { not: when } }], data).hidden,
        )
        expect(ruleState([{ effect: 'enable', when }], data).disabled).toBe(
          ruleState([{ effect: 'disable', when: { not: when } }], data).disabled,
        )
      }),
      { seed: 19, numRuns: 300 },
    )
  })
})

describe('setting conditions (issue #25): a feature flag of the tenant', () => {
  const agentShown: UiRule[] = [{ effect: 'show', when: { setting: 'hasBookingAgent' } }]
  const seaTerms: UiRule[] = [
    { effect: 'show', when: { all: [{ setting: 'showSeaFreightTerms' }, { field: 'transportMode', equals: 1 }] } },
  ]

  it('holds only while the setting is exactly true; without settings every flag reads off', () => {
    expect(conditionHolds({ setting: 'hasBookingAgent' }, {}, { settings: { hasBookingAgent: true } })).toBe(true)
    expect(conditionHolds({ setting: 'hasBookingAgent' }, {}, { settings: { hasBookingAgent: 'true' } })).toBe(false)
    expect(conditionHolds({ setting: 'hasBookingAgent' }, {}, { settings: { hasBookingAgent: false } })).toBe(false)
    expect(conditionHolds({ setting: 'hasBookingAgent' }, {}, { settings: null })).toBe(false)
    expect(conditionHolds({ setting: 'hasBookingAgent' }, {})).toBe(false)
    // A record's own field of the same name is not the setting.
    expect(conditionHolds({ setting: 'hasBookingAgent' }, { hasBookingAgent: true })).toBe(false)
    expect(conditionHolds({ not: { setting: 'specialMode' } }, {}, { settings: { specialMode: true } })).toBe(false)
  })

  it('hides a field while its feature is off, and joins the record in all/any', () => {
    const rules = fieldRulesOf({ bookingAgent: { rules: agentShown }, serviceTerm: { rules: seaTerms } })
    const order = { transportMode: 1, bookingAgent: 3, serviceTerm: 'CY-CY' }
    const on = { settings: { hasBookingAgent: true, showSeaFreightTerms: true } }
    expect(withoutInactive(rules, order, on)).toEqual(order)
    expect(withoutInactive(rules, order, { settings: { hasBookingAgent: true } })).toEqual({
      transportMode: 1,
      bookingAgent: 3,
    })
    expect(withoutInactive(rules, { ...order, transportMode: 2 }, on)).toEqual({ transportMode: 2, bookingAgent: 3 })
    expect([...ignoredOnWrite(rules, order, {})].sort()).toEqual(['bookingAgent', 'serviceTerm'])
    expect(ruleState(agentShown, {}, {})).toEqual({ hidden: true, disabled: false })
    expect(inactiveFields(rules, order, on).size).toBe(0)
  })
})
