/** A spreadsheet recognised by its first bytes: .xlsx (a zip) or .xls (an OLE2 compound file). */
export function spreadsheetKind(data: Buffer): { ext: '.xlsx' | '.xls'; mime: string } | null {
  if (data.length >= 4 && data[0] === 0x50 && data[1] === 0x4b && data[2] === 0x03 && data[3] === 0x04) {
    return { ext: '.xlsx', mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' };
  }
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))) {
    return { ext: '.xls', mime: 'application/vnd.ms-excel' };
  }
  return null;
}
