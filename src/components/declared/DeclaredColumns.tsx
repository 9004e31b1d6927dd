import { DataTable, TextField, useDataProvider, useLocaleState, useRecordContext, useTranslate } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import type { PortalDataProvider } from '../../dataProvider';
import { lookupText } from './LookupInput';
import { Chip } from '@mui/material';
import CheckIcon from '@mui/icons-material/Check';
import { choiceOf, listColumns, referenceTextKey, type FieldDef, type FieldsDecl } from '../../../model/fields';
import { useFormat } from '../format';

const value = (record: Record<string, unknown> | undefined, source: string) => record?.[source];

/** Euros, formatted for the user's language (1.234,56 €). */
export function MoneyText({ source }: { source: string }) {
  const fmt = useFormat();
  return <span>{fmt.money(value(useRecordContext(), source))}</span>;
}

/** A date, formatted for the user's language. */
export function DateText({ source }: { source: string }) {
  const fmt = useFormat();
  return <span>{fmt.date(value(useRecordContext(), source))}</span>;
}

/** A '0' | '1' flag (active): a green "Active" or a grey "Inactive" chip. */
export function FlagText({ source }: { source: string }) {
  const translate = useTranslate();
  const v = value(useRecordContext(), source);
  const on = v === '1' || v === 1 || v === true;
  return (
    <Chip
      size="small"
      label={translate(on ? 'portal.status.active' : 'portal.status.inactive')}
      color={on ? 'success' : 'default'}
      variant={on ? 'filled' : 'outlined'}
      data-testid={`flag-${source}`}
      data-on={on ? '1' : '0'}
    />
  );
}

export function BooleanText({ source }: { source: string }) {
  const translate = useTranslate();
  return value(useRecordContext(), source) ? <CheckIcon fontSize="small" color="success" aria-label={translate('ra.boolean.true')} /> : null;
}

/** Exact decimal text ("1.587") in the user's language (1,587), every stored decimal kept. */
export function DecimalText({ source }: { source: string }) {
  const [locale] = useLocaleState();
  const v = value(useRecordContext(), source);
  if (v === null || v === undefined || v === '') return null;
  const decimals = String(v).split('.')[1]?.length ?? 0;
  return (
    <span>
      {new Intl.NumberFormat(locale, {
        minimumFractionDigits: decimals,
        maximumFractionDigits: decimals,
        useGrouping: 'always',
      } as Intl.NumberFormatOptions).format(Number(v))}
    </span>
  );
}

/** A `YYYY-MM` month as the user's language writes it ("novembre 2026"). */
export function MonthText({ source }: { source: string }) {
  const [locale] = useLocaleState();
  const v = value(useRecordContext(), source);
  const m = typeof v === 'string' ? /^(\d{4})-(\d{2})$/.exec(v) : null;
  if (!m) return <span>{String(v ?? '')}</span>;
  return (
    <span title={v as string}>
      {new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1))}
    </span>
  );
}

/**
 * A reference by its name (issue 34): the answers carry the referenced row's display text beside the id
 * (`country_id` → `country_name`, model/fields.ts `referenceTextKey`); the id shows only when the name is
 * missing (a row the caller may not read), as `#110`, never a bare number that reads like a quantity.
 */
export function ReferenceText({ source }: { source: string }) {
  const record = useRecordContext();
  const name = value(record, referenceTextKey(source));
  const id = value(record, source);
  if (name !== null && name !== undefined && name !== '') return <span data-ref-id={String(id ?? '')}>{String(name)}</span>;
  return id === null || id === undefined || id === '' ? null : <span>#{String(id)}</span>;
}

/**
 * A reference picked from a visitor lookup that names its rows per language (the countries: `it`, `en`,
 * `fr`): the name in the user's language, as the picker shows it ("Italia", where the table's `name` column
 * the answer carries says "Italy"), else the answer's display text. The lookup is one cached request shared
 * with the pickers (`['lookup', <name>]`), not one per row.
 */
function lookupReferenceText(lookup: string, optionText: string) {
  return function LookupReferenceText({ source }: { source: string }) {
    const dataProvider = useDataProvider<PortalDataProvider>();
    const [locale = 'it'] = useLocaleState();
    const id = value(useRecordContext(), source);
    const rows = useQuery({
      queryKey: ['lookup', lookup],
      queryFn: ({ signal }) => dataProvider.lookup<{ data: Array<Record<string, unknown>> }>(lookup, undefined, signal).then((a) => a?.data ?? []),
      staleTime: 60_000,
      enabled: id !== null && id !== undefined && id !== '',
    });
    const row = rows.data?.find((r) => String(r.id) === String(id));
    const text = row ? lookupText(optionText, locale)(row) : '';
    if (text) return <span data-ref-id={String(id)}>{text}</span>;
    return <ReferenceText source={source} />;
  };
}

/** A yes/no value in words ("Sì", "No"): the show page's reading of a flag or a boolean. */
export function YesNoText({ source }: { source: string }) {
  const translate = useTranslate();
  const v = value(useRecordContext(), source);
  if (v === null || v === undefined || v === '') return null;
  const on = v === '1' || v === 1 || v === true || v === 'true';
  return <span data-on={on ? '1' : '0'}>{translate(on ? 'ra.boolean.true' : 'ra.boolean.false')}</span>;
}

export function selectText(f: FieldDef) {
  return function SelectText({ source }: { source: string }) {
    const translate = useTranslate();
    const v = value(useRecordContext(), source);
    const c = (f.options ?? []).map(choiceOf).find((o) => String(o.id) === String(v));
    return <span>{c ? translate(c.name, { _: c.name }) : String(v ?? '')}</span>;
  };
}

const FIELD_OF: Partial<Record<FieldDef['type'], React.ComponentType<{ source: string }>>> = {
  reference: ReferenceText,
  money: MoneyText,
  date: DateText,
  flag: FlagText,
  boolean: BooleanText,
  decimal: DecimalText,
  month: MonthText,
};

/** The component that shows one declared field's value of the record in context (list cells, the show page). */
export function fieldComponentOf(field: FieldDef): React.ComponentType<{ source: string }> {
  const lookup = field.type === 'reference' ? field.reference?.lookup : undefined;
  if (field.type !== 'select' && !lookup) return FIELD_OF[field.type] ?? TextField;
  // One component per declared field, not one per render (a new type each render would remount the cell).
  let c = MADE.get(field);
  if (!c) MADE.set(field, (c = lookup ? lookupReferenceText(lookup, field.reference!.optionText) : selectText(field)));
  return c;
}
const MADE = new WeakMap<FieldDef, React.ComponentType<{ source: string }>>();

/** The portal's languages, as the declarations name their per-language text fields (model/resource.ts LANGS). */
const NAME_LANGS = ['it', 'en', 'fr'] as const;

/**
 * Whether a declaration names its rows per language (issue 35: countries, document types, shipment types):
 * a `name` field and text fields `it`, `en`, `fr`, as the server's declaredScope.ts `languageColumns` reads them.
 */
export const namesPerLanguage = (decl: FieldsDecl) => !!decl.name && NAME_LANGS.every((l) => decl[l]?.type === 'text');

/**
 * A row's name in the user's language (its `it`/`en`/`fr` column), the stored `name` where that one is empty:
 * an Italian reads "Italia" in the countries' list, not "Italy" (the stored name stays what the edit form shows).
 */
export function LocalNameText({ source }: { source: string }) {
  const [locale = 'it'] = useLocaleState();
  const record = useRecordContext();
  const local = value(record, locale);
  return <span>{String((typeof local === 'string' && local) || value(record, source) || '')}</span>;
}

/**
 * The list columns of a declaration, in order, as DataTable columns (place them as DataTable children).
 * `company`: a company-tenancy resource seen by an admin, who reads every company's rows: the owner's
 * name (`company_name`) comes first. The others see their own company's rows only: no such column.
 * A declaration naming its rows per language shows the name column in the user's language (the server sorts
 * it in the caller's language too: server/lib/resourceRoutes.ts `sortColumnsIn`).
 */
export function declaredColumns(decl: FieldsDecl, opts: { company?: boolean } = {}) {
  const local = namesPerLanguage(decl);
  const columns = listColumns(decl).map(({ name, field }) => (
    <DataTable.Col
      key={name}
      source={name}
      field={local && name === 'name' ? LocalNameText : fieldComponentOf(field)}
      disableSort={field.type === 'image' || field.type === 'file'}
    />
  ));
  if (!opts.company) return columns;
  return [<DataTable.Col key="company_name" source="company_name" label="declared.company" disableSort field={TextField} />, ...columns];
}

/** The columns that start hidden (the user shows them with the columns button). */
export const hiddenColumnsOf = (decl: FieldsDecl) =>
  listColumns(decl)
    .filter((c) => c.hidden)
    .map((c) => c.name);
