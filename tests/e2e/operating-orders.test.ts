import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { withTenant } from '../../server/tenancy/scope.ts'
import { localeText, setupPortal, WAIT } from '../support/portal.ts'

/**
 * Operating orders in Chromium (issue #23): the operator edits a job file inside the ETD limit and saves it,
 * opens one past the limit and is warned (SPEC §9) and cannot save it, then approves a pending one from
 * /operatorOperatingOrderList: the pending count in the top bar falls by one.
 */
const portal = setupPortal()
const en = (namespace: string, key: string) => localeText('en', namespace, key)

interface PendingJob {
  id: number
  job_no: string
  etd: string
}

describe('operating orders (/operatorOperatingOrderList, /editOperatingOrder)', () => {
  it('edits inside the ETD limit, is warned and refused past it, approves one and the header count falls', async () => {
    const db = portal.server.database.db
    const demo = (await db.selectFrom('tenant').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()).id
    // The seeded job files awaiting approval, the one sailing soonest first (tomorrow: past the 24 hours).
    const pending = await withTenant(
      db,
      demo,
      async (trx) =>
        (
          await sql<PendingJob>`select id, job_no, to_char(etd, 'YYYY-MM-DD') as etd from operating_order
          where approve_state = 'pending' order by etd`.execute(trx)
        ).rows,
    )
    expect(pending).toHaveLength(3)
    const [past, inside] = pending as [PendingJob, PendingJob, PendingJob]

    const { context, page, base } = await portal.signIn('opadmin')
    const badge = page.getByTestId('pending-approvals')
    const shown = async () => Number(await badge.getAttribute('data-count'))

    // Inside the limit: the form saves.
    await page.goto(`${base}/editOperatingOrder?id=${inside.id}&lang=en`)
    const reference = page.getByLabel(en('operating', 'customerRefNo'))
    await reference.waitFor(WAIT)
    await expect.poll(shown, WAIT).toBe(3)
    expect(await page.getByTestId('edit-deadline').count()).toBe(0)
    await reference.fill('PO-E2E-0001')
    await page.getByRole('button', { name: en('ui', 'save'), exact: true }).click()
    await expect.poll(() => page.getByText(en('ui', 'saved'), { exact: true }).count(), WAIT).toBeGreaterThan(0)

    // Past it: SPEC §9's warning, the fields locked and no Save.
    await page.goto(`${base}/editOperatingOrder?id=${past.id}&lang=en`)
    const warning = page.getByTestId('edit-deadline')
    await expect.poll(() => warning.count(), WAIT).toBe(1)
    expect(await warning.textContent()).toContain(en('error', 'etdWarning'))
    expect(await page.getByLabel(en('operating', 'customerRefNo')).isDisabled()).toBe(true)
    expect(await page.getByRole('button', { name: en('ui', 'save'), exact: true }).count()).toBe(0)

    // Approve the job edited above from the operators' list of pending ones.
    await page.goto(`${base}/operatorOperatingOrderList?approveState=pending&lang=en`)
    const row = page.locator('table tbody tr', { hasText: inside.job_no })
    await row.waitFor(WAIT)
    await row.getByRole('button', { name: en('operating', 'approve'), exact: true }).click()
    const dialog = page.getByRole('dialog')
    await expect.poll(() => dialog.getByText(en('operating', 'confirmApprove')).count(), WAIT).toBe(1)
    await dialog.getByRole('button', { name: en('ui', 'ok'), exact: true }).click()
    await expect.poll(shown, WAIT).toBe(2)
    await expect.poll(() => page.locator('table tbody tr', { hasText: inside.job_no }).count(), WAIT).toBe(0)
    expect(await badge.getAttribute('aria-label')).toBe(`${en('operating', 'pendingApproval')}: 2`)

    // Stored as the screens said: the edit inside the limit, the approval; the job past it unchanged.
    const stored = await withTenant(
      db,
      demo,
      async (trx) =>
        (
          await sql<{ id: number; customer_ref_no: string | null; approve_state: string }>`
          select id, customer_ref_no, approve_state from operating_order where id in (${inside.id}, ${past.id})
          order by etd`.execute(trx)
        ).rows,
    )
    expect(stored.find((job) => job.id === inside.id)).toMatchObject({
      customer_ref_no: 'PO-E2E-0001',
      approve_state: 'approved',
    })
    expect(stored.find((job) => job.id === past.id)?.approve_state).toBe('pending')
    await context.close()
  })
})
