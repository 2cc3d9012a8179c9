import { sql } from 'kysely'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { png } from '../support/images.ts'
import { localeText, setupPortal, WAIT } from '../support/portal.ts'

/**
 * Issue #26, part 1, as a new FBA seller meets it: Minghui (its FBA service off for this journey) asks for the
 * service on /fbaService and sees no FBA menu yet; the operator turns FBA on with the enterprise's services; the
 * seller then adds a delivery address by picking Amazon's ONT8 (the server fills its street) and a product,
 * whose wrong ASIN is refused with its message first. The rules' details (SPEC §5 fields, SKU per enterprise,
 * the 3 MB picture, the walls) are tests/api/fba-setup.test.ts.
 */
const portal = setupPortal()
const zh = (namespace: string, key: string) => localeText('zh', namespace, key)
const MINGHUI = '杭州明辉纺织品进出口有限公司'

beforeAll(async () => {
  await sql`update company set fba_status = 0, fba_applied_at = null, fba_apply_note = null
    where name = ${MINGHUI}`.execute(portal.server.database.db)
})

/** The links of the FBA group of the workbench's left menu. */
async function fbaMenu(page: Page): Promise<string[]> {
  const menu = page.getByRole('navigation', { name: zh('ui', 'workbenchMenu') })
  await expect.poll(() => menu.getByRole('link').count(), WAIT).toBeGreaterThan(0)
  const group = menu.getByRole('region', { name: zh('area', 'fba') })
  return (await group.getByRole('link').allTextContents()).map((text) => text.trim())
}

/** A look-up combobox: the search typed, then the option. */
async function pick(page: Page, label: string, search: string, option: RegExp) {
  const box = page.getByRole('combobox', { name: new RegExp(`^${label}`) })
  await box.click()
  await box.fill(search)
  await page.getByRole('option', { name: option }).first().click()
}

describe('FBA set-up (issue #26)', () => {
  it('asks for FBA, is enabled by the operator, adds an address from the fulfilment centres and a product', async () => {
    // 1. The seller's administrator asks; until the operator answers, the FBA area holds only the request.
    const seller = await portal.signIn('entadmin')
    const { page } = seller
    await page.goto(`${seller.base}/fbaService`)
    expect(await fbaMenu(page)).toEqual([zh('route', 'fbaService')])
    await page.getByLabel(zh('field', 'fbaApplyNote')).fill('真丝围巾和床品发往亚马逊美国仓，每月约 300 箱')
    await page.getByRole('button', { name: zh('ui', 'save'), exact: true }).click()
    await expect
      .poll(async () => {
        const { rows } = await sql<{ asked: boolean }>`select fba_applied_at is not null as asked from company
          where name = ${MINGHUI}`.execute(portal.server.database.db)
        return rows[0]?.asked
      }, WAIT)
      .toBe(true)
    await seller.context.close()

    // 2. The operator turns FBA on in Minghui's services.
    const operator = await portal.signIn('opadmin')
    await operator.page.goto(`${operator.base}/clientEnterpriseService`)
    const minghui = operator.page.locator('table tbody tr').filter({ hasText: MINGHUI })
    await expect.poll(() => minghui.count(), WAIT).toBe(1)
    await minghui.getByRole('button', { name: zh('action', 'editServices'), exact: true }).click()
    const dialog = operator.page.getByRole('dialog')
    await dialog.getByLabel(zh('field', 'fbaStatus')).selectOption({ label: zh('enum', 'fbaStatus.1') })
    await dialog.getByRole('button', { name: zh('ui', 'save'), exact: true }).click()
    await expect.poll(() => dialog.count(), WAIT).toBe(0)
    await operator.context.close()

    // 3. The seller now has the address book and the products.
    const enabled = await portal.signIn('entadmin')
    const p = enabled.page
    await p.goto(`${enabled.base}/fbaAddressBookDetail`)
    expect(await fbaMenu(p)).toEqual(
      expect.arrayContaining([zh('route', 'fbaAddressBook'), zh('route', 'fbaProductList')]),
    )
    await p.getByLabel(zh('fba', 'addressCode')).fill('AMZ-ONT8-2')
    await p.getByLabel(zh('fba', 'addressName')).fill('亚马逊 ONT8 二号口')
    await p.getByLabel(zh('fba', 'purpose')).selectOption({ label: zh('enum', 'fbaPurpose.2') })
    await pick(p, zh('field', 'country'), 'US', /^US\b/)
    await pick(p, zh('fba', 'fulfilmentCentre'), 'ONT8', /^ONT8\b/)
    await p.getByRole('button', { name: zh('ui', 'save'), exact: true }).click()
    await p.goto(`${enabled.base}/fbaAddressBook`)
    const address = p.locator('table tbody tr').filter({ hasText: 'AMZ-ONT8-2' })
    await expect.poll(() => address.count(), WAIT).toBe(1)
    // The server filled the street from Amazon's list.
    await expect.poll(() => address.textContent(), WAIT).toContain('24208 San Michele Rd')
    expect(await address.textContent()).toContain('Moreno Valley')

    // 4. A product: a picture too large and a wrong ASIN are refused with their messages, the right ones saved.
    await p.goto(`${enabled.base}/fbaProductDetail`)
    await p.getByLabel(zh('fba', 'sku')).fill('MH-SILK-SCARF-RD')
    await p.getByLabel(zh('fba', 'nameCn')).fill('桑蚕丝方巾 酒红')
    await p.getByLabel(zh('fba', 'nameEn')).fill('Mulberry silk square scarf, burgundy')
    // A 3 MB picture is refused before it is sent (the field takes 2 MB), a small one stored and previewed.
    const picture = p.locator('input[type="file"]')
    await expect.poll(() => picture.count(), WAIT).toBe(1)
    await picture.setInputFiles({
      name: 'scarf-big.png',
      mimeType: 'image/png',
      buffer: png(40, 40, [150, 20, 40], 3072),
    })
    await expect
      .poll(() => p.getByRole('alert').allTextContents(), WAIT)
      .toContain(zh('widget', 'fileTooLarge').replace('{{name}}', 'scarf-big.png').replace('{{size}}', '2 MB'))
    await picture.setInputFiles({ name: 'scarf.png', mimeType: 'image/png', buffer: png(40, 40, [150, 20, 40]) })
    await expect.poll(() => p.getByRole('img', { name: /scarf\.png/ }).count(), WAIT).toBe(1)
    const asin = p.getByLabel(zh('fba', 'asin'))
    await asin.fill('B1C7K4M2XR')
    await p.getByRole('button', { name: zh('ui', 'save'), exact: true }).click()
    await expect.poll(() => p.getByText(zh('fba', 'asinFormat')).count(), WAIT).toBeGreaterThan(0)
    await asin.fill('B0C7K4M2XR')
    await p.getByRole('button', { name: zh('ui', 'save'), exact: true }).click()
    await p.goto(`${enabled.base}/fbaProductList`)
    const product = p.locator('table tbody tr').filter({ hasText: 'MH-SILK-SCARF-RD' })
    await expect.poll(() => product.count(), WAIT).toBe(1)
    expect(await product.textContent()).toContain('B0C7K4M2XR')
    await enabled.context.close()
  })
})
