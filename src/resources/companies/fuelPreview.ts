import { dieselRowFor, fuelPercent, hasFuelPlan, scaled, type DieselPrice, type FuelPlan } from '../../../model/fuel';

export { romeMonth } from '../../../model/fuel';

/** A translate function as react-admin's (`%{name}` placeholders, `smart_count` plurals). */
export type Translate = (key: string, args?: Record<string, unknown>) => string;

const K = 'resources.companies.fuel';

/** `2026-11` as "novembre 2026" (it), "November 2026" (en), "novembre 2026" (fr). */
export function monthName(month: string, locale: string) {
  const [y, m] = month.split('-').map(Number);
  return new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(Date.UTC(y, m - 1, 1));
}

/** Thousandths of a euro as "1,587" (it, fr) or "1.587" (en): always three decimals. */
const litre = (thousandths: number, locale: string) =>
  new Intl.NumberFormat(locale, { minimumFractionDigits: 3, maximumFractionDigits: 3 }).format(thousandths / 1000);

/** Exact percent text ("2", "1.5") in the locale's decimals. */
const percentText = (text: string, locale: string) => new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(Number(text));

/**
 * The fuel plan's live preview (issue 21): what the plan adds with the diesel price of `month` (that
 * month's row, else the latest earlier one, named either way). The percent is `fuelPercent`, the pricing
 * engine's own function. No plan (base or step empty): "no fuel surcharge"; no price yet: says so.
 */
export function fuelPreviewText(plan: FuelPlan, rows: readonly DieselPrice[], month: string, locale: string, t: Translate): string {
  if (!hasFuelPlan(plan)) return t(`${K}.none`);
  const row = dieselRowFor(rows, month);
  if (!row) return t(`${K}.no_price`);
  const result = fuelPercent(plan, row.price);
  const price = scaled(row.price, 3);
  if (!result || price === null) return t(`${K}.no_price`);
  const args = {
    price: litre(price, locale),
    month: monthName(row.month, locale),
    percent: percentText(result.percent, locale),
    steps: t(`${K}.steps`, { smart_count: result.steps, step: litre(scaled(plan.fuel_step, 3)!, locale) }),
  };
  return t(row.month === month ? `${K}.preview` : `${K}.preview_earlier`, args);
}

/** The preview's texts, merged into the companies' messages (src/resources/companies/messages.ts). */
export const fuelTexts = {
  it: {
    title: 'Adeguamento gasolio',
    hint: 'Il supplemento segue il prezzo del gasolio del mese: per ogni scatto sopra il prezzo di riferimento si aggiunge la percentuale per scatto, fino al massimo.',
    none: 'Nessun adeguamento gasolio',
    no_price: 'Non c’è ancora un prezzo del gasolio: l’adeguamento sarà calcolato quando ci sarà.',
    preview: 'Con il gasolio a %{price} €/l (%{month}): +%{percent} % (%{steps})',
    preview_earlier: 'Con il gasolio a %{price} €/l (%{month}, l’ultimo prezzo disponibile): +%{percent} % (%{steps})',
    steps: '%{smart_count} scatto da %{step} €/l |||| %{smart_count} scatti da %{step} €/l',
  },
  en: {
    title: 'Fuel surcharge',
    hint: 'The surcharge follows the month’s diesel price: each step above the reference price adds the surcharge per step, up to the maximum.',
    none: 'No fuel surcharge',
    no_price: 'There is no diesel price yet: the surcharge will be computed once there is one.',
    preview: 'With diesel at €%{price}/l (%{month}): +%{percent}% (%{steps})',
    preview_earlier: 'With diesel at €%{price}/l (%{month}, the latest price available): +%{percent}% (%{steps})',
    steps: '%{smart_count} step of €%{step}/l |||| %{smart_count} steps of €%{step}/l',
  },
  fr: {
    title: 'Indexation gazole',
    hint: 'La surcharge suit le prix du gazole du mois : chaque palier au-dessus du prix de référence ajoute la surcharge par palier, jusqu’au maximum.',
    none: 'Aucune indexation gazole',
    no_price: 'Il n’y a pas encore de prix du gazole : l’indexation sera calculée dès qu’il y en aura un.',
    preview: 'Avec le gazole à %{price} €/l (%{month}) : +%{percent} % (%{steps})',
    preview_earlier: 'Avec le gazole à %{price} €/l (%{month}, le dernier prix disponible) : +%{percent} % (%{steps})',
    steps: '%{smart_count} palier de %{step} €/l |||| %{smart_count} paliers de %{step} €/l',
  },
};
