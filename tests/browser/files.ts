import * as XLSX from '@e965/xlsx';
import type { Download, Page } from 'playwright-core';

/** Spreadsheets and downloads in the browser tests: an .xlsx from rows, the rows of one, a download's name and bytes. */
export const xlsx = (rows: unknown[][]) => {
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), 'data');
  return XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
};

export const rowsOf = (data: Buffer) => {
  const wb = XLSX.read(data, { type: 'buffer' });
  return XLSX.utils.sheet_to_json(wb.Sheets[wb.SheetNames[0]], { header: 1, raw: true, defval: null }) as unknown[][];
};

/** A download's bytes, streamed from the browser (the run's Chromium is connected to, so it has no local path). */
export async function bytesOf(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function saved(download: Download) {
  return { name: download.suggestedFilename(), data: await bytesOf(download) };
}

/** The visible text of the element with this test id (a table, a section). */
export const tableText = (page: Page, testId: string) => page.getByTestId(testId).innerText();
