import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { withTenant } from '../../server/tenancy/scope.ts'
import { setupTestApp } from '../support/app.ts'
import { bearerCalls } from '../support/calls.ts'
import { inDays, now } from '../support/clock.ts'

/**
 * Issue #23, operating orders (job files): the two lists with SPEC §3's search fields and their walls, the
 * approval (jobAuditRecord count, detail, approve), the ETD edit limit of the site settings, the review
 * receivers' letter, and the usages with their append-only history.
 */

const test = setupTestApp()

const { call, answer, ok } = bearerCalls(test)

interface Job {
  id: number
  version: number
  jobNo: string
  approveState: string
  customerCompany: number
  usages: { containerType: string; quantity: number }[] | null
}

const list = async (token: string, searchParams: Record<string, unknown> = {}, host = 'localhost') =>
  (await ok('POST', '/api/booking/cargo/job/list', token, { searchParams, pageSize: 100 }, { host })) as {
    list: Job[]
    total: number
  }
const count = async (token: string, host = 'localhost') =>
  (await ok('GET', '/api/booking/jobAuditRecord/count', token, undefined, { host })) as number

let demo = 0
const users: Record<string, number> = {}
let confirmedOrder = 0
let draftOrder = 0

async function tenantId(code: string) {
  return (await test.database.db.selectFrom('tenant').select('id').where('code', '=', code).executeTakeFirstOrThrow())
    .id
}

/** Changes the demo tenant's site settings for one test, as the tenant's settings screen would. */
async function withSettings<T>(changes: Record<string, unknown>, work: () => Promise<T>): Promise<T> {
  const db = test.database.db
  const row = await db.selectFrom('tenant').select('settings').where('id', '=', demo).executeTakeFirstOrThrow()
  const before = row.settings as Record<string, unknown>
  await db
    .updateTable('tenant')
    .set({ settings: JSON.stringify({ ...before, ...changes }) })
    .where('id', '=', demo)
    .execute()
  try {
    return await work()
  } finally {
    await db
      .updateTable('tenant')
      .set({ settings: JSON.stringify(before) })
      .where('id', '=', demo)
      .execute()
  }
}

let serial = 0
/** A job file the operator opens on the confirmed order, sailing `etd`. */
async function openJob(operator: string, fields: Record<string, unknown> = {}): Promise<Job> {
  serial += 1
  return ok('POST', '/api/booking/cargo/job/add', operator, {
    order: confirmedOrder,
    jobNo: `TESTJOB-${serial}`,
    etd: inDays(10),
    pol: 'CNSHA',
    pod: 'USLAX',
    containerLoadType: 'FCL',
    lob: 'seaExport',
    bookingState: 0,
    ...fields,
  })
}

beforeAll(async () => {
  demo = await tenantId('demo')
  await withTenant(test.database.db, demo, async (trx) => {
    for (const row of await trx.selectFrom('app_user').select(['id', 'username']).execute())
      users[row.username] = row.id
    const confirmed = await sql<{ id: number }>`
      select id from booking_order where state = 'accepted' order by id limit 1`.execute(trx)
    const draft = await sql<{
      id: number
    }>`select id from booking_order where state = 'draft' order by id limit 1`.execute(trx)
    confirmedOrder = confirmed.rows[0]?.id as number
    draftOrder = draft.rows[0]?.id as number
  })
})

describe('the operating order lists', () => {
  it('answer the seeded job files with every SPEC §3 search field, to operators and to their customer', async () => {
    const operator = await test.login('opadmin')
    const customer = await test.login('entadmin')
    const all = await list(operator)
    // One job file per confirmed seeded order: six booked (approved), three accepted (pending).
    expect(all.total).toBe(9)
    expect(all.list.filter((job) => job.approveState === 'pending')).toHaveLength(3)
    expect((await list(customer)).total).toBe(9)
    const one = all.list[0] as Job & Record<string, string>
    const searches: Record<string, unknown>[] = [
      { jobNo: one.jobNo.slice(2, 8) },
      { customerRefNo: one.customerRefNo },
      { pol: one.pol },
      { pod: one.pod },
      { beginDate: one.etd, endDate: one.etd },
      { containerLoadType: one.containerLoadType },
      { lob: 'seaExport' },
      { salesChannel: one.salesChannel },
      { channelNo: one.channelNo },
      { approveState: [one.approveState] },
      { bookingState: one.bookingState },
    ]
    for (const searchParams of searches) {
      const found = await list(operator, searchParams)
      expect(
        found.list.map((job) => job.id),
        JSON.stringify(searchParams),
      ).toContain(one.id)
    }
    const booked = all.list.find((job) => (job as Job & { mbl?: string }).mbl) as Job & { mbl: string; hbl: string }
    expect((await list(operator, { mbl: booked.mbl })).list.map((job) => job.id)).toEqual([booked.id])
    expect((await list(operator, { hbl: booked.hbl })).list.map((job) => job.id)).toEqual([booked.id])
    expect((await list(operator, { approveState: ['pending'] })).total).toBe(3)
    expect((await list(operator, { lob: 'airImport' })).total).toBe(0)
    expect((await list(operator, { beginDate: inDays(1), endDate: inDays(1) })).total).toBe(1)
    // An undeclared search key is refused, as on every engine list.
    const unknown = await answer('POST', '/api/booking/cargo/job/list', operator, { searchParams: { state: 'x' } })
    expect(unknown.code).toBe('validation')
  })

  it('keep each tenant and each customer to their own job files', async () => {
    const acmeOperator = await test.login('opadmin', 'acme.localhost')
    const acmeJobs = await list(acmeOperator, {}, 'acme.localhost')
    expect(acmeJobs.total).toBe(2)
    const demoJobs = await list(await test.login('opadmin'))
    const demoIds = new Set(demoJobs.list.map((job) => job.id))
    expect(acmeJobs.list.some((job) => demoIds.has(job.id))).toBe(false)
    const demoJob = demoJobs.list[0] as Job
    const foreign = await call('GET', `/api/booking/cargo/job/detail?id=${demoJob.id}`, acmeOperator, undefined, {
      host: 'acme.localhost',
    })
    expect(foreign.statusCode).toBe(404)
    const history = await call(
      'GET',
      `/api/booking/cargo/job/getUsageHistories?id=${demoJob.id}`,
      acmeOperator,
      undefined,
      { host: 'acme.localhost' },
    )
    expect(history.statusCode).toBe(404)
    // Another enterprise of the same tenant sees none of Minghui's job files.
    const otherCustomer = await test.login('nbclerk')
    const theirs = await call('POST', '/api/booking/cargo/job/list', otherCustomer, { searchParams: {} })
    if (theirs.json().code === '0000') expect(theirs.json().content.total).toBe(0)
    else expect(theirs.json().code).toBe('220000')
    expect(await count(acmeOperator, 'acme.localhost')).toBe(1)
  })

  it('open a job file only for a confirmed order, with its customer', async () => {
    const operator = await test.login('opadmin')
    const job = await openJob(operator)
    const company = await withTenant(test.database.db, demo, async (trx) =>
      sql<{
        customer_company: number
      }>`select customer_company from booking_order where id = ${confirmedOrder}`.execute(trx),
    )
    expect(job.customerCompany).toBe(company.rows[0]?.customer_company)
    expect(job.approveState).toBe('pending')
    const refused = await answer('POST', '/api/booking/cargo/job/add', operator, {
      order: draftOrder,
      jobNo: 'TESTJOB-DRAFT',
      etd: inDays(10),
      pol: 'CNSHA',
      pod: 'USLAX',
      containerLoadType: 'FCL',
      lob: 'seaExport',
      bookingState: 0,
    })
    expect(refused.code).toBe('validation')
    expect(refused.content.fieldErrors[0]).toMatchObject({ field: 'order' })
    // A customer cannot open one.
    const customer = await answer('POST', '/api/booking/cargo/job/add', await test.login('entadmin'), {})
    expect(customer.code).toBe('220000')
  })
})

describe('approval', () => {
  it('moves the pending count by one, for operators and the customer alike, and says who approved', async () => {
    const operator = await test.login('opadmin')
    const customer = await test.login('entadmin')
    const pending = (await list(operator, { approveState: ['pending'] })).list
    const before = await count(operator)
    expect(before).toBe(pending.length)
    expect(await count(customer)).toBe(before)
    const job = pending[0] as Job
    const record = await ok('POST', '/api/booking/jobAuditRecord/approve', operator, {
      id: job.id,
      version: job.version,
      remark: 'Schedule checked',
    })
    expect(record).toMatchObject({
      id: job.id,
      approveState: 'approved',
      approvedBy: users.opadmin,
      remark: 'Schedule checked',
    })
    expect(await count(operator)).toBe(before - 1)
    expect(await count(customer)).toBe(before - 1)
    const detail = await ok('GET', `/api/booking/jobAuditRecord/detail?id=${job.id}`, customer)
    expect(detail).toMatchObject({ jobNo: job.jobNo, approveState: 'approved', approvedBy: users.opadmin })
    // Approved once: again is the state's refusal; a stale version is the version's; a customer may not.
    const again = await answer('POST', '/api/booking/jobAuditRecord/approve', operator, {
      id: job.id,
      version: record.version,
    })
    expect(again.code).toBe('320001')
    const other = pending[1] as Job
    const stale = await answer('POST', '/api/booking/jobAuditRecord/approve', operator, {
      id: other.id,
      version: other.version + 1,
    })
    expect(stale.code).toBe('330002')
    const denied = await answer('POST', '/api/booking/jobAuditRecord/approve', customer, {
      id: other.id,
      version: other.version,
    })
    expect(denied.code).toBe('220000')
    expect(await count(operator)).toBe(before - 1)
  })

  it("tells the site settings' review receivers of each job file awaiting approval, not the operator who opened it", async () => {
    const operator = await test.login('opadmin')
    const job = await openJob(operator)
    const { rows } = await withTenant(test.database.db, demo, (trx) =>
      sql<{ recipient: number; title: string; link: string }>`
        select recipient, title, link from letter
        where event = 'operatingOrderAwaitingApproval' and link = ${`/seaOperatingOrderDetail?id=${job.id}`}
        order by id`.execute(trx),
    )
    // The seed names opadmin and opcs; opadmin opened it. The customer hears nothing of the desk's approval.
    expect(rows.map((row) => row.recipient)).toEqual([users.opcs])
    expect(rows[0]?.title).toContain(job.jobNo)
  })
})

describe('the ETD edit limit', () => {
  const update = (token: string, job: Job, changes: Record<string, unknown>) =>
    answer('POST', '/api/booking/cargo/job/update', token, { id: job.id, version: job.version, ...changes })

  it('allows a change inside the limit and refuses one past ETD less the limit, in the caller’s language', async () => {
    const operator = await test.login('opadmin')
    const inside = await openJob(operator, { etd: inDays(2) })
    const changed = await update(operator, inside, { customerRefNo: 'PO-INSIDE' })
    expect(changed.code).toBe('0000')
    // ETD tomorrow with the seeded 24 hours: closed since today's 00:00 in Shanghai.
    const past = await openJob(operator, { etd: inDays(1) })
    const refused = await update(operator, past, { customerRefNo: 'PO-PAST' })
    expect(refused.code).toBe('320003')
    expect(refused.message).toMatch(/can no longer be modified/)
    const zh = await test.app.inject({
      method: 'POST',
      url: '/api/booking/cargo/job/update',
      headers: { host: 'localhost', language: 'zh_CN', authorization: `Bearer ${operator}` },
      payload: { id: past.id, version: past.version, customerRefNo: 'PO-PAST' },
    })
    expect(zh.json()).toMatchObject({ code: '320003', message: expect.stringContaining('不能修改') })
    // The customer is refused alike; the record is unchanged.
    expect((await update(await test.login('entadmin'), past, { customerRefNo: 'PO-PAST' })).code).toBe('320003')
    const stored = await ok('GET', `/api/booking/cargo/job/detail?id=${past.id}`, operator)
    expect(stored.customerRefNo ?? null).toBeNull()
  })

  it('counts the hours of operatingOrderLimitValue, and closes at the last modification time too', async () => {
    const operator = await test.login('opadmin')
    const job = await openJob(operator, { etd: inDays(4) })
    // 96 hours before an ETD four days ahead is already past (the ETD's day starts at 00:00).
    await withSettings({ operatingOrderLimitValue: 96 }, async () => {
      expect((await update(operator, job, { channelNo: 'CH-96' })).code).toBe('320003')
    })
    await withSettings({ operatingOrderLimitValue: 48 }, async () => {
      expect((await update(operator, job, { channelNo: 'CH-48' })).code).toBe('0000')
    })
    const until = await openJob(operator, {
      etd: inDays(20),
      lastModifyTime: new Date(now().getTime() - 60_000).toISOString(),
    })
    expect((await update(operator, until, { channelNo: 'CH-UNTIL' })).code).toBe('320003')
  })

  it('holds only while operatingOrderIfModify is on, and only for the lines of business of operatingOrderLob', async () => {
    const operator = await test.login('opadmin')
    const job = await openJob(operator, { etd: inDays(1) })
    await withSettings({ operatingOrderIfModify: false }, async () => {
      expect((await update(operator, job, { channelNo: 'CH-OFF' })).code).toBe('0000')
    })
    const fresh = await ok('GET', `/api/booking/cargo/job/detail?id=${job.id}`, operator)
    await withSettings({ operatingOrderLob: ['airExport'] }, async () => {
      expect((await update(operator, fresh, { channelNo: 'CH-AIR' })).code).toBe('0000')
    })
    const again = await ok('GET', `/api/booking/cargo/job/detail?id=${job.id}`, operator)
    await withSettings({ operatingOrderLob: ['seaExport'] }, async () => {
      expect((await update(operator, again, { channelNo: 'CH-SEA' })).code).toBe('320003')
    })
  })
})

describe('usages', () => {
  it('are changed by updateUsages, each change an append-only history row, newest first', async () => {
    const operator = await test.login('opadmin')
    const job = await openJob(operator, { usages: [{ containerType: '45G1', quantity: 1 }] })
    const first = await ok('POST', '/api/booking/cargo/job/updateUsages', operator, {
      id: job.id,
      version: job.version,
      usages: [{ containerType: '45G1', quantity: 2 }],
    })
    expect(first.usages).toEqual([{ containerType: '45G1', quantity: 2, remark: null }])
    const second = await ok('POST', '/api/booking/cargo/job/updateUsages', operator, {
      id: job.id,
      version: first.version,
      usages: [
        { containerType: '45G1', quantity: 2 },
        { containerType: '22G1', quantity: 1, remark: 'Heavy cargo' },
      ],
    })
    // An edit that leaves the usages alone adds no row.
    expect(
      (
        await answer('POST', '/api/booking/cargo/job/update', operator, {
          id: job.id,
          version: second.version,
          channelNo: 'CH-X',
        })
      ).code,
    ).toBe('0000')
    const customer = await test.login('entadmin')
    const history = await ok('GET', `/api/booking/cargo/job/getUsageHistories?id=${job.id}`, customer)
    expect(history).toHaveLength(2)
    expect(history[0]).toMatchObject({
      job: job.id,
      usages: [
        { containerType: '45G1', quantity: 2 },
        { containerType: '22G1', quantity: 1, remark: 'Heavy cargo' },
      ],
      previous: [{ containerType: '45G1', quantity: 2 }],
      createdBy: users.opadmin,
    })
    expect(history[1]).toMatchObject({ previous: [{ containerType: '45G1', quantity: 1 }] })
    // The same container type twice is the entity's rule; a customer may not change usages.
    const twice = await answer('POST', '/api/booking/cargo/job/updateUsages', operator, {
      id: job.id,
      version: second.version + 1,
      usages: [
        { containerType: '45G1', quantity: 1 },
        { containerType: '45G1', quantity: 1 },
      ],
    })
    expect(twice.code).toBe('validation')
    const denied = await answer('POST', '/api/booking/cargo/job/updateUsages', customer, {
      id: job.id,
      version: second.version + 1,
      usages: [],
    })
    expect(denied.code).toBe('220000')
  })

  it('are refused past the ETD limit like any change, and no history row is written', async () => {
    const operator = await test.login('opadmin')
    const job = await openJob(operator, { etd: inDays(1) })
    const refused = await answer('POST', '/api/booking/cargo/job/updateUsages', operator, {
      id: job.id,
      version: job.version,
      usages: [{ containerType: '45G1', quantity: 3 }],
    })
    expect(refused.code).toBe('320003')
    expect(await ok('GET', `/api/booking/cargo/job/getUsageHistories?id=${job.id}`, operator)).toEqual([])
  })

  it('cannot be rewritten: the only call that names the history reads it', async () => {
    const paths = Object.keys((await test.app.inject({ method: 'GET', url: '/api/openapi.json' })).json().paths)
    const history = paths.filter((path) => /usageHistor/i.test(path))
    expect(history).toHaveLength(1)
    expect(history[0]).toMatch(/\/booking\/cargo\/job\/getUsageHistories$/)
  })
})

describe('the job file the confirmation opens (order accept: creates operatingOrder)', () => {
  interface Order {
    id: number
    version: number
    state: string
    jobNo: string | null
    containerLoadType: string
    pol: string
    pod: string
    etd: string
    eta: string | null
    businessRefNo: string | null
    customerCompany: number
    createdBy: number
    containers: { containerType: string; quantity: number }[] | null
  }
  const orderOf = (token: string, id: number) =>
    ok('GET', `/api/booking/order/getOrderDetail?id=${id}`, token) as Promise<Order>
  const confirm = (token: string, order: Order) =>
    answer('POST', `/api/booking/order/${order.containerLoadType.toLowerCase()}/comfirm`, token, {
      id: order.id,
      version: order.version,
    })
  /** The seeded orders awaiting the desk's confirmation (no job file yet), oldest first. */
  const submitted = async () =>
    withTenant(test.database.db, demo, async (trx) =>
      (
        await sql<{ id: number }>`
          select id from booking_order where state = 'submitted' and job_no is null order by id`.execute(trx)
      ).rows.map((row) => row.id),
    )
  const jobsOf = (orderId: number) =>
    withTenant(
      test.database.db,
      demo,
      async (trx) =>
        (
          await sql<{ id: number; job_no: string }>`
          select id, job_no from operating_order where "order" = ${orderId} order by id`.execute(trx)
        ).rows,
    )
  /** YYMM of the server's today in Shanghai (the seeded tenants' zone): the job number's date part. */
  const month = () => inDays(0).slice(2, 7).replace('-', '')

  it('opens a pending job file with the order’s data, numbered, tells the review receivers, and never twice', async () => {
    const operator = await test.login('opadmin')
    const customer = await test.login('entadmin')
    const [orderId] = await submitted()
    const order = await orderOf(operator, orderId as number)
    const pendingBefore = await count(operator)
    const accepted = await confirm(operator, order)
    expect(accepted.code, JSON.stringify(accepted).slice(0, 300)).toBe('0000')
    // The job number is the job file's, written back onto the order: port of loading, E for sea export, month.
    const jobNo = accepted.content.jobNo as string
    expect(jobNo).toMatch(new RegExp(`^${order.pol.slice(2)}E${month()}\\d{4}$`))
    expect(accepted.content).toMatchObject({ state: 'accepted', jobNo })

    const jobs = await list(operator, { jobNo })
    expect(jobs.total).toBe(1)
    const job = (await ok('GET', `/api/booking/cargo/job/detail?id=${jobs.list[0]?.id}`, customer)) as Job &
      Record<string, unknown>
    expect(job).toMatchObject({
      order: order.id,
      jobNo,
      approveState: 'pending',
      customerRefNo: order.businessRefNo,
      etd: order.etd,
      eta: order.eta,
      pol: order.pol,
      pod: order.pod,
      containerLoadType: order.containerLoadType,
      lob: 'seaExport',
      salesChannel: 'online',
      bookingState: 0,
      customerCompany: order.customerCompany,
      createdBy: users.opadmin,
    })
    // The booking lines are its usages (their gross weight is the order's own business).
    expect(order.containers?.length).toBeGreaterThan(0)
    expect(job.usages).toEqual(
      (order.containers ?? []).map((line) => ({ containerType: line.containerType, quantity: line.quantity })),
    )
    expect((job.history as { action: string }[]).map((entry) => entry.action)).toEqual(['create'])
    expect(await count(operator)).toBe(pendingBefore + 1)
    const letters = await withTenant(test.database.db, demo, (trx) =>
      sql<{ recipient: number; title: string }>`
        select recipient, title from letter
        where event = 'operatingOrderAwaitingApproval' and link = ${`/seaOperatingOrderDetail?id=${job.id}`}`.execute(
        trx,
      ),
    )
    // The review receivers are opadmin and opcs; opadmin confirmed, so opcs hears of it.
    expect(letters.rows.map((row) => row.recipient)).toEqual([users.opcs])
    expect(letters.rows[0]?.title).toContain(jobNo)

    // Sent back, reapplied and confirmed again: the job file it has is kept, no second one.
    const back = await ok('POST', '/api/order/transition', operator, {
      id: order.id,
      version: accepted.content.version,
      transition: 'sendBack',
    })
    // Reapplied by whoever booked it (an enterprise operator sees only their own orders).
    const booker = Object.keys(users).find((name) => users[name] === order.createdBy) as string
    const reapplied = await ok(
      'GET',
      `/api/booking/order/reapplyOrder?id=${back.id}&version=${back.version}`,
      await test.login(booker),
    )
    const again = await confirm(operator, reapplied)
    expect(again.code).toBe('0000')
    expect(again.content.jobNo).toBe(jobNo)
    expect(await jobsOf(order.id)).toEqual([{ id: job.id, job_no: jobNo }])
  })

  it('keeps a job number the order already has, and a job file it refuses refuses the confirmation whole', async () => {
    const operator = await test.login('opadmin')
    const [, kept, refused] = await submitted()
    await withTenant(test.database.db, demo, (trx) =>
      sql`update booking_order set job_no = case id when ${kept} then 'NGBE-KEPT-01' else 'NGB E 02' end
          where id in (${kept}, ${refused})`.execute(trx),
    )
    const keep = await confirm(operator, await orderOf(operator, kept as number))
    expect(keep.content).toMatchObject({ state: 'accepted', jobNo: 'NGBE-KEPT-01' })
    expect((await jobsOf(kept as number)).map((row) => row.job_no)).toEqual(['NGBE-KEPT-01'])

    // A job number the job file's pattern refuses: the order's field is named, in the caller's language,
    // and nothing is written — the order still submitted, no job file, no shipment, no history entry.
    const order = await orderOf(operator, refused as number)
    const zh = await test.app.inject({
      method: 'POST',
      url: `/api/booking/order/${order.containerLoadType.toLowerCase()}/comfirm`,
      headers: { host: 'localhost', language: 'zh_CN', authorization: `Bearer ${operator}` },
      payload: { id: order.id, version: order.version },
    })
    expect(zh.json().code).toBe('validation')
    expect(zh.json().content.fieldErrors).toEqual([
      expect.objectContaining({ field: 'jobNo', message: '工作号只能包含字母、数字和连字符' }),
    ])
    const after = await orderOf(operator, order.id)
    expect(after).toMatchObject({ state: 'submitted', version: order.version })
    expect(await jobsOf(order.id)).toEqual([])
    const shipments = await withTenant(test.database.db, demo, (trx) =>
      sql`select id from shipment where booking_order = ${order.id}`.execute(trx),
    )
    expect(shipments.rows).toEqual([])
  })
})

describe('an approved job file changed (onUpdate: changedByCustomer, changedByOperator)', () => {
  const approved = async (operator: string) => {
    const job = await openJob(operator, { etd: inDays(12) })
    return (await ok('POST', '/api/booking/jobAuditRecord/approve', operator, {
      id: job.id,
      version: job.version,
    })) as Job
  }
  const lettersOf = (jobId: number) =>
    withTenant(test.database.db, demo, async (trx) =>
      (
        await sql<{ recipient: number }>`
          select recipient from letter where event = 'operatingOrderAwaitingApproval'
          and link = ${`/seaOperatingOrderDetail?id=${jobId}`} order by id`.execute(trx)
      ).rows.map((row) => row.recipient),
    )

  it('awaits approval again when the customer edits it, counted in the header, the review receivers told', async () => {
    const operator = await test.login('opadmin')
    const customer = await test.login('entadmin')
    const job = await approved(operator)
    const before = await count(customer)
    const before_letters = await lettersOf(job.id)
    const changed = await ok('POST', '/api/booking/cargo/job/update', customer, {
      id: job.id,
      version: job.version,
      customerRefNo: 'PO-CHANGED-BY-CUSTOMER',
    })
    expect(changed).toMatchObject({ approveState: 'pending', customerRefNo: 'PO-CHANGED-BY-CUSTOMER' })
    expect(await count(customer)).toBe(before + 1)
    expect(await count(operator)).toBe(before + 1)
    // Both review receivers hear of it now: the customer, not a receiver, made the change.
    expect((await lettersOf(job.id)).slice(before_letters.length)).toEqual([users.opadmin, users.opcs])
    const detail = await ok('GET', `/api/booking/cargo/job/detail?id=${job.id}`, operator)
    expect(detail.history[0]).toMatchObject({ action: 'update', transition: 'changedByCustomer' })
    // Approved again, it moves out of the count.
    await ok('POST', '/api/booking/jobAuditRecord/approve', operator, { id: job.id, version: changed.version })
    expect(await count(customer)).toBe(before)
  })

  it('awaits approval again when an operator edits it too, but not when an edit changes nothing', async () => {
    const operator = await test.login('opadmin')
    const job = await approved(operator)
    const same = await ok('POST', '/api/booking/cargo/job/update', operator, {
      id: job.id,
      version: job.version,
      channelNo: (job as Job & { channelNo?: string }).channelNo ?? null,
    })
    expect(same.approveState).toBe('approved')
    const changed = await ok('POST', '/api/booking/cargo/job/update', operator, {
      id: job.id,
      version: same.version,
      channelNo: 'CH-OPERATOR',
    })
    expect(changed.approveState).toBe('pending')
    const detail = await ok('GET', `/api/booking/cargo/job/detail?id=${job.id}`, operator)
    expect(detail.history[0]).toMatchObject({ action: 'update', transition: 'changedByOperator' })
    // A pending one edited stays pending, with no transition in its history.
    const again = await ok('POST', '/api/booking/cargo/job/update', operator, {
      id: job.id,
      version: changed.version,
      channelNo: 'CH-OPERATOR-2',
    })
    expect(again.approveState).toBe('pending')
    const latest = await ok('GET', `/api/booking/cargo/job/detail?id=${job.id}`, operator)
    expect(latest.history[0].transition ?? null).toBeNull()
  })

  it('is never fired by a call', async () => {
    const operator = await test.login('opadmin')
    const job = await approved(operator)
    for (const transition of ['changedByCustomer', 'changedByOperator']) {
      const fired = await answer('POST', '/api/operatingOrder/transition', operator, {
        id: job.id,
        version: job.version,
        transition,
      })
      expect(fired.code).toBe('validation')
    }
    const stored = await ok('GET', `/api/booking/cargo/job/detail?id=${job.id}`, operator)
    expect(stored).toMatchObject({ approveState: 'approved', version: job.version })
  })
})
