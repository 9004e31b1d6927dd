import { Autocomplete, MenuItem, TextField } from '@mui/material';
import { countryLabel, type Country, type Language } from '../accounts/lookups';

/**
 * The access request's two pickers (the carrier's country and language), in a file of their own (issue 37):
 * MUI's Autocomplete, TextField, Select and Menu weigh about 36 kB compressed, more than the rest of the
 * page, and a phone paints the form's title and text fields without them (AccessRequestPage.tsx loads
 * this file with the page and shows plain fields in their place for the moment it takes).
 */
export function CountryField({
  label,
  countries,
  loading,
  country,
  onChange,
  error,
}: {
  label: string;
  countries: Country[];
  loading: boolean;
  country: Country | null;
  onChange: (id: number | null) => void;
  error?: string;
}) {
  return (
    <Autocomplete
      options={countries}
      value={country}
      onChange={(_e, c) => onChange(c?.id ?? null)}
      getOptionLabel={countryLabel}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      loading={loading}
      renderInput={(p) => <TextField {...p} name="carrier_country_id" label={label} required error={!!error} helperText={error} />}
    />
  );
}

export function LanguageField({
  label,
  languages,
  value,
  onChange,
  error,
}: {
  label: string;
  languages: Language[];
  value: number | '';
  onChange: (id: number) => void;
  error?: string;
}) {
  return (
    <TextField
      select
      name="carrier_language_id"
      label={label}
      required
      value={value}
      onChange={(e) => onChange(Number(e.target.value))}
      error={!!error}
      helperText={error}
      slotProps={{ select: { MenuProps: { slotProps: { paper: { 'data-testid': 'language-options' } as object } } } }}
    >
      {languages.map((l) => (
        <MenuItem key={l.id} value={l.id}>
          {l.native ?? l.en}
        </MenuItem>
      ))}
    </TextField>
  );
}
