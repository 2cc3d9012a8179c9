import { describe, expect, it } from 'vitest'
import manifest from '../../generated/manifest.json'
import type { FieldDef } from '../../model/definitions.ts'
import type { Manifest } from '../../model/resolve.ts'
import { fileFieldAt, fileLimits, formatBytes } from '../../rules/fileLimits.ts'
import { buildUiSchema, currencyFieldOf, formSections, widgetFor } from '../../runtime/forms/schemaForm.ts'
import { refusal } from '../../runtime/widgets/fileTransfer.ts'
import { codesParam, hasLookup, storedValue, WIDGET_LOOKUPS } from '../../runtime/widgets/lookups.ts'
import { decimalsOf, moneyInput, moneyValue } from '../../runtime/widgets/money.ts'
import {
  COLUMN_WIDTHS,
  clampPage,
  columnWidth,
  errorCount,
  errorsByPage,
  pageCountOf,
  ROW_ACTIONS_WIDTH,
  ROW_NUMBER_WIDTH,
  rowsOnPage,
  subTableWidths,
} from '../../runtime/widgets/subTable.ts'
import { textBlockStatus } from '../../runtime/widgets/textBlock.ts'

const { entities } = manifest as unknown as Manifest

describe('reference look-ups', () => {
  it('have a look-up for every reference list and the tenant entities forms point at', () => {
    for (const name of Object.keys(entities).filter((n) => entities[n]?.reference))
      expect(hasLookup(name), name).toBe(true)
    expect(hasLookup('company')).toBe(true)
    expect(hasLookup('role')).toBe(true)
    // A shipment subscription's order (issue #22): the caller's own orders.
    expect(hasLookup('order')).toBe(true)
    expect(hasLookup('inquiry')).toBe(false)
  })

  it('give a ref to a tenant entity the search select, told which entity', () => {
    expect(widgetFor({ type: 'ref', ref: 'port' })).toBe('portSelect')
    expect(widgetFor({ type: 'ref', ref: 'company' })).toBe('ReferenceWidget')
    expect(widgetFor({ type: 'ref', ref: 'order' })).toBe('ReferenceWidget')
    expect(widgetFor({ type: 'ref', ref: 'inquiry' })).toBe('text')
    const account = entities.operationAccount as NonNullable<Manifest['entities'][string]>
    const ui = buildUiSchema(account, formSections(account)) as Record<string, Record<string, unknown>>
    expect(ui.companyAppRoleId).toMatchObject({ 'ui:widget': 'ReferenceWidget', 'ui:options': { ref: 'role' } })
  })

  it("tell a list's own select a narrower look-up: the inquiry's container types are the tenant's offer", () => {
    const inquiry = entities.inquiry as NonNullable<Manifest['entities'][string]>
    const ui = buildUiSchema(inquiry, formSections(inquiry)) as Record<string, Record<string, unknown>>
    const cell = (ui.containers?.items as Record<string, Record<string, unknown>>)?.containerType
    expect(cell).toMatchObject({ 'ui:widget': 'containerTypeSelect', 'ui:options': { ref: 'offeredContainerType' } })
    expect(hasLookup('offeredContainerType')).toBe(true)
  })

  it('send stored values as codes and read ids back as integers where the schema wants them', () => {
    expect(codesParam(['CNSHA', 'USLAX', 'CNSHA', '', null])).toBe('CNSHA,USLAX')
    expect(codesParam([])).toBeUndefined()
    expect(storedValue('12', 'integer')).toBe(12)
    expect(storedValue('CNSHA', 'string')).toBe('CNSHA')
    expect(storedValue('12', 'string')).toBe('12')
  })
})

describe('money', () => {
  it('takes digits, one point and the field decimals, and refuses the rest as it is typed', () => {
    expect(moneyInput('1234.567', 3)).toBe('1234.567')
    expect(moneyInput('1234.5678', 3)).toBeNull()
    expect(moneyInput('12.', 3)).toBe('12.')
    expect(moneyInput('-', 3)).toBe('-')
    expect(moneyInput('1,234.50', 2)).toBe('1234.50')
    expect(moneyInput('12a', 3)).toBeNull()
    expect(moneyInput('12345678901', 3)).toBeNull()
    expect(moneyInput('12.5', 0)).toBeNull()
    expect(moneyValue('12.')).toBe('12')
    expect(moneyValue('-')).toBeUndefined()
  })

  it('reads the decimals from the generated pattern and pairs a currency field', () => {
    expect(decimalsOf('^-?\\d{1,10}(\\.\\d{1,3})?$')).toBe(3)
    expect(decimalsOf('^-?\\d{1,10}(\\.\\d{1,6})?$')).toBe(6)
    expect(decimalsOf('^-?\\d{1,10}$')).toBe(0)
    const fields: Record<string, FieldDef> = {
      price: { type: 'money' },
      priceCurrency: { type: 'ref', ref: 'currency' },
      fee: { type: 'money' },
      currency: { type: 'ref', ref: 'currency' },
      other: { type: 'money' },
    }
    expect(currencyFieldOf(fields, 'price')).toBe('priceCurrency')
    expect(currencyFieldOf(fields, 'fee')).toBe('currency')
    expect(currencyFieldOf({ other: { type: 'money' } }, 'other')).toBeUndefined()
  })
})

describe('uploads', () => {
  it('take the YAML limits, with SPEC §5 defaults', () => {
    const avatar = entities.userProfile?.fields.avatar as FieldDef
    expect(fileLimits(avatar)).toEqual({
      accept: ['png', 'jpg', 'jpeg'],
      maxBytes: 1024 * 1024,
      maxFiles: 1,
      image: true,
    })
    expect(widgetFor(avatar)).toBe('imageUpload')
    const attachments = fileLimits({ multiple: true })
    expect(attachments.maxBytes).toBe(5 * 1024 * 1024)
    expect(attachments.maxFiles).toBe(10)
    expect(attachments.accept).toContain('pdf')
    expect(fileLimits({ maxSizeKb: 999_999 }).maxBytes).toBe(50 * 1024 * 1024)
    expect(formatBytes(300 * 1024)).toBe('300 KB')
  })

  it('are refused before sending when the type or the size is wrong', () => {
    const limits = fileLimits({ accept: ['png', 'jpg'], maxSizeKb: 1024 })
    expect(refusal({ name: 'a.JPEG', size: 10 }, limits)).toBeNull()
    expect(refusal({ name: 'a.pdf', size: 10 }, limits)?.key).toBe('widget.fileTypeRefused')
    expect(refusal({ name: 'a.png', size: 2 * 1024 * 1024 }, limits)).toEqual({
      key: 'widget.fileTooLarge',
      params: { name: 'a.png', size: '1 MB' },
    })
  })

  it('carry their limits and upload target in the uiSchema', () => {
    const profile = entities.userProfile as NonNullable<Manifest['entities'][string]>
    const ui = buildUiSchema(profile, formSections(profile)) as Record<string, Record<string, unknown>>
    expect(ui.avatar).toMatchObject({
      'ui:widget': 'imageUpload',
      'ui:options': { entity: 'userProfile', field: 'avatar', maxBytes: 1024 * 1024, maxFiles: 1 },
    })
  })

  it('find file fields inside array rows', () => {
    const fields: Record<string, FieldDef> = {
      documents: { type: 'array', items: { scan: { type: 'file', accept: ['pdf'] }, note: { type: 'string' } } },
    }
    expect(fileFieldAt(fields, 'documents.scan')?.accept).toEqual(['pdf'])
    expect(fileFieldAt(fields, 'documents.note')).toBeUndefined()
    expect(fileFieldAt(fields, 'documents')).toBeUndefined()
  })
})

describe('sub-tables', () => {
  it('page rows ten at a time', () => {
    expect(pageCountOf(0)).toBe(1)
    expect(pageCountOf(21)).toBe(3)
    expect(rowsOnPage(21, 3)).toEqual([20])
    expect(rowsOnPage(21, 1)).toHaveLength(10)
    expect(clampPage(5, 21)).toBe(3)
  })

  it('count the errors of each page from the error schema', () => {
    const errorSchema = {
      __errors: ['whole array'],
      0: { name: { __errors: ['required'] } },
      12: { amount: { __errors: ['a', 'b'] }, currency: { __errors: ['c'] } },
      30: { name: { __errors: ['stale row'] } },
    }
    expect(errorCount(errorSchema[12])).toBe(3)
    expect(errorsByPage(errorSchema, 21)).toEqual([1, 3, 0])
  })

  it('are drawn by the sub-table templates with a widget per cell', () => {
    const entity = {
      entity: 'quote',
      fields: {
        charges: {
          type: 'array',
          label: 'field.charges',
          items: {
            name: { type: 'string', label: 'field.name', required: true },
            amount: { type: 'money', label: 'field.amount' },
            currency: { type: 'ref', ref: 'currency', label: 'field.currency' },
          },
        },
      } as Record<string, FieldDef>,
      schema: { properties: { charges: { type: 'array' } } },
    }
    const ui = buildUiSchema(entity, [{ title: '', fields: ['charges'] }]) as Record<string, Record<string, unknown>>
    expect(ui.charges?.['ui:widget']).toBeUndefined()
    expect(ui.charges).toMatchObject({
      'ui:ArrayFieldTemplate': 'subTable',
      'ui:ArrayFieldItemTemplate': 'subTableRow',
      items: {
        'ui:ObjectFieldTemplate': 'subTableCells',
        amount: { 'ui:widget': 'money', 'ui:options': { cell: true, decimals: 3, currencyField: 'currency' } },
        currency: { 'ui:widget': 'currencySelect', 'ui:options': { cell: true } },
      },
    })
  })
})

describe('sub-table columns', () => {
  it("give a look-up room for a whole label (45G1 — 40'HQ) and its buttons, a number less", () => {
    expect(columnWidth('containerTypeSelect')).toBeGreaterThanOrEqual(180)
    for (const widget of [...Object.keys(WIDGET_LOOKUPS), 'ReferenceWidget'])
      expect(columnWidth(widget), widget).toBeGreaterThan(columnWidth('number'))
    expect(columnWidth('number')).toBeGreaterThanOrEqual(96)
    // A widget without its own width (or none named) gets a short text box's.
    expect(columnWidth(undefined)).toBe(columnWidth('unknownWidget'))
    expect(Object.values(COLUMN_WIDTHS).every((w) => w >= 64)).toBe(true)
  })

  it("add up to the table's least width, with the row number and, when rows can be removed, the actions", () => {
    // The booking form's container table: type, quantity, gross weight.
    const widgets = ['containerTypeSelect', 'number', 'number']
    const editable = subTableWidths(widgets, true)
    expect(editable.columns).toEqual(widgets.map(columnWidth))
    expect(editable.table).toBe(
      ROW_NUMBER_WIDTH + columnWidth('containerTypeSelect') + 2 * columnWidth('number') + ROW_ACTIONS_WIDTH,
    )
    expect(subTableWidths(widgets, false).table).toBe(editable.table - ROW_ACTIONS_WIDTH)
    // The same table fits the booking form's column at 1280 wide (about 830 px of content) without scrolling.
    expect(editable.table).toBeLessThan(830)
    expect(subTableWidths([], false)).toEqual({ columns: [], table: ROW_NUMBER_WIDTH })
  })

  it("are read from the cells' widgets of the generated uiSchema", () => {
    const order = entities.order as Parameters<typeof buildUiSchema>[0]
    const ui = buildUiSchema(order, [{ title: '', fields: ['containers'] }]) as {
      containers?: { items?: Record<string, { 'ui:widget'?: string }> }
    }
    const cells = ui.containers?.items ?? {}
    expect(['containerType', 'quantity', 'grossWeight'].map((name) => cells[name]?.['ui:widget'])).toEqual([
      'containerTypeSelect',
      'number',
      'number',
    ])
  })
})

describe('the text block (SPEC §5: 35 characters × 7 lines)', () => {
  it('counts the cursor line, its characters and the lines, and flags both limits', () => {
    const text = 'NINGBO BRIGHT HOME CO., LTD.\nNO. 88'
    expect(textBlockStatus(text, text.length, { lineLength: 35, maxLines: 7 })).toEqual({
      line: 2,
      chars: 6,
      lines: 2,
      lineTooLong: false,
      tooManyLines: false,
    })
    expect(textBlockStatus('x'.repeat(36), 0, { lineLength: 35, maxLines: 7 }).lineTooLong).toBe(true)
    expect(textBlockStatus('a\nb\nc\nd\ne\nf\ng\nh', 0, { lineLength: 35, maxLines: 7 }).tooManyLines).toBe(true)
    // Characters, not UTF-16 units: a Chinese name counts one per character.
    expect(textBlockStatus('上海𠀀', 3, { lineLength: 35, maxLines: 7 }).chars).toBe(3)
  })
})
