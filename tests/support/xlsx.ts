import ExcelJS from 'exceljs'

/** One cell as read back: its value (number, text, Date, boolean or null) and its number format. */
export interface ReadCell {
  value: ExcelJS.CellValue
  numFmt: string | undefined
}

/**
 * An .xlsx export read back with exceljs (the reader a spreadsheet user's file would meet): the first sheet's
 * name, its header row and every row below it, cell by cell, as many cells as the header has.
 */
export async function readXlsx(
  body: Buffer | ArrayBuffer,
): Promise<{ sheet: string; headers: string[]; rows: ReadCell[][] }> {
  const workbook = new ExcelJS.Workbook()
  await workbook.xlsx.load(body as ArrayBuffer)
  const sheet = workbook.worksheets[0]
  if (!sheet) throw new Error('The workbook has no sheet')
  const width = sheet.getRow(1).cellCount
  const headers = Array.from({ length: width }, (_, i) => String(sheet.getRow(1).getCell(i + 1).value ?? ''))
  const rows: ReadCell[][] = []
  for (let r = 2; r <= sheet.rowCount; r++) {
    const row = sheet.getRow(r)
    rows.push(
      Array.from({ length: width }, (_, i) => {
        const cell = row.getCell(i + 1)
        return { value: cell.value, numFmt: cell.numFmt }
      }),
    )
  }
  return { sheet: sheet.name, headers, rows }
}

/** The MIME type of an .xlsx file. */
export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
