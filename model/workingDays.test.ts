import { describe, expect, it } from 'vitest';
import { addWorkingDays, isWorkingDay } from './workingDays';

describe('working days (expected delivery day)', () => {
  it('Monday to Friday, without the Italian national holidays and Easter Monday', () => {
    expect(isWorkingDay('2026-11-27')).toBe(true); // a Friday
    expect(isWorkingDay('2026-11-28')).toBe(false); // Saturday
    expect(isWorkingDay('2026-11-29')).toBe(false); // Sunday
    expect(isWorkingDay('2026-12-08')).toBe(false); // Immacolata, a Tuesday
    expect(isWorkingDay('2026-04-06')).toBe(false); // Easter Monday 2026 (Easter 5 April)
    expect(isWorkingDay('2027-03-29')).toBe(false); // Easter Monday 2027 (Easter 28 March)
    expect(isWorkingDay('2026-04-07')).toBe(true);
    expect(isWorkingDay('2026-06-02')).toBe(false);
  });
  it('adds lead-time days over weekends and holidays', () => {
    expect(addWorkingDays('2026-11-23', 2)).toBe('2026-11-25'); // Monday + 2
    expect(addWorkingDays('2026-11-27', 1)).toBe('2026-11-30'); // Friday + 1 = Monday
    expect(addWorkingDays('2026-12-04', 2)).toBe('2026-12-09'); // Friday + 2, over the 8 December
    expect(addWorkingDays('2026-12-24', 1)).toBe('2026-12-28'); // over Christmas and Saint Stephen
    expect(addWorkingDays('2026-11-25', 0)).toBe('2026-11-25');
    expect(addWorkingDays('2026-11-28', 0)).toBe('2026-11-30'); // a Saturday pickup: the Monday
    expect(addWorkingDays('2026-11-28', 1)).toBe('2026-12-01');
  });
  it('answers null for what it cannot read', () => {
    expect(addWorkingDays('28/11/2026', 1)).toBeNull();
    expect(addWorkingDays('2026-11-23', -1)).toBeNull();
    expect(addWorkingDays('2026-11-23', 1.5)).toBeNull();
  });
});
