// @vitest-environment happy-dom
import { FluentProvider, webLightTheme } from '@fluentui/react-components'
import Form from '@rjsf/core'
import type { RJSFSchema } from '@rjsf/utils'
import validator from '@rjsf/validator-ajv8'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, createElement, createRef } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterEach, describe, expect, it } from 'vitest'
import type { FieldDef } from '../../model/definitions.ts'
import { buildUiSchema } from '../../runtime/forms/schemaForm.ts'
import { templates, widgets } from '../../runtime/forms/theme.tsx'

/**
 * The richer widgets drawn by real rjsf with our Fluent theme, in a DOM (happy-dom): the sub-table's
 * pages and error badges, money beside its currency, the rich-text editor loading lazily with the stored
 * HTML, the text block's live counter. (Look-ups and uploads talk to the server: tests/e2e/forms-*.)
 */
;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

let root: Root | undefined
let host: HTMLElement | undefined
afterEach(() => {
  act(() => root?.unmount())
  host?.remove()
})

const fields: Record<string, FieldDef> = {
  price: { type: 'money', label: 'field.price' },
  currency: { type: 'ref', ref: 'currency', label: 'field.currency' },
  notice: { type: 'richText', label: 'field.notice' },
  marks: { type: 'textBlock', label: 'field.marks', lineLength: 35, maxLines: 7 },
  charges: {
    type: 'array',
    label: 'field.charges',
    items: {
      name: { type: 'string', label: 'field.chargeName', required: true },
      quantity: { type: 'integer', label: 'field.quantity' },
    },
  },
}
const schema: RJSFSchema = {
  type: 'object',
  properties: {
    price: { type: 'string', pattern: '^-?\\d{1,10}(\\.\\d{1,3})?$', title: 'field.price' },
    currency: { type: 'string', title: 'field.currency' },
    notice: { type: 'string', title: 'field.notice' },
    marks: { type: 'string', title: 'field.marks' },
    charges: {
      type: 'array',
      title: 'field.charges',
      items: {
        type: 'object',
        required: ['name'],
        properties: {
          name: { type: 'string', minLength: 1, title: 'field.chargeName' },
          quantity: { type: 'integer', title: 'field.quantity' },
        },
      },
    },
  },
}
const sections = [{ title: '', columns: 1, fields: ['price', 'notice', 'marks', 'charges'] }]

async function render(formData: Record<string, unknown>, extraErrors?: Record<string, unknown>) {
  host = document.createElement('div')
  document.body.append(host)
  root = createRoot(host)
  const form = createRef<Form>()
  const uiSchema = buildUiSchema({ entity: 'sample', fields, schema }, sections)
  await act(async () => {
    root?.render(
      createElement(
        QueryClientProvider,
        { client: new QueryClient() },
        createElement(
          FluentProvider,
          { theme: webLightTheme },
          createElement(Form, {
            ref: form,
            schema,
            uiSchema,
            formData,
            validator,
            templates,
            widgets,
            showErrorList: false,
            noHtml5Validate: true,
            ...(extraErrors ? { extraErrors: extraErrors as never } : {}),
          }),
        ),
      ),
    )
  })
  return { host: host as HTMLElement, form }
}

const rows = (n: number, blank: number[] = []) =>
  Array.from({ length: n }, (_, i) => ({ name: blank.includes(i) ? '' : `Charge ${i + 1}`, quantity: i + 1 }))

describe('the sub-table', () => {
  it('shows ten rows a page, a page button per page, and moves between pages', async () => {
    const { host } = await render({ charges: rows(23) })
    const bodyRows = () => host.querySelectorAll('tbody tr')
    expect(bodyRows()).toHaveLength(10)
    const pager = host.querySelector('nav[aria-label="widget.subTablePages"]') as HTMLElement
    const buttons = [...pager.querySelectorAll('button')]
    expect(buttons.map((b) => b.textContent)).toEqual(['1', '2', '3'])
    await act(async () => buttons[2]?.click())
    expect(bodyRows()).toHaveLength(3)
    expect(bodyRows()[0]?.querySelector('td')?.textContent).toBe('21')
  })

  it('puts an error badge on each page with an invalid row and opens the first of them', async () => {
    // The errors a validation (or the server) found, as rjsf hands them to the array's template.
    const required = { name: { __errors: ['validation.required'] } }
    const { host } = await render({ charges: rows(23, [14, 21]) }, { charges: { 14: required, 21: required } })
    await act(async () => new Promise((resolve) => setTimeout(resolve, 0)))
    const badges = [...host.querySelectorAll('[data-page-errors]')].map((b) => [
      b.getAttribute('data-page-errors'),
      b.textContent,
    ])
    expect(badges).toEqual([
      ['2', '1'],
      ['3', '1'],
    ])
    // Page 1 has no error, so the table moved to page 2, where row 15 shows its message.
    expect(host.querySelector('tbody tr td')?.textContent).toBe('11')
    expect(host.querySelector('button[aria-current="page"]')?.textContent).toBe('21')
    expect(host.querySelector('tbody')?.textContent).toContain('validation.required')
  })

  it('finds the invalid rows by validating the form, as a submit does', async () => {
    const { host, form } = await render({ charges: rows(23, [3]) })
    await act(async () => {
      form.current?.validateForm()
    })
    expect([...host.querySelectorAll('[data-page-errors]')].map((b) => b.getAttribute('data-page-errors'))).toEqual([
      '1',
    ])
    expect(host.querySelector('tbody')?.textContent).toContain('must NOT have fewer than 1 characters')
  })

  it('adds and removes rows', async () => {
    const { host } = await render({ charges: rows(2) })
    const add = [...host.querySelectorAll('button')].find((b) => b.textContent === 'widget.addRow') as HTMLElement
    await act(async () => add.click())
    expect(host.querySelectorAll('tbody tr')).toHaveLength(3)
    const remove = host.querySelector('button[aria-label="widget.removeRow"]') as HTMLElement
    await act(async () => remove.click())
    expect(host.querySelectorAll('tbody tr')).toHaveLength(2)
  })
})

describe('money with its currency', () => {
  it('draws the amount and the currency as one pair and refuses a fourth decimal', async () => {
    const { host } = await render({ price: '12.5' })
    const pair = host.querySelector('[data-money-pair="price"]') as HTMLElement
    expect(pair).not.toBeNull()
    expect(pair.querySelector('input[inputmode="decimal"]')).not.toBeNull()
    expect(pair.querySelector('[role="combobox"]')).not.toBeNull()
    const amount = pair.querySelector('input[inputmode="decimal"]') as HTMLInputElement
    expect(amount.value).toBe('12.5')
  })
})

describe('rich text', () => {
  it('loads its editor lazily and shows the stored HTML in it', async () => {
    const { host } = await render({ notice: '<p>Cut-off <strong>Friday</strong></p>' })
    await expect.poll(() => host.querySelector('[contenteditable="true"]'), { timeout: 10_000 }).not.toBeNull()
    const editable = host.querySelector('[contenteditable="true"]') as HTMLElement
    await expect.poll(() => editable.textContent, { timeout: 5_000 }).toBe('Cut-off Friday')
    expect(editable.querySelector('strong')?.textContent).toBe('Friday')
    expect(host.querySelector('[role="toolbar"]')).not.toBeNull()
  })
})

describe('the text block', () => {
  it('shows the live line and character counter', async () => {
    const { host } = await render({ marks: 'N/M\nMADE IN CHINA' })
    const counter = host.querySelector('[aria-live="polite"]') as HTMLElement
    expect(counter.textContent).toContain('ui.textBlockLine')
    expect(counter.textContent).toContain('ui.textBlockLines')
  })
})
