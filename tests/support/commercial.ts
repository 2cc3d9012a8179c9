import type { Locator, Page } from 'playwright-core'
import { expect } from 'vitest'
import { localeText, WAIT } from './portal.ts'

/**
 * What the browser tests of the commercial flow (issue #8: inquiry, quote, booking) do the same way: calls
 * from inside a signed-in page, the confirm box, look-ups, and the inquiry and quote forms' repeated steps.
 */

export type Envelope = { code: string; content: Record<string, unknown> }

/** A call from inside a signed-in page (its cookie), answering the whole envelope. */
export function apiCall(page: Page, method: string, path: string, body?: object): Promise<Envelope> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const response = await fetch(`/api${path}`, {
        method,
        headers: { 'content-type': 'application/json', resource: '1' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      })
      return (await response.json()) as { code: string; content: Record<string, unknown> }
    },
    { method, path, body },
  )
}

/** The same, expecting success: the envelope's content. */
export async function apiContent(page: Page, method: string, path: string, body?: object) {
  const envelope = await apiCall(page, method, path, body)
  expect(envelope.code, JSON.stringify(envelope).slice(0, 300)).toBe('0000')
  return envelope.content
}

/** The confirm box the portal opens before an action: answer it with its primary button. */
export async function confirmDialog(page: Page, label: string) {
  const dialog = page.getByRole('dialog')
  await dialog.getByRole('button', { name: label, exact: true }).click()
  await expect.poll(() => page.getByRole('dialog').count(), WAIT).toBe(0)
}

/** A look-up combobox (port, container type, carrier…): type the code, take the first option naming it. */
export async function pickOption(page: Page, scope: Locator | Page, label: string, code: string) {
  const box = scope.getByRole('combobox', { name: label }).last()
  await box.click()
  await box.pressSequentially(code)
  await page
    .getByRole('option', { name: new RegExp(code) })
    .first()
    .click()
}

/** The inquiry form: origin and destination first (until both are there the rest is disabled). */
export async function chooseInquiryRoute(page: Page, language: string, origin = 'CNSHA', destination = 'USLAX') {
  const text = (namespace: string, key: string) => localeText(language, namespace, key)
  const goodsReady = page.getByRole('combobox', { name: text('field', 'goodsReady') })
  await expect.poll(() => goodsReady.isDisabled(), WAIT).toBe(true)
  await expect.poll(() => page.getByTestId('inquiry-route-first').count(), WAIT).toBe(1)
  await pickOption(page, page, text('field', 'origin'), origin)
  await pickOption(page, page, text('field', 'destination'), destination)
  await expect.poll(() => goodsReady.isDisabled(), WAIT).toBe(false)
}

/** The inquiry form: container rows, each a type and a quantity. */
export async function addInquiryContainers(page: Page, language: string, rows: readonly [string, string][]) {
  const text = (namespace: string, key: string) => localeText(language, namespace, key)
  const containers = page.getByRole('region', { name: text('inquiry', 'sectionContainers') })
  for (const [code, quantity] of rows) {
    await containers.getByRole('button', { name: text('widget', 'addRow') }).click()
    await pickOption(page, containers, text('field', 'containerType'), code)
    await containers
      .getByRole('spinbutton', { name: text('field', 'quantity') })
      .last()
      .fill(quantity)
  }
}

/** The inquiry form: one complete package line. */
export async function addInquiryPackage(page: Page, language: string) {
  const text = (namespace: string, key: string) => localeText(language, namespace, key)
  const packages = page.getByRole('region', { name: text('inquiry', 'sectionPackages') })
  await packages.getByRole('button', { name: text('widget', 'addRow') }).click()
  await packages.getByRole('textbox', { name: text('field', 'goodsDescription') }).fill('Cotton bed linen, printed')
  for (const [key, value] of [
    ['packageCount', '420'],
    ['grossWeightKg', '8820.5'],
    ['goodsCount', '8400'],
    ['lengthCm', '60'],
    ['widthCm', '40'],
    ['heightCm', '35'],
  ] as const)
    await packages.getByRole('spinbutton', { name: text('field', key) }).fill(value)
}

/** Option indexes of the quote editor's sub-table selects (the order of schemas/quote.yaml's values). */
export const CHARGE_TYPE = { freight: '0', origin: '1', destination: '2' }
export const CHARGE_UNIT = { container: '0', cbm: '3' }

export interface ChargeLine {
  type: string
  name: string
  quantity: string
  unit: string
  price: string
  currency: string
}

/** The quote editor: one charge line of the sub-table, by row index. */
export async function fillChargeLine(page: Page, i: number, line: ChargeLine) {
  await page.locator(`#root_charges_${i}_chargeType`).selectOption(line.type)
  await page.locator(`#root_charges_${i}_name`).fill(line.name)
  await page.locator(`#root_charges_${i}_quantity`).fill(line.quantity)
  await page.locator(`#root_charges_${i}_unit`).selectOption(line.unit)
  await page.locator(`#root_charges_${i}_unitPrice`).fill(line.price)
  const currency = page.locator(`#root_charges_${i}_currency`)
  await currency.click()
  await currency.fill(line.currency)
  await page
    .getByRole('option', { name: new RegExp(`^${line.currency}`) })
    .first()
    .click()
}
