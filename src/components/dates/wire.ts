import { format, isValid, parse } from 'date-fns';

/**
 * What a picker sends and reads, exactly as the forms sent it before the pickers (issue 24):
 * a date `YYYY-MM-DD`, a time `HH:mm` (24 h), a month `YYYY-MM`; '' for no value or an unfinished one.
 */
export type PickerKind = 'date' | 'time' | 'month';

const WIRE: Record<PickerKind, string> = { date: 'yyyy-MM-dd', time: 'HH:mm', month: 'yyyy-MM' };
/** What the field shows, the same in it, en (en-GB) and fr: day first, 24 h (docs/dates.md). */
export const SHOWN: Record<PickerKind, string> = { date: 'dd/MM/yyyy', time: 'HH:mm', month: 'MM/yyyy' };
// The leading part a stored value may carry more of: `2026-11-25 00:00:00`, `2026-11-25T…`, `09:00:00`.
const LEAD: Record<PickerKind, RegExp> = { date: /^(\d{4}-\d{2}-\d{2})/, time: /^(\d{2}:\d{2})/, month: /^(\d{4}-\d{2})/ };

/** A wire value as a Date for the picker (local time); null for empty or unreadable text. */
export function fromWire(kind: PickerKind, value: unknown): Date | null {
  if (value instanceof Date) return isValid(value) ? value : null;
  if (typeof value !== 'string') return null;
  const m = LEAD[kind].exec(value.trim());
  if (!m) return null;
  const d = parse(m[1], WIRE[kind], new Date(2000, 0, 1));
  return isValid(d) ? d : null;
}

/** A picker's Date as the wire value; '' for none or an unfinished (invalid) one. */
export function toWire(kind: PickerKind, d: Date | null | undefined): string {
  return d && isValid(d) && d.getFullYear() >= 1000 && d.getFullYear() <= 9999 ? format(d, WIRE[kind]) : '';
}
