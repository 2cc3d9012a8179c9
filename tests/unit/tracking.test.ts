import { describe, expect, it } from 'vitest'
import { parseTrackingNumbers } from '../../rules/trackingNumbers.ts'
import { DEFAULT_VISITOR_LIMIT, visitorLimit } from '../../server/domain/tracking/limits.ts'
import {
  customsLabels,
  dayStart,
  eventMark,
  navigationState,
  type StoredEvent,
  scheduleTime,
  shipmentMark,
  trackingSteps,
} from '../../server/domain/tracking/view.ts'

describe('parseTrackingNumbers (SPEC §5: up to 10 numbers)', () => {
  it('splits on commas, semicolons, spaces and new lines, classifies and de-duplicates', () => {
    const result = parseTrackingNumbers(
      ' csqu3054383,MSKU9070323；160-26034186\n16026034186  HY2603020001;CSQU3054383 ',
    )
    expect(result).toEqual({
      ok: true,
      numbers: [
        { number: 'CSQU3054383', kind: 'container' },
        { number: 'MSKU9070323', kind: 'container' },
        { number: '160-26034186', kind: 'airWaybill' },
        { number: 'HY2603020001', kind: 'reference' },
      ],
    })
  })

  it('refuses more than 10, none, a wrong check digit and a malformed number', () => {
    const eleven = Array.from({ length: 11 }, (_, i) => `HY26030200${String(i).padStart(2, '0')}`).join(' ')
    expect(parseTrackingNumbers(eleven)).toMatchObject({
      ok: false,
      error: { key: 'tracking.errorTooMany', params: { max: 10, count: 11 } },
    })
    expect(parseTrackingNumbers(eleven.split(' ').slice(0, 10).join(' ')).ok).toBe(true)
    expect(parseTrackingNumbers(' ;, \n')).toMatchObject({ ok: false, error: { key: 'tracking.errorEmpty' } })
    expect(parseTrackingNumbers('CSQU3054384')).toMatchObject({
      ok: false,
      error: { key: 'tracking.errorContainerCheck', params: { number: 'CSQU3054384' } },
    })
    expect(parseTrackingNumbers('160-26034187')).toMatchObject({
      ok: false,
      error: { key: 'tracking.errorAirWaybillCheck' },
    })
    expect(parseTrackingNumbers('AB')).toMatchObject({ ok: false, error: { key: 'tracking.errorMalformed' } })
    expect(parseTrackingNumbers('HY2603020001 CSQU3054383 <x>')).toMatchObject({
      ok: false,
      error: { key: 'tracking.errorMalformed', params: { number: '<x>' } },
    })
  })
})

const NOW = new Date('2026-03-10T12:00:00Z')
const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3_600_000)
let nextId = 1
function event(partial: Partial<StoredEvent>): StoredEvent {
  return {
    id: nextId++,
    eventType: 'SHIPMENT',
    eventClassifierCode: 'ACT',
    eventDateTime: hoursAgo(100),
    eventCreatedDateTime: hoursAgo(100),
    shipmentEventTypeCode: null,
    documentTypeCode: null,
    transportEventTypeCode: null,
    equipmentEventTypeCode: null,
    equipmentReference: null,
    emptyIndicatorCode: null,
    unLocationCode: null,
    vesselName: null,
    carrierVoyageNumber: null,
    correctsEvent: null,
    remark: null,
    ...partial,
  }
}
const shipment = { pol: 'CNSHA', pod: 'USLAX', cancelled: false, createdAt: hoursAgo(500) }

describe('tracking view', () => {
  it('reads the steps from actual events; an arrival at a transshipment port does not count', () => {
    const events = [
      event({ shipmentEventTypeCode: 'CONF', documentTypeCode: 'BKG' }),
      event({ eventType: 'TRANSPORT', transportEventTypeCode: 'DEPA', unLocationCode: 'CNSHA' }),
      event({ eventType: 'TRANSPORT', transportEventTypeCode: 'ARRI', unLocationCode: 'KRPUS' }),
      event({
        eventType: 'TRANSPORT',
        eventClassifierCode: 'EST',
        transportEventTypeCode: 'ARRI',
        unLocationCode: 'USLAX',
      }),
    ]
    const steps = trackingSteps(shipment, events)
    expect(steps.map((s) => s.done)).toEqual([true, false, true, false])
    expect(navigationState(shipment, steps)).toBe('underWay')
    expect(navigationState({ ...shipment, cancelled: true }, steps)).toBe('cancelled')
  })

  it('ignores a corrected event and labels customs declared, examined, released', () => {
    const wrong = event({ eventType: 'TRANSPORT', transportEventTypeCode: 'ARRI', unLocationCode: 'USLAX' })
    const events = [
      wrong,
      event({
        eventType: 'TRANSPORT',
        transportEventTypeCode: 'DEPA',
        unLocationCode: 'USLAX',
        correctsEvent: wrong.id,
      }),
      event({ shipmentEventTypeCode: 'SUBM', documentTypeCode: 'CUS', eventDateTime: hoursAgo(30) }),
      event({ eventType: 'EQUIPMENT', equipmentEventTypeCode: 'INSP', eventDateTime: hoursAgo(20) }),
      event({ shipmentEventTypeCode: 'RELS', documentTypeCode: 'CUS', eventDateTime: hoursAgo(10) }),
    ]
    expect(trackingSteps(shipment, events).find((s) => s.step === 'arrival')?.done).toBe(false)
    expect(customsLabels(events).map((c) => c.label)).toEqual(['declared', 'examined', 'released'])
  })

  it('colours by SPEC §9: changed 24 h over added 24 h over added 48 h; cancelled grey', () => {
    const added = event({ eventCreatedDateTime: hoursAgo(3) })
    const older = event({ eventCreatedDateTime: hoursAgo(30) })
    const change = event({ eventCreatedDateTime: hoursAgo(5), correctsEvent: older.id })
    expect([eventMark(added, NOW), eventMark(older, NOW), eventMark(change, NOW)]).toEqual([
      'new24',
      'new48',
      'changed24',
    ])
    expect(eventMark(event({ eventCreatedDateTime: hoursAgo(49) }), NOW)).toBeNull()
    expect(shipmentMark(shipment, [older], NOW)).toBe('new48')
    expect(shipmentMark(shipment, [older, added], NOW)).toBe('new24')
    expect(shipmentMark(shipment, [older, added, change], NOW)).toBe('changed24')
    expect(shipmentMark({ ...shipment, cancelled: true }, [change], NOW)).toBe('cancelled')
    expect(shipmentMark(shipment, [event({})], NOW)).toBeNull()
  })

  it("reads the tenant's visitor allowance: a number, unlimited, or the default", () => {
    expect(visitorLimit({ configuration: { visitorQueryLimit: 5 } })).toBe(5)
    expect(visitorLimit({ configuration: { visitorQueryLimit: 'unlimited' } })).toBeNull()
    expect(visitorLimit({})).toBe(DEFAULT_VISITOR_LIMIT)
    expect(visitorLimit({ configuration: { visitorQueryLimit: -1 } })).toBe(DEFAULT_VISITOR_LIMIT)
  })
})

describe('a schedule known only to the day (issue #16)', () => {
  it("answers the order's day while the stored value is still its midnight UTC, else the instant", () => {
    expect(scheduleTime(dayStart('2026-12-10'), '2026-12-10')).toBe('2026-12-10')
    expect(scheduleTime('2026-12-10T00:00:00.000Z', '2026-12-10')).toBe('2026-12-10')
    // A carrier's estimate moved it: a moment, even on the same day.
    expect(scheduleTime(new Date('2026-12-10T08:00:00Z'), '2026-12-10')).toBe('2026-12-10T08:00:00.000Z')
    // No order (or none with a day): the stored instant.
    expect(scheduleTime(dayStart('2026-12-10'), null)).toBe('2026-12-10T00:00:00.000Z')
    expect(scheduleTime(null, '2026-12-10')).toBeNull()
  })
})
