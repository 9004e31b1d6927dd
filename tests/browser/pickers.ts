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

/** A form field's accessible name: its label, with the required mark (`*`) if any. */
export const fieldLabel = (text: string) => new RegExp(`^${text.replace(/[()]/g, '\\$&')}\\s*\\*?$`);

/** Picks an option of a select (its accessible name is its label followed by its value). */
export async function pickSelect(page: Page, field: string, option: string | RegExp) {
  await page.getByRole('combobox', { name: new RegExp(`^${field}\\b`) }).click();
  await page.getByRole('option', { name: option }).click();
}

/** Types into an autocomplete and picks the first option matching `option`. */
export async function pickAuto(page: Page, field: string, typed: string, option: string | RegExp) {
  const input = page.getByRole('combobox', { name: fieldLabel(field) });
  await input.click();
  await input.fill(typed);
  await page.getByRole('option', { name: option }).first().click();
}

/** Fills the input labelled `field`. */
export const fillField = (page: Page, field: string, value: string) => page.getByLabel(fieldLabel(field)).fill(value);

/**
 * A calculator place with a postal code of one municipality: types the CAP, then waits for the comuni data
 * to fill the locality and the province (issue 35) before going on. Typing the locality while that answer
 * is on its way raced with it (CI once booked "RomaRoma").
 */
export async function fillCalcPlace(page: Page, end: 'origin' | 'destination', postalCode: string, locality: string, province: string) {
  await page.fill(`input[name=${end}PostalCode]`, postalCode);
  await page
    .waitForFunction(([sel, want]) => document.querySelector<HTMLInputElement>(sel)?.value === want, [`input[name=${end}Locality]`, locality] as const, {
      timeout: 5000,
    })
    .catch(() => undefined); // told below, with what it shows
  const [shownLocality, shownProvince] = [await page.inputValue(`input[name=${end}Locality]`), await page.inputValue(`input[name=${end}Province]`)];
  if (shownLocality !== locality || shownProvince !== province)
    throw new Error(`CAP ${postalCode} filled "${shownLocality}" (${shownProvince}), not "${locality}" (${province})`);
}
