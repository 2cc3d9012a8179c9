import { type Kysely, sql } from 'kysely'

/**
 * The benchmark's data (issue #9): on top of the demo seed, `tenants - 2` more tenants and `orders` booking
 * orders in all, the demo tenant holding `bigTenant` of them, every tenth order with a shipment and three
 * tracking events. Deterministic: every value is a function of the row number (no random draws), so two
 * runs measure the same rows. Written by `insert … select … from generate_series`, in batches, so a million
 * rows take a minute rather than an hour; the engine's own tables and columns (schemas/order.yaml,
 * shipment.yaml, trackingEvent.yaml).
 */

export interface BenchPlan {
  tenants: number
  orders: number
  bigTenant: number
}

export const FULL_PLAN: BenchPlan = { tenants: 1_000, orders: 1_000_000, bigTenant: 200_000 }

const PORTS = ['CNSHA', 'CNNGB', 'CNSZX', 'CNQIN', 'CNTXG', 'HKHKG', 'SGSIN', 'KRPUS']
const DESTINATIONS = ['USLAX', 'USLGB', 'USNYC', 'NLRTM', 'DEHAM', 'BEANR', 'GBFXT', 'AUSYD']
const CARRIERS = ['MAEU', 'MSCU', 'CMDU', 'COSU', 'HLCU', 'ONEY', 'EGLV', 'ZIMU']
const STATES = ['submitted', 'accepted', 'booked', 'booked', 'booked', 'rejected', 'withdrawn', 'draft']
const BATCH = 50_000

const pick = (list: readonly string[], index: string) =>
  sql.raw(`(array[${list.map((v) => `'${v}'`).join(',')}])[1 + (${index}) % ${list.length}]`)

/** Adds the bench tenants and their orders; answers the order count per tenant code it made. */
export async function generateBenchData(db: Kysely<unknown>, plan: BenchPlan): Promise<{ orders: number }> {
  const demo = await sql<{ id: number }>`select id from tenant where code = 'demo'`.execute(db)
  const demoId = demo.rows[0]?.id as number
  const { rows: demoUser } = await sql<{ id: number; company: number }>`
    select u.id, c.id as company from app_user u join company c on c.tenant_id = u.tenant_id
    where u.tenant_id = ${demoId} and u.username = 'entadmin' and c.id = u.company_id`.execute(db)
  const customer = demoUser[0] as { id: number; company: number }

  await sql`
    insert into tenant (code, name_zh, name_en)
    select 'bench' || lpad(g::text, 4, '0'), '基准租户' || g, 'Bench tenant ' || g
    from generate_series(1, ${plan.tenants - 2}::int) g
    on conflict (code) do nothing`.execute(db)
  const { rows: benchTenants } = await sql<{ id: number }>`
    select id from tenant where code like 'bench%' order by id`.execute(db)
  const others = plan.orders - plan.bigTenant
  const perTenant = Math.floor(others / benchTenants.length)

  // Row n of the whole set: the demo tenant takes 1..bigTenant, the others perTenant each after that.
  const insertOrders = async (from: number, to: number) => {
    const n = sql.raw('g')
    await sql`
      insert into booking_order (tenant_id, created_by, customer_company, version, created_at, updated_at,
        order_no, business_ref_no, transport_mode, container_load_type, pol, pod, carrier, vessel, voyage,
        etd, eta, cargo_type, package_type, boxes, gross_weight, volume, shipper, consignee, containers, state,
        entrust_type, source)
      select
        case when ${n} <= ${sql.lit(plan.bigTenant)} then ${sql.lit(demoId)}
          else (${sql.raw(`(array[${benchTenants.map((t) => t.id).join(',')}])`)})[1 + ((${n} - ${sql.lit(plan.bigTenant)} - 1) / ${sql.lit(perTenant)}) % ${sql.lit(benchTenants.length)}] end,
        case when ${n} <= ${sql.lit(plan.bigTenant)} then ${sql.lit(customer.id)} else null end,
        case when ${n} <= ${sql.lit(plan.bigTenant)} then ${sql.lit(customer.company)} else null end,
        1,
        timestamptz '2025-01-01' + (${n} % 500) * interval '1 day' + (${n} % 1440) * interval '1 minute',
        timestamptz '2025-01-01' + (${n} % 500) * interval '1 day' + (${n} % 1440) * interval '1 minute',
        'BN' || lpad(${n}::text, 9, '0'),
        'PO-' || lpad((${n}::bigint * 7919 % 1000000)::text, 6, '0'),
        1,
        case when ${n} % 4 = 0 then 'LCL' else 'FCL' end,
        ${pick(PORTS, 'g')}, ${pick(DESTINATIONS, 'g / 8')}, ${pick(CARRIERS, 'g / 3')},
        'BENCH EXPRESS', lpad((${n} % 900 + 100)::text, 3, '0') || 'E',
        date '2025-01-10' + (${n} % 520), date '2025-01-10' + (${n} % 520) + 18 + (${n} % 12),
        case when ${n} % 4 = 0 then 'CFS' else 'FCL' end, 'CARTONS', 10 + ${n} % 900,
        round((1000 + ${n} % 20000)::numeric + 0.125, 3), round((5 + ${n} % 60)::numeric + 0.5, 3),
        'BENCH SHIPPER CO., LTD.' || chr(10) || 'NO. ' || (${n} % 999) || ' JIANGNAN ROAD' || chr(10) || 'NINGBO CHINA',
        'BENCH CONSIGNEE INC.' || chr(10) || (${n} % 9999) || ' HARBOR BLVD' || chr(10) || 'LONG BEACH CA USA',
        case when ${n} % 4 = 0 then null
          else jsonb_build_array(jsonb_build_object('containerType', '45G1', 'quantity', 1 + ${n} % 3)) end,
        ${pick(STATES, 'g / 5')}, 'entrusted', 'direct'
      from generate_series(${from}::int, ${to}::int) g`.execute(db)
  }
  const total = plan.bigTenant + perTenant * benchTenants.length
  for (let from = 1; from <= total; from += BATCH) await insertOrders(from, Math.min(total, from + BATCH - 1))

  // Every tenth order shipped: a shipment with its B/L and container, and three events.
  await sql`
    insert into shipment (tenant_id, created_by, version, booking_order, transport_mode, bl_no, containers,
      carrier, vessel, voyage, pol, pod, etd, eta, customer_company)
    select o.tenant_id, o.created_by, 1, o.id, 1, o.carrier || lpad(o.id::text, 9, '0'),
      jsonb_build_array(jsonb_build_object('containerNo', 'BNCU' || lpad((o.id % 1000000)::text, 6, '0') || '0',
        'sizeType', '45G1', 'sealNo', 'S' || o.id)),
      o.carrier, o.vessel, o.voyage, o.pol, o.pod, o.etd::timestamptz, o.eta::timestamptz, o.customer_company
    from booking_order o where o.order_no like 'BN%' and o.id % 10 = 0`.execute(db)
  await sql`
    insert into tracking_event (tenant_id, created_by, version, shipment, event_type, event_classifier_code,
      event_date_time, event_created_date_time, transport_event_type_code, un_location_code, vessel_name,
      carrier_voyage_number)
    select s.tenant_id, s.created_by, 1, s.id, 'TRANSPORT', case when k < 3 then 'ACT' else 'EST' end,
      s.etd + (k * 6) * interval '1 day', s.etd + (k * 6) * interval '1 day',
      case when k = 1 then 'DEPA' else 'ARRI' end, case when k = 1 then s.pol else s.pod end, s.vessel, s.voyage
    from shipment s cross join generate_series(1, 3) k where s.bl_no ~ '^[A-Z]{4}[0-9]{9}$'`.execute(db)
  await sql`analyze`.execute(db)
  return { orders: total }
}
