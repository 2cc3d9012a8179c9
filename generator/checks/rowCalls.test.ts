import { describe, expect, it } from 'vitest'
import { checkRowCalls } from './rowCalls.ts'
import { contextOf } from './testing.ts'

const letter = `
entity: letter
label: letter.entity
fields:
  title: { type: string, label: letter.title }
  link: { type: string, label: letter.link }
  status: { type: integer, label: letter.status }
`
const letterRef = `
entity: letterRef
label: entity.letterRef
stored: false
fields:
  id: { type: integer, required: true }
`
const area = (action: string) => `
area: messages
label: area.messages
endpoints:
  - { name: letterRead, method: POST, path: /b2b/letter/read, permission: letterList, body: letterRef, response: letterRef }
screens:
  - name: letterList
    route: /letterList
    title: route.letterList
    access: permission
    status: built
    kind: list
    entity: letter
    actions:
      row:
        - ${action}
`
const errorsOf = (action: string) =>
  checkRowCalls(
    contextOf({
      'schemas/letter.yaml': letter,
      'schemas/letterRef.yaml': letterRef,
      'screens/messages.yaml': area(action),
    }),
  ).map((error) => error.message)

describe('a row action that opens the row’s address (opens:)', () => {
  it('is taken on a text field of the rows, with call:', () => {
    expect(errorsOf('{ name: open, label: letter.open, call: letterRead, opens: link }')).toEqual([])
  })

  it('is refused on a field that is not text, or one the rows do not have', () => {
    expect(errorsOf('{ name: open, label: letter.open, call: letterRead, opens: status }')).toEqual([
      '"status" is not a text field of the screen’s rows',
    ])
    expect(errorsOf('{ name: open, label: letter.open, call: letterRead, opens: links }')).toEqual([
      '"links" is not a text field of the screen’s rows',
    ])
  })

  it('is refused without call:', () => {
    expect(errorsOf('{ name: open, label: letter.open, route: letterList, opens: link }')).toEqual([
      'opens: belongs to an action with call:',
    ])
  })
})
