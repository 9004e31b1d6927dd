import type { Locator, Page } from 'playwright-core';

/**
 * The portal's date, time and month fields (src/components/dates, MUI X pickers) as a user types in them:
 * click the first part, select all, delete, then type the text (25/11/2026, 09:30, 11/2026) on the keyboard.
 * `testId` is the field's root (`data-testid`).
 */
export async function typeInPicker(scope: Page | Locator, testId: string, text: string) {
  const first = scope.getByTestId(testId).locator('[role="spinbutton"]').first();
  await first.click();
  const keyboard = first.page().keyboard;
  await keyboard.press('ControlOrMeta+a');
  await keyboard.press('Backspace');
  await keyboard.type(text);
}

/** What a picker field shows now, from its parts ("25/11/2026", "09:30"). */
export const pickerText = (scope: Page | Locator, testId: string) => scope.getByTestId(testId).locator('input').inputValue();

/** A `YYYY-MM-DD` day as the Italian (and French, and English) screen writes it: 25/11/2026. */
export const shownDay = (iso: string) => iso.split('-').reverse().join('/');
