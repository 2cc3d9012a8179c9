/**
 * Ocean carriers by SCAC (Standard Carrier Alpha Code, assigned by NMFTA) and cargo airlines by IATA airline
 * designator with their three-digit air waybill prefix (the first three digits of an 11-digit AWB number).
 * Only currently operating carriers whose codes are published and in everyday use are listed.
 */

export interface OceanCarrier {
  /** SCAC, 2 to 4 upper-case letters, e.g. `MAEU`. */
  readonly scac: string
  readonly short_name: string
  readonly name_en: string
  readonly name_zh: string
}

export interface CargoAirline {
  /** IATA airline designator, two characters (letters or one digit), e.g. `CA`, `5X`. */
  readonly iata: string
  /** Three-digit airline accounting code that prefixes its air waybill numbers, e.g. `999`. */
  readonly awb_prefix: string
  readonly name_en: string
  readonly name_zh: string
}

type OceanRow = readonly [scac: string, short_name: string, name_en: string, name_zh: string]
type AirlineRow = readonly [iata: string, awb_prefix: string, name_en: string, name_zh: string]

export const OCEAN_CARRIERS: readonly OceanCarrier[] = Object.freeze(
  (
    [
      ['MAEU', 'Maersk', 'A.P. Moller-Maersk', '马士基'],
      ['MSCU', 'MSC', 'Mediterranean Shipping Company', '地中海航运'],
      ['CMDU', 'CMA CGM', 'CMA CGM', '达飞轮船'],
      ['COSU', 'COSCO', 'COSCO Shipping Lines', '中远海运集运'],
      ['HLCU', 'Hapag-Lloyd', 'Hapag-Lloyd', '赫伯罗特'],
      ['ONEY', 'ONE', 'Ocean Network Express', '海洋网联船务'],
      ['EGLV', 'Evergreen', 'Evergreen Marine', '长荣海运'],
      ['YMLU', 'Yang Ming', 'Yang Ming Marine Transport', '阳明海运'],
      ['HDMU', 'HMM', 'HMM (Hyundai Merchant Marine)', '现代商船'],
      ['ZIMU', 'ZIM', 'ZIM Integrated Shipping Services', '以星航运'],
      ['OOLU', 'OOCL', 'Orient Overseas Container Line', '东方海外'],
      ['PCIU', 'PIL', 'Pacific International Lines', '太平船务'],
      ['WHLC', 'Wan Hai', 'Wan Hai Lines', '万海航运'],
      ['SMLM', 'SM Line', 'SM Line', '森罗商船'],
      ['MATS', 'Matson', 'Matson Navigation', '美森轮船'],
      ['APLU', 'APL', 'American President Lines', '美国总统轮船'],
      ['ANNU', 'ANL', 'ANL Container Line', '澳国航运'],
      ['ACLU', 'ACL', 'Atlantic Container Line', '大西洋集装箱航运'],
      ['KMTU', 'KMTC', 'Korea Marine Transport Co.', '高丽海运'],
      ['SKLU', 'Sinokor', 'Sinokor Merchant Marine', '长锦商船'],
      ['ESPU', 'ESL', 'Emirates Shipping Line', '阿联酋航运'],
      ['ARKU', 'Arkas', 'Arkas Line', '阿卡斯航运'],
    ] satisfies readonly OceanRow[]
  ).map(([scac, short_name, name_en, name_zh]) => ({ scac, short_name, name_en, name_zh })),
)

export const CARGO_AIRLINES: readonly CargoAirline[] = Object.freeze(
  (
    [
      ['CA', '999', 'Air China', '中国国际航空'],
      ['MU', '781', 'China Eastern Airlines', '中国东方航空'],
      ['CZ', '784', 'China Southern Airlines', '中国南方航空'],
      ['CK', '112', 'China Cargo Airlines', '中国货运航空'],
      ['HU', '880', 'Hainan Airlines', '海南航空'],
      ['CX', '160', 'Cathay Pacific', '国泰航空'],
      ['CI', '297', 'China Airlines', '中华航空'],
      ['BR', '695', 'EVA Air', '长荣航空'],
      ['KE', '180', 'Korean Air', '大韩航空'],
      ['OZ', '988', 'Asiana Airlines', '韩亚航空'],
      ['NH', '205', 'All Nippon Airways', '全日空'],
      ['JL', '131', 'Japan Airlines', '日本航空'],
      ['SQ', '618', 'Singapore Airlines', '新加坡航空'],
      ['TG', '217', 'Thai Airways', '泰国国际航空'],
      ['MH', '232', 'Malaysia Airlines', '马来西亚航空'],
      ['VN', '738', 'Vietnam Airlines', '越南航空'],
      ['AI', '098', 'Air India', '印度航空'],
      ['EK', '176', 'Emirates', '阿联酋航空'],
      ['QR', '157', 'Qatar Airways', '卡塔尔航空'],
      ['EY', '607', 'Etihad Airways', '阿提哈德航空'],
      ['SV', '065', 'Saudia', '沙特阿拉伯航空'],
      ['TK', '235', 'Turkish Airlines', '土耳其航空'],
      ['ET', '071', 'Ethiopian Airlines', '埃塞俄比亚航空'],
      ['LH', '020', 'Lufthansa', '汉莎航空'],
      ['AF', '057', 'Air France', '法国航空'],
      ['KL', '074', 'KLM Royal Dutch Airlines', '荷兰皇家航空'],
      ['BA', '125', 'British Airways', '英国航空'],
      ['LX', '724', 'Swiss International Air Lines', '瑞士国际航空'],
      ['AY', '105', 'Finnair', '芬兰航空'],
      ['CV', '172', 'Cargolux', '卢森堡国际货运航空'],
      ['AA', '001', 'American Airlines', '美国航空'],
      ['UA', '016', 'United Airlines', '美国联合航空'],
      ['DL', '006', 'Delta Air Lines', '达美航空'],
      ['AC', '014', 'Air Canada', '加拿大航空'],
      ['FX', '023', 'FedEx Express', '联邦快递'],
      ['5X', '406', 'UPS Airlines', 'UPS航空'],
      ['PO', '403', 'Polar Air Cargo', '极地航空货运'],
      ['LA', '045', 'LATAM Airlines', 'LATAM航空'],
      ['QF', '081', 'Qantas', '澳洲航空'],
      ['NZ', '086', 'Air New Zealand', '新西兰航空'],
    ] satisfies readonly AirlineRow[]
  ).map(([iata, awb_prefix, name_en, name_zh]) => ({ iata, awb_prefix, name_en, name_zh })),
)
