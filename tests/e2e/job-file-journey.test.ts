import { sql } from 'kysely'
import type { Locator, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { withTenant } from '../../server/tenancy/scope.ts'
import { confirmDialog } from '../support/commercial.ts'
import { dcsaErrors } from '../support/dcsa.ts'
import { pdfText } from '../support/pdf-text.ts'
import { downloaded, localeText, setupPortal, WAIT } from '../support/portal.ts'

/**
 * Issue #23's acceptance, as a new user goes through it in Chromium: from booking to job file.
 *
 * The customer of a confirmed FCL order downloads its DCSA booking from the order's detail and fills its B/L
 * instruction on /cargoFeedSubmission/edit; totals that differ from the container sums, a container number with
 * a wrong ISO 6346 check digit, the same container twice and no B/L number are each refused with SPEC §5's
 * message, in English and, after switching, in Chinese; the corrected instruction is submitted, the operator
 * confirms it on /cargoFeedList, and the customer downloads it as DCSA eBL 3.0 Shipping Instructions (valid
 * against the published schema) and as the draft B/L PDF. The operator then edits a job file inside the ETD
 * limit, is warned (SPEC §9) and refused past it, and approves a pending one: the header's count falls by one.
 *
 * The details (every other B/L rule, each refusal's field, the walls between tenants and customers, the PDF's
 * layout and languages, the ETD limit's settings) are API tests: tests/api/bl-instructions, dcsa-exports,
 * bl-draft-pdf and operating-orders.
 */
const portal = setupPortal()

const en = (namespace: string, key: string) => localeText('en', namespace, key)
const zh = (namespace: string, key: string) => localeText('zh', namespace, key)

/** SPEC §5's refusals, as the customer reads them (literals: a reworded message must be a decision). */
const REFUSALS = {
  en: [
    "The total pieces must equal the sum of the containers' pieces",
    'Not a valid container number: 4 letters (the 4th U, J or Z), 6 digits and the ISO 6346 check digit — check the last digit',
    'The same container cannot be added twice',
    'Cannot submit without a B/L number',
  ],
  zh: [
    '件数合计必须等于各集装箱件数之和',
    '箱号无效：4位字母（第4位为U、J或Z）、6位数字和ISO 6346校验位——请检查最后一位',
    '同一箱号不能重复添加',
    '没有提单号不能提交',
  ],
}

/** A look-up combobox: whatever it holds (the editor may prefill it) replaced by the search, then the option. */
async function pick(page: Page, scope: Locator, label: string, search: string, option: RegExp) {
  const box = scope.getByRole('combobox', { name: label })
  await box.click()
  await box.fill(search)
  await page.getByRole('option', { name: option }).first().click()
}

/** A label as written, with or without the required mark after it, never a longer label it begins ("… code"). */
const named = (label: string) => new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?! code)(?![\\w(（])`)

/** Every message shows somewhere on the page. */
async function showsAll(page: Page, messages: readonly string[]) {
  for (const message of messages)
    await expect.poll(() => page.getByText(message, { exact: false }).count(), WAIT).toBeGreaterThan(0)
}

interface Job {
  id: number
  job_no: string
}

describe('from booking to job file (issue #23)', () => {
  it('the customer’s B/L instruction is refused, corrected, confirmed and downloaded; the operator edits and approves a job file', async () => {
    const db = portal.server.database.db
    // A confirmed FCL order of the customer with no instruction yet (the seed leaves the newer ones free).
    const { rows } = await sql<{ id: number; order_no: string; vessel: string; pol: string; pod: string }>`
      select o.id, o.order_no, o.vessel, o.pol, o.pod from booking_order o join tenant t on t.id = o.tenant_id
      where t.code = 'demo' and o.container_load_type = 'FCL' and o.state in ('accepted', 'booked')
        and not exists (select 1 from bl_instruction b where b.order = o.id)
      order by o.id desc limit 1`.execute(db)
    const { id: orderId, order_no: orderNo } = rows[0] ?? { id: 0, order_no: '' }
    expect(orderNo).toBeTruthy()

    const customer = await portal.signIn('entadmin', { acceptDownloads: true })
    const { page } = customer
    const download = async (action: string) => {
      const file = page.waitForEvent('download', WAIT)
      await page.getByRole('button', { name: en('action', action), exact: true }).click()
      return file
    }

    // The order's detail: its DCSA booking request, then its B/L instruction, the order already chosen.
    await page.goto(`${customer.base}/orderDetails?id=${orderId}&lang=en`)
    const bookingFile = await download('dcsaBooking')
    expect(bookingFile.suggestedFilename()).toBe(`${orderNo}-dcsa-booking.json`)
    const booking = JSON.parse((await downloaded(bookingFile)).toString('utf8'))
    expect(dcsaErrors('booking', 'CreateBooking', booking)).toEqual([])
    expect(booking.bookingChannelReference).toBe(orderNo)
    await page.getByRole('button', { name: en('bl', 'fillInstruction'), exact: true }).click()
    await page.waitForURL(new RegExp(`/cargoFeedSubmission/edit\\?order=${orderId}`))

    const orderSection = page.getByRole('region', { name: en('bl', 'sectionOrder') })
    await orderSection.waitFor(WAIT)
    const order = orderSection.getByRole('combobox', { name: named(en('bl', 'order')) })
    await expect.poll(() => order.inputValue(), WAIT).toContain(orderNo)
    // No B/L number (cleared, should the editor have brought one from the order).
    await orderSection.getByLabel(named(en('bl', 'blNo'))).fill('')
    await orderSection.getByLabel(named(en('bl', 'bizNo'))).fill('HZMH-2026-0412')
    await orderSection.getByLabel(named(en('bl', 'blWay'))).selectOption({ label: en('bl', 'blWay_general') })
    await orderSection.getByLabel(named(en('bl', 'originalCount'))).fill('3')
    await orderSection.getByLabel(named(en('bl', 'copyCount'))).fill('3')

    const parties = page.getByRole('region', { name: en('bl', 'sectionParties') })
    await parties
      .getByLabel('Shipper')
      .fill('HANGZHOU MINGHUI TEXTILE IMP & EXP\nNO. 318 QIUTAO NORTH ROAD\nHANGZHOU 310020 CHINA')
    await parties.getByLabel('Consignee').fill('PACIFIC HOME GOODS INC.\n1200 HARBOR BLVD\nLONG BEACH CA 90802 USA')
    await parties.getByLabel('Notify party').fill('SAME AS CONSIGNEE')

    const routing = page.getByRole('region', { name: en('bl', 'sectionRouting') })
    // The instruction starts with what the order knows (form.prefillCall): its vessel, among the rest.
    expect(await routing.getByLabel('Vessel').inputValue()).toBe(rows[0]?.vessel)
    await routing.getByLabel(named(en('bl', 'placeOfReceiptCode'))).fill('CNHGH')
    await routing.getByLabel(named(en('bl', 'placeOfReceiptName'))).fill('HANGZHOU')
    // The ports and the carrier are the order's, as it booked them.
    const port = (label: string) => routing.getByRole('combobox', { name: named(label) })
    await expect.poll(() => port(en('bl', 'portOfLoadingCode')).inputValue(), WAIT).toContain(rows[0]?.pol)
    await expect.poll(() => port(en('bl', 'portOfDischargeCode')).inputValue(), WAIT).toContain(rows[0]?.pod)
    await routing.getByLabel(named(en('bl', 'placeOfDeliveryCode'))).fill('USLAX')
    await routing.getByLabel(named(en('bl', 'placeOfDeliveryName'))).fill('LOS ANGELES')
    await routing.getByLabel('Vessel').fill('COSCO SHIPPING ARIES')
    await routing.getByLabel('Voyage').fill('062E')
    await routing.getByLabel(named(en('bl', 'transportClause'))).selectOption({ label: 'CY-CY' })

    const cargo = page.getByRole('region', { name: en('bl', 'sectionCargo') })
    await cargo.getByLabel(named(en('bl', 'goodsNameEn'))).fill('COTTON T-SHIRTS')
    await cargo.getByLabel(named(en('bl', 'goodsNameCn'))).fill('棉制针织T恤衫')
    await pick(page, cargo, 'HS code', '610910', /610910/)
    await cargo.getByLabel(named(en('bl', 'packageType'))).selectOption({ label: en('bl', 'package_CT') })
    // Totals that differ from the container sums: 1201 pieces for 700 + 250 + 250.
    await cargo.getByLabel(named(en('bl', 'quantity'))).fill('1201')
    await cargo.getByLabel(named(en('bl', 'grossWeight'))).fill('18500.5')
    await cargo.getByLabel(named(en('bl', 'volume'))).fill('56.125')
    await cargo.getByLabel(named(en('bl', 'woodPackagingType'))).selectOption({ label: en('bl', 'wood_none') })

    const containers = page.getByRole('region', { name: en('bl', 'sectionContainers') })
    const rowsOf = (label: string) => containers.getByLabel(named(label))
    const containerNumbers = rowsOf(en('bl', 'containerNo'))
    // Three rows, however many the form starts with.
    while ((await containerNumbers.count()) < 3)
      await containers.getByRole('button', { name: en('widget', 'addRow') }).click()
    for (let rows = await containerNumbers.count(); rows > 3; rows--)
      await containers.getByRole('button', { name: `Remove row ${rows}`, exact: true }).click()
    const fillRow = async (i: number, number: string, pieces: string, weight: string, volume: string) => {
      await containerNumbers.nth(i).fill(number)
      await rowsOf(en('bl', 'sealNo')).nth(i).fill(`CN12345${i}`)
      await rowsOf(en('bl', 'size'))
        .nth(i)
        .selectOption({ label: en('bl', 'size_40') })
      await rowsOf(en('bl', 'type'))
        .nth(i)
        .selectOption({ label: en('bl', 'type_HQ') })
      await rowsOf(en('bl', 'quantity')).nth(i).fill(pieces)
      await rowsOf('Gross weight (kg)').nth(i).fill(weight)
      await rowsOf(en('bl', 'volume')).nth(i).fill(volume)
      await rowsOf('Marks').nth(i).fill('N/M')
      await rowsOf(en('bl', 'description')).nth(i).fill('COTTON T-SHIRTS')
    }
    // A wrong check digit (CSQU3054383 is right), then the same container twice.
    await fillRow(0, 'CSQU3054384', '700', '10500.5', '30.125')
    await fillRow(1, 'MSKU9070323', '250', '4000', '13')
    await fillRow(2, 'MSKU9070323', '250', '4000', '13')
    await page.getByRole('textbox', { name: 'Remarks' }).fill('FREIGHT PREPAID')

    await page.getByRole('button', { name: en('ui', 'save'), exact: true }).click()
    await showsAll(page, REFUSALS.en)

    // The same refusals in Chinese.
    await page.getByRole('button', { name: en('common', 'language') }).click()
    await page.getByRole('menuitem', { name: '中文' }).click()
    await showsAll(page, REFUSALS.zh)

    // Put right, in Chinese now: the B/L number, the first row's check digit, the third row's own container,
    // the total pieces.
    await page
      .getByRole('region', { name: zh('bl', 'sectionOrder') })
      .getByLabel(named(zh('bl', 'blNo')))
      .fill('COSU6371843210')
    const numbers = page
      .getByRole('region', { name: zh('bl', 'sectionContainers') })
      .getByLabel(named(zh('bl', 'containerNo')))
    await numbers.nth(0).fill('CSQU3054383')
    await numbers.nth(2).fill('TGHU8421071')
    await page
      .getByRole('region', { name: zh('bl', 'sectionCargo') })
      .getByLabel(named(zh('bl', 'quantity')))
      .fill('1200')
    const saved = page.waitForResponse((r) => r.url().includes('/api/booking/blSubmission/submit'))
    await page.getByRole('button', { name: zh('ui', 'save'), exact: true }).click()
    const answer = (await (await saved).json()) as { code: string; content: { id: number; confirmStatus: string } }
    expect(answer.code).toBe('0000')
    expect(answer.content.confirmStatus).toBe('unconfirmed')

    // The operator finds it on /cargoFeedList and confirms it.
    const operator = await portal.signIn('opadmin')
    const desk = operator.page
    await desk.goto(`${operator.base}/cargoFeedList?lang=en&blNo=COSU6371843210`)
    const instructionRow = desk.locator('table tbody tr').filter({ hasText: 'COSU6371843210' })
    await expect.poll(() => instructionRow.getByText(en('bl', 'state_unconfirmed')).count(), WAIT).toBe(1)
    await instructionRow.getByRole('button', { name: en('bl', 'confirm'), exact: true }).click()
    await confirmDialog(desk, en('ui', 'ok'))
    await expect.poll(() => instructionRow.getByText(en('bl', 'state_confirmed')).count(), WAIT).toBe(1)

    // The customer opens the confirmed instruction (view mode) and downloads its documents.
    await page.goto(`${customer.base}/cargoFeedSubmission/view?id=${answer.content.id}&lang=en`)
    const jsonFile = await download('dcsaShippingInstructions')
    expect(jsonFile.suggestedFilename()).toBe(`${orderNo}-dcsa-shipping-instructions.json`)
    const document = JSON.parse((await downloaded(jsonFile)).toString('utf8'))
    expect(dcsaErrors('ebl', 'CreateShippingInstructions', document)).toEqual([])
    expect(document.transportDocumentReference).toBe('COSU6371843210')
    expect(
      document.utilizedTransportEquipments.map((e: { equipmentReference: string }) => e.equipmentReference),
    ).toEqual(['CSQU3054383', 'MSKU9070323', 'TGHU8421071'])
    const pdfFile = await download('blDraft')
    expect(pdfFile.suggestedFilename()).toBe(`${orderNo}-draft-bl.pdf`)
    const draft = pdfText(await downloaded(pdfFile))
    for (const expected of ['DRAFT', 'COSU6371843210', 'CSQU3054383', 'CN123450', 'TGHU8421071', '棉制针织T恤衫'])
      expect(draft, expected).toContain(expected)
    await customer.context.close()

    // The job files awaiting approval, the one sailing soonest first (tomorrow: past the 24 hours' limit).
    const demo = (await db.selectFrom('tenant').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()).id
    const pendingJobs = () =>
      withTenant(
        db,
        demo,
        async (trx) =>
          (
            await sql<Job>`select id, job_no from operating_order where approve_state = 'pending'
            order by etd, id`.execute(trx)
          ).rows,
      )
    const pending = await pendingJobs()
    expect(pending.length).toBeGreaterThanOrEqual(2)
    const [past, inside] = pending as [Job, Job]
    const badge = desk.getByTestId('pending-approvals')
    const shown = async () => Number(await badge.getAttribute('data-count'))

    // Inside the limit: the form saves.
    await desk.goto(`${operator.base}/editOperatingOrder?id=${inside.id}&lang=en`)
    const reference = desk.getByLabel(en('operating', 'customerRefNo'))
    await reference.waitFor(WAIT)
    await expect.poll(shown, WAIT).toBe(pending.length)
    expect(await desk.getByTestId('edit-deadline').count()).toBe(0)
    await reference.fill('PO-E2E-0001')
    await desk.getByRole('button', { name: en('ui', 'save'), exact: true }).click()
    await expect.poll(() => desk.getByText('Saved', { exact: true }).count(), WAIT).toBeGreaterThan(0)

    // Past it: SPEC §9's warning, the fields locked and no Save.
    await desk.goto(`${operator.base}/editOperatingOrder?id=${past.id}&lang=en`)
    const warning = desk.getByTestId('edit-deadline')
    await expect.poll(() => warning.count(), WAIT).toBe(1)
    expect(await warning.textContent()).toContain(
      'The current time is later than the ETD or the last modification time, so the order can no longer be modified. Do you still want to review it and update the cargo system?',
    )
    expect(await desk.getByLabel(en('operating', 'customerRefNo')).isDisabled()).toBe(true)
    expect(await desk.getByRole('button', { name: en('ui', 'save'), exact: true }).count()).toBe(0)

    // Approve the job edited above from the operators' list of pending ones: the header's count falls by one.
    await desk.goto(`${operator.base}/operatorOperatingOrderList?approveState=pending&lang=en`)
    const jobRow = desk.locator('table tbody tr', { hasText: inside.job_no })
    await jobRow.waitFor(WAIT)
    await jobRow.getByRole('button', { name: en('operating', 'approve'), exact: true }).click()
    const dialog = desk.getByRole('dialog')
    await expect.poll(() => dialog.getByText(en('operating', 'confirmApprove')).count(), WAIT).toBe(1)
    await dialog.getByRole('button', { name: en('ui', 'ok'), exact: true }).click()
    await expect.poll(shown, WAIT).toBe(pending.length - 1)
    await expect.poll(() => desk.locator('table tbody tr', { hasText: inside.job_no }).count(), WAIT).toBe(0)
    expect(await badge.getAttribute('aria-label')).toBe(`Operating orders awaiting approval: ${pending.length - 1}`)
    await operator.context.close()

    // Stored as the screens said: the edit inside the limit and its approval; the job past it untouched.
    const stored = await withTenant(
      db,
      demo,
      async (trx) =>
        (
          await sql<{ id: number; customer_ref_no: string | null; approve_state: string }>`
          select id, customer_ref_no, approve_state from operating_order where id in (${inside.id}, ${past.id})`.execute(
            trx,
          )
        ).rows,
    )
    expect(stored.find((job) => job.id === inside.id)).toMatchObject({
      customer_ref_no: 'PO-E2E-0001',
      approve_state: 'approved',
    })
    expect(stored.find((job) => job.id === past.id)?.approve_state).toBe('pending')
    expect((await pendingJobs()).map((job) => job.id)).not.toContain(inside.id)
  })
})
