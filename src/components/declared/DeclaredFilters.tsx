import { lazy, Suspense, type ReactElement } from 'react';
import { SearchInput, SelectInput, useTranslate } from 'react-admin';
import { DecimalInput } from '../forms/DecimalInput';
import { choiceOf, isRangeFilter, type FieldDef, type FieldsDecl } from '../../../model/fields';
import { LookupInput } from './LookupInput';
import { ReferencePicker } from './ReferencePicker';

const PortalDateInput = lazy(() => import('../dates/inputs').then((m) => ({ default: m.PortalDateInput })));
const PortalMonthInput = lazy(() => import('../dates/inputs').then((m) => ({ default: m.PortalMonthInput })));

/** The companies an admin filters a company-tenancy list by (and names on a create, on an import). */
export const COMPANIES_LOOKUP = 'companies_list';

/** A flag's or a boolean's choice: Sì / No, sent as the query the list route reads (`?active=1`, `?paid=true`). */
const yesNo = (f: FieldDef) =>
  f.type === 'flag'
    ? [
        { id: '1', name: 'ra.boolean.true' },
        { id: '0', name: 'ra.boolean.false' },
      ]
    : [
        { id: 'true', name: 'ra.boolean.true' },
        { id: 'false', name: 'ra.boolean.false' },
      ];

/**
 * The list's filters from a declaration (issue 34): the search box, always there; then, behind
 * react-admin's "Aggiungi filtro" button, one filter per field with `filter: true` — a choice for a select,
 * reference, flag or boolean (`?kind=ramp`), a from and a to for dates, months and numbers
 * (`?opened_on_from=…&opened_on_to=…`, the list route's names) — and, for an admin on a company-tenancy
 * resource, the company. Only the search is always shown: on a 390 px phone the others are added one at a
 * time and each takes the toolbar's width, so nothing pushes the page sideways.
 */
export function useDeclaredFilters(resource: string, fields: FieldsDecl, opts: { search: boolean; company: boolean }): ReactElement[] | undefined {
  const translate = useTranslate();
  const labelOf = (name: string) => translate(`resources.${resource}.fields.${name}`, { _: name });
  const out: ReactElement[] = [];
  if (opts.search) out.push(<SearchInput key="q" source="q" alwaysOn />);
  if (opts.company)
    out.push(<LookupInput key="company_id" source="company_id" lookup={COMPANIES_LOOKUP} optionText="legal_name" label={translate('declared.company')} />);
  for (const [name, f] of Object.entries(fields)) {
    if (!f.filter) continue;
    const label = labelOf(name);
    if (isRangeFilter(f)) {
      for (const end of ['from', 'to'] as const) {
        const source = `${name}_${end}`;
        const text = translate(`declared.range_${end}`, { field: label });
        out.push(rangeInput(f, source, text));
      }
    } else if (f.type === 'reference') {
      out.push(<ReferencePicker key={name} source={name} field={f} label={label} />);
    } else if (f.type === 'select') {
      out.push(<SelectInput key={name} source={name} label={label} choices={(f.options ?? []).map(choiceOf)} translateChoice />);
    } else if (f.type === 'flag' || f.type === 'boolean') {
      out.push(<SelectInput key={name} source={name} label={label} choices={yesNo(f)} translateChoice />);
    }
  }
  return out.length ? out : undefined;
}

/**
 * The pickers load with the first date or month filter. The Suspense sits inside a component that has
 * `source` and `label`: react-admin's filter button and form read those props off each filter element.
 */
function DateFilter(p: { source: string; label: string }) {
  return (
    <Suspense fallback={null}>
      <PortalDateInput {...p} sx={{ minWidth: 180 }} />
    </Suspense>
  );
}
function MonthFilter(p: { source: string; label: string }) {
  return (
    <Suspense fallback={null}>
      <PortalMonthInput {...p} sx={{ minWidth: 180 }} />
    </Suspense>
  );
}

function rangeInput(f: FieldDef, source: string, label: string): ReactElement {
  if (f.type === 'date') return <DateFilter key={source} source={source} label={label} />;
  if (f.type === 'month') return <MonthFilter key={source} source={source} label={label} />;
  // Integers, decimals and money (euros on the wire, as the forms send them).
  return <DecimalInput key={source} source={source} label={label} />;
}
