import { sql } from 'kysely'
import type { Locator, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { confirmDialog } from '../support/commercial.ts'
import { dcsaErrors } from '../support/dcsa.ts'
import { pdfText } from '../support/pdf-text.ts'
import { downloaded, setupPortal, localeText as text, WAIT } from '../support/portal.ts'

/**
 * B/L instructions in Chromium (issue #23's acceptance): the customer of a confirmed FCL order fills its B/L
 * instruction on /cargoFeedSubmission/edit, is refused with SPEC §5's messages — totals that differ from the
 * container sums, a container number with a wrong check digit, the same container twice, no B/L number — in
 * English and, after switching, in Chinese; submits the corrected instruction; the operator confirms it on
 * /cargoFeedList; the customer then downloads it from the B/L editor's view mode as DCSA eBL 3.0 Shipping
 * Instructions (validated against the published schema) and as the draft B/L PDF.
 */
const portal = setupPortal()

async function pick(scope: Page | Locator, label: string, search: string, option: RegExp) {
  const box = scope.getByRole('combobox', { name: label })
  await box.click()
  await box.fill(search)
  const page = 'page' in scope ? scope.page() : scope
  await page.getByRole('option', { name: option }).first().click()
}

/** A label as written, with or without the required mark after it, never a longer label it begins ("… code"). */
const named = (label: string) => new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?! code)(?![\\w(（])`)

const en = (namespace: string, key: string) => text('en', namespace, key)
const zh = (namespace: string, key: string) => text('zh', namespace, key)

describe('B/L instructions (/cargoFeedList, /cargoFeedSubmission/:mode)', () => {
  it('refuses the broken instruction with SPEC §5’s messages, submits the corrected one, the operator confirms it, the customer downloads it', async () => {
    // A confirmed FCL order of the customer with no instruction yet (the seed leaves the newer ones free).
    const { rows } = await sql<{
      id: number
      order_no: string
      vessel: string
      pol: string
      pod: string
      containers: number
    }>`
      select o.id, o.order_no, o.vessel, o.pol, o.pod,
        (select coalesce(sum((c->>'quantity')::int), 0) from jsonb_array_elements(o.containers) c)::int as containers
      from booking_order o join tenant t on t.id = o.tenant_id
      where t.code = 'demo' and o.container_load_type = 'FCL' and o.state in ('accepted', 'booked')
        and not exists (select 1 from bl_instruction b where b.order = o.id)
      order by o.id desc limit 1`.execute(portal.server.database.db)
    const orderNo = rows[0]?.order_no as string
    const orderId = rows[0]?.id as number
    expect(orderNo).toBeTruthy()

    const { context, page, base } = await portal.signIn('entadmin')
    // The order's detail opens its instruction, the order already chosen.
    await page.goto(`${base}/orderDetails?id=${orderId}&lang=en`)
    await page.getByRole('button', { name: en('bl', 'fillInstruction'), exact: true }).click()
    await page.waitForURL(new RegExp(`/cargoFeedSubmission/edit\\?order=${orderId}`))

    const orderSection = page.getByRole('region', { name: en('bl', 'sectionOrder') })
    await orderSection.waitFor(WAIT)
    const order = orderSection.getByRole('combobox', { name: named(en('bl', 'order')) })
    await expect.poll(() => order.inputValue(), WAIT).toContain(orderNo)
    // The instruction starts with what the order knows: its vessel, and a row per container it books.
    const routing = page.getByRole('region', { name: en('bl', 'sectionRouting') })
    expect(await routing.getByLabel('Vessel').inputValue()).toBe(rows[0]?.vessel)
    const containers = page.getByRole('region', { name: en('bl', 'sectionContainers') })
    const booked = Math.min(rows[0]?.containers ?? 0, 10)
    expect(await containers.getByLabel(named(en('bl', 'containerNo'))).count()).toBe(Math.max(booked, 1))
    // No B/L number yet (the order's master B/L, if it has one, is taken out).
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
    // The order's HS code when it has one, else the customer's pick.
    if (!(await cargo.getByRole('combobox', { name: named('HS code') }).inputValue()))
      await pick(cargo, 'HS code', '610910', /610910/)
    await cargo.getByLabel(named(en('bl', 'packageType'))).selectOption({ label: en('bl', 'package_CT') })
    // Totals that differ from the container sums: 1201 pieces for 700 + 500.
    await cargo.getByLabel(named(en('bl', 'quantity'))).fill('1201')
    await cargo.getByLabel(named(en('bl', 'grossWeight'))).fill('18500.5')
    await cargo.getByLabel(named(en('bl', 'volume'))).fill('56.125')
    await cargo.getByLabel(named(en('bl', 'woodPackagingType'))).selectOption({ label: en('bl', 'wood_none') })

    const addRow = containers.getByRole('button', { name: en('widget', 'addRow') })
    const rowsOf = (label: string) => containers.getByLabel(named(label))
    const fillRow = async (i: number, number: string, pieces: string, weight: string, volume: string) => {
      await rowsOf(en('bl', 'containerNo')).nth(i).fill(number)
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
    // Three rows: the order's, one added for each missing, those past the third removed.
    const rowCount = () => rowsOf(en('bl', 'containerNo')).count()
    while ((await rowCount()) > 3)
      await containers
        .getByRole('button', { name: text('en', 'widget', 'removeRow').replace('{{index}}', '4') })
        .click()
    while ((await rowCount()) < 3) await addRow.click()
    // A wrong check digit (CSQU3054383 is right), then the same container twice.
    await fillRow(0, 'CSQU3054384', '700', '10500.5', '30.125')
    await fillRow(1, 'MSKU9070323', '250', '4000', '13')
    await fillRow(2, 'MSKU9070323', '250', '4000', '13')
    await page.getByRole('textbox', { name: 'Remarks' }).fill('FREIGHT PREPAID')

    const submit = page.getByRole('button', { name: en('ui', 'save'), exact: true })
    await submit.click()
    const shows = (message: string) => expect.poll(() => page.getByText(message).count(), WAIT).toBeGreaterThan(0)
    await shows(en('bl', 'totalQuantity'))
    await shows(en('bl', 'containerNoCheck'))
    await shows(en('bl', 'containerNoRepeated'))
    await shows(en('bl', 'blNoRequired'))

    // The same refusals in Chinese.
    await page.getByRole('button', { name: en('common', 'language') }).click()
    await page.getByRole('menuitem', { name: '中文' }).click()
    await expect.poll(() => page.getByText(zh('bl', 'totalQuantity')).count(), WAIT).toBeGreaterThan(0)
    await shows(zh('bl', 'containerNoCheck'))
    await shows(zh('bl', 'containerNoRepeated'))
    await shows(zh('bl', 'blNoRequired'))

    // The sections read in Chinese now.
    const orderZh = page.getByRole('region', { name: zh('bl', 'sectionOrder') })
    const cargoZh = page.getByRole('region', { name: zh('bl', 'sectionCargo') })
    const containersZh = page.getByRole('region', { name: zh('bl', 'sectionContainers') })
    // Put right: the B/L number, the first row's check digit, the third row's own container, the total pieces.
    await orderZh.getByLabel(named(zh('bl', 'blNo'))).fill('COSU6371843210')
    const numbers = containersZh.getByLabel(named(zh('bl', 'containerNo')))
    await numbers.nth(0).fill('CSQU3054383')
    await numbers.nth(2).fill('TGHU8421071')
    await cargoZh.getByLabel(named(zh('bl', 'quantity'))).fill('1200')
    const saved = page.waitForResponse((r) => r.url().includes('/api/booking/blSubmission/submit'))
    await page.getByRole('button', { name: zh('ui', 'save'), exact: true }).click()
    const answer = (await (await saved).json()) as { code: string; content: { id: number; confirmStatus: string } }
    expect(answer.code).toBe('0000')
    expect(answer.content.confirmStatus).toBe('unconfirmed')
    await context.close()

    // The operator finds it on /cargoFeedList and confirms it.
    const operator = await portal.signIn('opadmin')
    await operator.page.goto(`${operator.base}/cargoFeedList?lang=en&blNo=COSU6371843210`)
    const row = operator.page.locator('table tbody tr').filter({ hasText: 'COSU6371843210' })
    await expect.poll(() => row.getByText(en('bl', 'state_unconfirmed')).count(), WAIT).toBe(1)
    await row.getByRole('button', { name: en('bl', 'confirm'), exact: true }).click()
    await confirmDialog(operator.page, en('ui', 'ok'))
    await expect.poll(() => row.getByText(en('bl', 'state_confirmed')).count(), WAIT).toBe(1)
    await operator.context.close()

    // The customer opens the confirmed instruction (view mode) and downloads its documents.
    const customer = await portal.signIn('entadmin', { acceptDownloads: true })
    await customer.page.goto(`${customer.base}/cargoFeedSubmission/view?id=${answer.content.id}&lang=en`)
    const download = async (action: string) => {
      const file = customer.page.waitForEvent('download', WAIT)
      await customer.page.getByRole('button', { name: en('action', action), exact: true }).click()
      return file
    }
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
  })
})
