import { useEffect, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { AutocompleteInput, FieldTitle, ValidationError, useDataProvider, useInput, useLocaleState, useResourceContext, type Validator } from 'react-admin';
import { Autocomplete, TextField } from '@mui/material';
import type { Query } from '../../api/http';
import type { PortalDataProvider } from '../../dataProvider';

export type Row = Record<string, any>;
/** A lookup's rows, whatever key the list comes under (`data`, `category_list`, or the array itself). */
export const rowsOf = (answer: unknown): Row[] => {
  const a = answer as any;
  if (Array.isArray(a)) return a;
  if (Array.isArray(a?.data)) return a.data;
  if (Array.isArray(a?.category_list)) return a.category_list;
  return [];
};

/** A visitor lookup (`/visitor/<path>`): always refetched (accounts document §7: stale time 0). */
export function useLookup(path: string, query?: Query, enabled = true) {
  const dataProvider = useDataProvider<PortalDataProvider>();
  return useQuery({
    queryKey: ['lookup', path, query ?? {}],
    queryFn: ({ signal }) => dataProvider.lookup(path, query, signal).then(rowsOf),
    staleTime: 0,
    enabled,
  });
}

/**
 * Names of languages and countries in the user's language, from their codes (the browser knows them:
 * "Italiano", "Italia"); the stored English name when the code is unknown.
 */
export function useDisplayNames() {
  const [locale] = useLocaleState();
  return useMemo(() => {
    const make = (type: 'language' | 'region') => {
      try {
        return new Intl.DisplayNames([locale], { type });
      } catch {
        return null;
      }
    };
    const languages = make('language');
    const regions = make('region');
    const cap = (s: string | undefined) => (s ? s.charAt(0).toLocaleUpperCase(locale) + s.slice(1) : undefined);
    const of = (names: Intl.DisplayNames | null, code: unknown) => {
      try {
        return typeof code === 'string' && code ? cap(names?.of(code)) : undefined;
      } catch {
        return undefined;
      }
    };
    return {
      language: (code: unknown, fallback?: unknown) => of(languages, code) ?? (fallback ? String(fallback) : null),
      country: (code: unknown, fallback?: unknown) => of(regions, code) ?? (fallback ? String(fallback) : null),
    };
  }, [locale]);
}

/** The name of a lookup row in the user's language: a country or language by its code, otherwise its own name. */
export function useLocalName() {
  const [locale] = useLocaleState();
  const names = useDisplayNames();
  return (r: Row | undefined) => {
    if (!r) return '';
    const country = r.iso_alpha_2 ?? r.code_alpha;
    if (country) return names.country(country, r[locale] ?? r.name ?? r.en) ?? '';
    if (r.code && 'native' in r) return names.language(r.code, r.native ?? r.en) ?? '';
    return String(r[locale] ?? r.name ?? r.en ?? r.legal_name ?? r.id);
  };
}

/** A pick from a lookup's rows. */
export function LookupPicker({
  source,
  path,
  query,
  enabled = true,
  optionText,
  validate,
  disabled,
  helperText,
  testid,
}: {
  source: string;
  path: string;
  query?: Query;
  enabled?: boolean;
  optionText?: (r: Row) => string;
  validate?: Validator | Validator[];
  disabled?: boolean;
  helperText?: string;
  testid?: string;
}) {
  const { data, isPending } = useLookup(path, query, enabled);
  const name = useLocalName();
  return (
    <AutocompleteInput
      source={source}
      choices={(data ?? []) as Array<{ id: number }>}
      optionText={(r: Row) => (optionText ?? name)(r)}
      isPending={enabled && isPending}
      validate={validate}
      disabled={disabled}
      helperText={helperText}
      fullWidth
      data-testid={testid ?? `input-${source}`}
    />
  );
}

/**
 * A text picked from a lookup or typed anew (city, province). A new value is allowed unless blank or
 * equal, ignoring case, to an existing one, which is then taken with its own spelling (accounts
 * document §5). `valueOf` is what is stored (a province's sigla), `labelOf` what the list shows; give `valueOf`
 * as a function made outside render, or the options are worked out again on every render.
 */
export function CreatableTextInput({
  source,
  path,
  query,
  valueOf,
  labelOf,
  validate,
  testid,
}: {
  source: string;
  path: string;
  query?: (typed: string) => Query | undefined;
  valueOf: (r: Row) => string;
  labelOf?: (r: Row) => string;
  validate?: Validator | Validator[];
  testid?: string;
}) {
  const resource = useResourceContext();
  const { field, fieldState, isRequired } = useInput({ source, validate });
  const [typed, setTyped] = useState<string>(field.value ?? '');
  useEffect(() => setTyped(field.value ?? ''), [field.value]);
  const [search, setSearch] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setSearch(typed.trim()), 250);
    return () => clearTimeout(t);
  }, [typed]);
  const q = query ? query(search) : undefined;
  const { data } = useLookup(path, q, query ? !!q : true);
  // One list per answer (`valueOf` is given once, outside render), so the effect below runs when options arrive.
  const options = useMemo(() => {
    const seen = new Set<string>();
    return (data ?? []).filter((r) => {
      const k = valueOf(r).toLowerCase();
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
  }, [data, valueOf]);
  /** The stored value for a typed text: an existing one (same value or label, any case) or the text itself. */
  const settle = (text: string) => {
    const t = text.trim();
    if (!t) return null;
    const lower = t.toLowerCase();
    const match = options.find((r) => valueOf(r).toLowerCase() === lower || (labelOf && String(r.name ?? '').toLowerCase() === lower));
    return match ? valueOf(match) : t;
  };
  // Options may arrive after the text was typed: a value equal to one of them but for case takes its spelling.
  useEffect(() => {
    if (typeof field.value !== 'string' || !field.value) return;
    const settled = settle(field.value);
    if (settled && settled !== field.value) {
      field.onChange(settled);
      setTyped(settled);
    }
  }, [options]); // eslint-disable-line react-hooks/exhaustive-deps
  // react-admin hands its validators' messages over encoded ('@@react-admin@@"ra.validation.required"'):
  // only its ValidationError reads them (translating the text as a key showed the raw code, issue 35).
  // Shown, like react-admin's own inputs, as soon as the form's check (a step's Next, the save) finds it.
  const error = fieldState.error?.message;
  const shown = !!error;
  return (
    <Autocomplete
      freeSolo
      options={options}
      getOptionLabel={(o) => (typeof o === 'string' ? o : (labelOf ?? valueOf)(o))}
      filterOptions={(opts) => {
        const l = typed.trim().toLowerCase();
        return l ? opts.filter((o) => (labelOf ?? valueOf)(o).toLowerCase().includes(l)) : opts;
      }}
      inputValue={typed}
      value={field.value ?? null}
      onInputChange={(_e, v, reason) => {
        if (reason === 'reset' && !v) return;
        setTyped(v);
      }}
      onChange={(_e, v) => {
        const next = v === null ? null : settle(typeof v === 'string' ? v : valueOf(v));
        field.onChange(next);
        setTyped(next ?? '');
      }}
      onBlur={() => {
        const next = settle(typed);
        field.onChange(next);
        setTyped(next ?? '');
        field.onBlur();
      }}
      renderInput={(params) => (
        <TextField
          {...params}
          name={source}
          label={<FieldTitle source={source} resource={resource} isRequired={isRequired} />}
          error={shown}
          helperText={shown ? <ValidationError error={error} /> : ' '}
          size="small"
          slotProps={{ htmlInput: { ...params.inputProps, 'data-testid': testid ?? `input-${source}` } }}
        />
      )}
      sx={{ mt: 1, mb: 0.5 }}
      fullWidth
    />
  );
}
