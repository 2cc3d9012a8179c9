/**
 * Container equipment by ISO 6346 size-type code (two size characters, then a type code). `label` is the
 * portal's "size'type" form (SPEC §3, sea equipment). Payload and volume are typical figures for current
 * equipment; each carrier publishes its own, so treat them as defaults for the container settings screen.
 */

/** ISO 6346 type groups used here: GP general purpose, RE refrigerated, UT open top, PF flat rack, TN tank. */
export type ContainerTypeGroup = 'GP' | 'RE' | 'UT' | 'PF' | 'TN'

export interface ContainerType {
  /** ISO 6346 size-type code, e.g. `45G1`. */
  readonly code: string
  /** Size in feet, an apostrophe, then the portal's type abbreviation, e.g. `40'HQ`. */
  readonly label: string
  readonly length_ft: 20 | 40 | 45
  /** Nominal external height in feet (ISO 6346 second size character: 2 = 8.5 ft, 5 = 9.5 ft high cube). */
  readonly height_ft: 8.5 | 9.5
  readonly type_group: ContainerTypeGroup
  /** Typical maximum payload in metric tons. */
  readonly payload_t: number
  /** Typical internal capacity in cubic metres; null for flat racks, which have no enclosed volume. */
  readonly volume_cbm: number | null
  readonly description_en: string
  readonly description_zh: string
}

export const CONTAINER_TYPES: readonly ContainerType[] = Object.freeze([
  {
    code: '22G1',
    label: "20'GP",
    length_ft: 20,
    height_ft: 8.5,
    type_group: 'GP',
    payload_t: 28.2,
    volume_cbm: 33.2,
    description_en: '20-foot general-purpose dry container',
    description_zh: '20英尺普通干货箱',
  },
  {
    code: '42G1',
    label: "40'GP",
    length_ft: 40,
    height_ft: 8.5,
    type_group: 'GP',
    payload_t: 26.7,
    volume_cbm: 67.7,
    description_en: '40-foot general-purpose dry container',
    description_zh: '40英尺普通干货箱',
  },
  {
    code: '45G1',
    label: "40'HQ",
    length_ft: 40,
    height_ft: 9.5,
    type_group: 'GP',
    payload_t: 26.5,
    volume_cbm: 76.3,
    description_en: '40-foot high-cube dry container',
    description_zh: '40英尺高柜',
  },
  {
    code: '22R1',
    label: "20'RF",
    length_ft: 20,
    height_ft: 8.5,
    type_group: 'RE',
    payload_t: 27.4,
    volume_cbm: 28.3,
    description_en: '20-foot refrigerated container',
    description_zh: '20英尺冷藏箱',
  },
  {
    code: '45R1',
    label: "40'RH",
    length_ft: 40,
    height_ft: 9.5,
    type_group: 'RE',
    payload_t: 29.5,
    volume_cbm: 67.5,
    description_en: '40-foot high-cube refrigerated container',
    description_zh: '40英尺高柜冷藏箱',
  },
  {
    code: '22U1',
    label: "20'OT",
    length_ft: 20,
    height_ft: 8.5,
    type_group: 'UT',
    payload_t: 28.1,
    volume_cbm: 32.5,
    description_en: '20-foot open-top container',
    description_zh: '20英尺开顶箱',
  },
  {
    code: '42U1',
    label: "40'OT",
    length_ft: 40,
    height_ft: 8.5,
    type_group: 'UT',
    payload_t: 26.6,
    volume_cbm: 65.9,
    description_en: '40-foot open-top container',
    description_zh: '40英尺开顶箱',
  },
  {
    code: '22P1',
    label: "20'FR",
    length_ft: 20,
    height_ft: 8.5,
    type_group: 'PF',
    payload_t: 27.9,
    volume_cbm: null,
    description_en: '20-foot flat rack with fixed ends',
    description_zh: '20英尺框架箱',
  },
  {
    code: '42P1',
    label: "40'FR",
    length_ft: 40,
    height_ft: 8.5,
    type_group: 'PF',
    payload_t: 39.2,
    volume_cbm: null,
    description_en: '40-foot flat rack with fixed ends',
    description_zh: '40英尺框架箱',
  },
  {
    code: '22T1',
    label: "20'TK",
    length_ft: 20,
    height_ft: 8.5,
    type_group: 'TN',
    payload_t: 26.0,
    volume_cbm: 24.0,
    description_en: '20-foot tank container for non-dangerous liquids',
    description_zh: '20英尺罐式集装箱（非危险液体）',
  },
  {
    code: 'L5G1',
    label: "45'HQ",
    length_ft: 45,
    height_ft: 9.5,
    type_group: 'GP',
    payload_t: 27.7,
    volume_cbm: 86.0,
    description_en: '45-foot high-cube dry container',
    description_zh: '45英尺高柜',
  },
] satisfies readonly ContainerType[])
