import { describe, expect, it } from 'vitest'
import { arrangeColumns } from '../../runtime/screens/list/useListScreen.ts'

describe("a user's own list columns", () => {
  const screen = [{ field: 'orderNo' }, { field: 'jobNo' }, { field: 'pol' }, { field: 'pod' }]

  it('keeps the screen order when the user arranged nothing', () => {
    expect(arrangeColumns(screen, [])).toEqual(screen)
  })

  it("puts the user's columns first in their order, with their hidden flags, the rest after", () => {
    expect(arrangeColumns(screen, [{ field: 'pod' }, { field: 'jobNo', hidden: true }])).toEqual([
      { field: 'pod' },
      { field: 'jobNo', hidden: true },
      { field: 'orderNo' },
      { field: 'pol' },
    ])
  })

  it('drops settings of columns the screen no longer has (or a tenant overlay hides)', () => {
    expect(arrangeColumns(screen.slice(0, 2), [{ field: 'pod', hidden: true }, { field: 'orderNo' }])).toEqual([
      { field: 'orderNo' },
      { field: 'jobNo' },
    ])
  })
})
