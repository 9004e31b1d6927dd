import type { Locator, Page } from 'playwright-core';

/**
 * The portal's date, time and month fields (src/components/dates, MUI X pickers) as a user types in them:
 * click the first part, select all, delete, then type the text (25/11/2026, 09:30, 11/2026) on the keyboard.
 * `testId` is the field's root (`data-testid`).
 */
export async function typeInPicker(scope: Page | Locator, testId: string, text: string) {
  const first = scope.getByTestId(testId).locator('[role="spinbutton"]').first();
  // Under load a keystroke can reach a part while MUI X is still re-rendering the cleared field (CI once
  // showed GG/MM/2028 for 29/02/2028): type at a person's pace, and type again when the field does not
  // show what was typed (a refused date, e.g. 31/02, shows differently on purpose: three tries, then on).
  for (let attempt = 0; attempt < 3; attempt++) {
    await first.click();
    const keyboard = first.page().keyboard;
    await keyboard.press('ControlOrMeta+a');
    await keyboard.press('Backspace');
    await keyboard.type(text, { delay: 30 });
    if ((await pickerText(scope, testId)) === text) return;
  }
}

/** What a picker field shows now, from its parts ("25/11/2026", "09:30"). */
export const pickerText = (scope: Page | Locator, testId: string) => scope.getByTestId(testId).locator('input').inputValue();

/** A `YYYY-MM-DD` day as the Italian (and French, and English) screen writes it: 25/11/2026. */
export const shownDay = (iso: string) => iso.split('-').reverse().join('/');
