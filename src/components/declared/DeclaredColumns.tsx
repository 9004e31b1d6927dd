import { DataTable, TextField, useLocaleState, useRecordContext, useTranslate } from 'react-admin';
import { Chip } from '@mui/material';
import CheckIcon from '@mui/icons-material/Check';
import { choiceOf, listColumns, type FieldDef, type FieldsDecl } from '../../../model/fields';
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

function selectText(f: FieldDef) {
  return function SelectText({ source }: { source: string }) {
    const translate = useTranslate();
    const v = value(useRecordContext(), source);
    const c = (f.options ?? []).map(choiceOf).find((o) => String(o.id) === String(v));
    return <span>{c ? translate(c.name, { _: c.name }) : String(v ?? '')}</span>;
  };
}

const FIELD_OF: Partial<Record<FieldDef['type'], React.ComponentType<{ source: string }>>> = {
  money: MoneyText,
  date: DateText,
  flag: FlagText,
  boolean: BooleanText,
  decimal: DecimalText,
  month: MonthText,
};

/** The list columns of a declaration, in order, as DataTable columns (place them as DataTable children). */
export function declaredColumns(decl: FieldsDecl) {
  return listColumns(decl).map(({ name, field }) => (
    <DataTable.Col
      key={name}
      source={name}
      field={field.type === 'select' ? selectText(field) : (FIELD_OF[field.type] ?? TextField)}
      disableSort={field.type === 'image' || field.type === 'file'}
    />
  ));
}

/** The columns that start hidden (the user shows them with the columns button). */
export const hiddenColumnsOf = (decl: FieldsDecl) =>
  listColumns(decl)
    .filter((c) => c.hidden)
    .map((c) => c.name);
