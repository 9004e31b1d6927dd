import { wordOf, type RowsSpec } from '../../model/tariffs.js';
import { parseDecimal, pow10 } from '../pricing/money.js';
import { readCell, type CellContext } from './cells.js';
import { ImportError, RowErrorList, type RowError } from './errors.js';
import type { SheetData } from './read/sheet.js';

export type ImportRow = Record<string, string | number | null>;

export type ValidateOptions = CellContext;

/** Matches the header row to the declared columns: case-insensitive, any order, extra columns ignored. */
export function matchHeaders(spec: RowsSpec, sheet: SheetData): number[] {
  const byName = new Map<string, number>();
  const declared = new Set(spec.columns.map((c) => c.name));
  for (const [i, h] of sheet.headers.entries()) {
    const name = (h ?? '').trim().toLowerCase();
    if (!name) continue;
    if (byName.has(name) && declared.has(name)) throw new ImportError(422, 'import.duplicateHeader', { column: name });
    if (!byName.has(name)) byName.set(name, i);
  }
  // Every declared column must be there: pricing.md §1 says the first row holds exactly these names, and
  // a misspelt optional header would otherwise empty a whole column without a word.
  const missing = spec.columns.filter((c) => !byName.has(c.name)).map((c) => c.name);
  // Not one column name: the sheet starts with data, and saying "no header row" is clearer than a list.
  if (missing.length === spec.columns.length) throw new ImportError(422, 'import.noHeader', { expected: spec.columns.map((c) => c.name).join(', ') });
  if (missing.length) {
    throw new ImportError(422, 'import.missingHeaders', { columns: missing.join(', '), expected: spec.columns.map((c) => c.name).join(', ') });
  }
  return spec.columns.map((c) => byName.get(c.name)!);
}

const keyOf = (row: ImportRow, cols: readonly string[]) => cols.map((c) => String(row[c] ?? '').toLowerCase()).join('\u0001');

/**
 * Validates every data row of the sheet against the spec and answers the normalised rows, or throws
 * an ImportError listing EVERY refused cell (row number as Excel shows it, column, reason). Blank rows
 * are skipped. Also checks the set's rules: unique keys, location rows, non-overlapping brackets.
 */
export function validateRows(spec: RowsSpec, sheet: SheetData, opts: ValidateOptions = {}, consume = false): ImportRow[] {
  const colIndex = matchHeaders(spec, sheet);
  const columns = spec.columns;
  const errors = new RowErrorList();
  const rows: ImportRow[] = [];
  const rowNumbers: number[] = [];
  const seen = new Map<string, number>();
  /** Bracket limits as exact integers of the column's smallest unit (3 decimals: grams), per kept row. */
  const limits: Array<[number, number]> = [];
  const bScale = spec.brackets ? (columns.find((c) => c.name === spec.brackets!.from)?.scale ?? 4) : 0;

  for (let r = sheet.headerRow + 1; r < sheet.rows.length; r++) {
    const cells = sheet.rows[r];
    if (!cells) continue;
    // `consume`: the sheet's rows are let go as they are read (the reading thread, whose heap is capped,
    // holds the cells and the validated rows at once only a row at a time).
    if (consume) sheet.rows[r] = undefined;
    let blank = true;
    for (const i of colIndex) {
      const c = cells[i];
      if (c && c.v !== undefined && c.v !== null && String(c.v).trim() !== '') {
        blank = false;
        break;
      }
    }
    if (blank) continue;
    const rowNo = r + 1;
    const row: ImportRow = {};
    let rowOk = true;
    for (let k = 0; k < columns.length; k++) {
      const res = readCell(columns[k], cells[colIndex[k]], opts);
      if (res.ok) row[columns[k].name] = res.value;
      else {
        rowOk = false;
        errors.push({ row: rowNo, column: columns[k].name, key: res.key, params: res.params });
      }
    }
    if (!rowOk) continue;

    if (spec.anyOf && spec.anyOf.every((c) => row[c] === null)) {
      errors.push({ row: rowNo, column: spec.anyOf[0], key: 'import.anyOf', params: { columns: spec.anyOf.join(', ') } });
      continue;
    }

    if (spec.location && row.postal_code === null && (row.city === null || row.province === null)) {
      errors.push({ row: rowNo, column: 'postal_code', key: 'import.location' });
      continue;
    }
    let lim: [number, number] = [0, 0];
    if (spec.brackets) {
      lim = [fixed(row[spec.brackets.from], bScale), fixed(row[spec.brackets.to], bScale)];
      if (lim[0] >= lim[1]) {
        errors.push({ row: rowNo, column: spec.brackets.to, key: 'import.bracketOrder' });
        continue;
      }
    }
    if (spec.unique) {
      const k = keyOf(row, spec.unique);
      const first = seen.get(k);
      if (first !== undefined) {
        errors.push({
          row: rowNo,
          column: spec.unique[0],
          key: 'import.duplicate',
          // a class as the file may write it (SILVER, not 1)
          params: {
            first,
            values: spec.unique
              .map(
                (c) =>
                  `${c} ${
                    wordOf(
                      columns.find((k) => k.name === c)!,
                      row[c],
                    ) ?? row[c]
                  }`,
              )
              .join(', '),
          },
        });
        continue;
      }
      seen.set(k, rowNo);
    }
    rows.push(row);
    rowNumbers.push(rowNo);
    if (spec.brackets) limits.push(lim);
  }

  if (spec.brackets) for (const e of overlaps(spec.brackets, rows, rowNumbers, limits)) errors.push(e);
  if (errors.length) throw new ImportError(422, 'import.badRows', {}, errors);
  if (!rows.length) throw new ImportError(422, 'import.noRows');
  return rows;
}

/** A validated decimal cell as an exact integer number of 10^-scale units. */
function fixed(v: string | number | null, scale: number): number {
  const m = /^(\d{1,9})(?:\.(\d+))?$/.exec(String(v));
  if (m && (m[2] ?? '').length <= scale) return Number(m[1]) * 10 ** scale + Number((m[2] ?? '').padEnd(scale, '0') || '0');
  const d = parseDecimal(String(v));
  return Number(d.scale >= scale ? d.n / pow10(d.scale - scale) : d.n * pow10(scale - d.scale));
}

/** Brackets of one group sorted by their start; each must start at or after the previous one's end. */
function overlaps(b: NonNullable<RowsSpec['brackets']>, rows: ImportRow[], rowNumbers: number[], lim: Array<[number, number]>): RowError[] {
  const groups = new Map<string, number[]>();
  rows.forEach((row, i) => {
    const k = keyOf(row, b.group);
    const list = groups.get(k);
    if (list) list.push(i);
    else groups.set(k, [i]);
  });
  const errors: RowError[] = [];
  for (const idx of groups.values()) {
    if (idx.length < 2) continue;
    idx.sort((x, y) => lim[x][0] - lim[y][0] || rowNumbers[x] - rowNumbers[y]);
    let prev = idx[0];
    for (let j = 1; j < idx.length; j++) {
      const cur = idx[j];
      if (lim[cur][0] < lim[prev][1]) {
        errors.push({
          row: rowNumbers[cur],
          column: b.from,
          key: 'import.overlap',
          params: {
            from: rows[cur][b.from],
            to: rows[cur][b.to],
            other: rowNumbers[prev],
            other_from: rows[prev][b.from],
            other_to: rows[prev][b.to],
            group: b.group.map((c) => rows[cur][c]).join(' '),
          },
        });
        // keep the bracket reaching furthest as the reference for the next ones
        if (lim[cur][1] > lim[prev][1]) prev = cur;
      } else {
        prev = cur;
      }
    }
  }
  return errors;
}
