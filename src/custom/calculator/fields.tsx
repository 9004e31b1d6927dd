import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { Autocomplete, Box, IconButton, MenuItem, TextField, Tooltip, Typography, type TextFieldProps } from '@mui/material';
import AddIcon from '@mui/icons-material/AddCircleOutline';
import RemoveIcon from '@mui/icons-material/RemoveCircleOutline';
import type { PalletForm, PlaceForm } from './types';
import { usePostalPlaces, type PostalPlace } from './lookups';

/** Required inputs carry a red asterisk; the error text sits under the input. */
export const requiredSx = { '& .MuiFormLabel-asterisk': { color: 'error.main' } } as const;

/** An error is a message key of the client or a message the server already translated. */
export function useErrorText() {
  const translate = useTranslate();
  return (e: string | undefined) => (e ? translate(e, { _: e }) : undefined);
}

export function Field({ error, ...props }: Omit<TextFieldProps, 'error'> & { error?: string }) {
  const text = useErrorText();
  return (
    <TextField size="small" fullWidth {...props} error={!!error} helperText={text(error) ?? props.helperText} sx={{ ...requiredSx, ...(props.sx as object) }} />
  );
}

export function Section({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, minWidth: 0 }} data-testid={testId}>
      <Typography component="legend" variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

const sameName = (a: string, b: string) => a.localeCompare(b, 'it', { sensitivity: 'base' }) === 0;

/**
 * Typing an Italian postal code fills the place (issue 35): one municipality fills locality and province;
 * several keep a locality already typed that is one of them (with its province), else empty the locality
 * for the choice (the province kept when they share it). Only after the code is typed here: a place
 * filled from the company, or a locality the user corrects afterwards, is left as it is. Answers the
 * "typed" flag the postal code's input sets.
 */
function useFillFromPostalCode(place: PlaceForm, places: PostalPlace[] | undefined, onChange: (p: PlaceForm) => void) {
  const typed = useRef(false);
  const latest = useRef({ place, onChange });
  latest.current = { place, onChange };
  useEffect(() => {
    const { place: now, onChange: change } = latest.current;
    if (!typed.current || !places?.length) return;
    typed.current = false;
    const kept = places.find((p) => sameName(p.city, now.locality));
    const provinces = new Set(places.map((p) => p.province));
    const next =
      places.length === 1
        ? { locality: places[0].city, province: places[0].province }
        : kept
          ? { locality: kept.city, province: kept.province }
          : { locality: '', province: provinces.size === 1 ? places[0].province : '' };
    if (next.locality !== now.locality || next.province !== now.province) change({ ...now, ...next });
  }, [places]);
  return typed;
}

/**
 * Origin or destination: country (default IT), postal code, and locality and province only when the
 * zone is national or the country is IT (calculator document §5). An Italian postal code fills locality
 * and province from the comuni data, or offers its municipalities to choose from (issue 35).
 */
export function PlaceFields({
  end,
  place,
  showLocality,
  countries,
  errors,
  onChange,
  disabledCountry,
}: {
  end: 'origin' | 'destination';
  place: PlaceForm;
  showLocality: boolean;
  countries: Array<{ code: string; name: string }>;
  errors: Record<string, string>;
  onChange: (p: PlaceForm) => void;
  disabledCountry?: boolean;
}) {
  const translate = useTranslate();
  const text = useErrorText();
  const selected = countries.find((c) => c.code === place.country);
  const italian = place.country === 'IT';
  const places = usePostalPlaces(italian && showLocality ? place.postalCode : '').data;
  const choices = places && places.length > 1 ? places : [];
  const typedCode = useFillFromPostalCode(place, places, onChange);
  return (
    <Section title={translate(`calculator.${end}`)} testId={`calc-${end}`}>
      {/* Two equal columns on a narrow form (a phone), so "Provincia (sigla)" is not cut off; 2:1 from 480 px. */}
      <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: '1fr 1fr', '@container (min-width: 480px)': { gridTemplateColumns: '2fr 1fr' } }}>
        <Autocomplete
          options={countries}
          value={selected as { code: string; name: string }}
          disabled={disabledCountry}
          disableClearable
          onChange={(_e, v) => v && onChange({ ...place, country: v.code, ...(v.code !== 'IT' ? { province: '' } : {}) })}
          getOptionLabel={(o) => `${o.name} (${o.code})`}
          isOptionEqualToValue={(a, b) => a.code === b.code}
          renderInput={(params) => (
            <TextField
              {...params}
              size="small"
              required
              label={translate('calculator.country')}
              name={`${end}Country`}
              error={!!errors[`${end}Country`]}
              helperText={text(errors[`${end}Country`])}
              sx={requiredSx}
            />
          )}
        />
        <Field
          label={translate('calculator.postal_code')}
          name={`${end}PostalCode`}
          required
          value={place.postalCode}
          onChange={(e) => {
            typedCode.current = true;
            onChange({ ...place, postalCode: e.target.value });
          }}
          error={errors[`${end}PostalCode`]}
          slotProps={{ htmlInput: { maxLength: 16 } }}
        />
        {showLocality && (
          <>
            {/* Free text, or one of the postal code's municipalities (a choice when it has several). */}
            <Autocomplete<PostalPlace, false, false, true>
              freeSolo
              openOnFocus
              options={choices}
              filterOptions={(o) => o}
              inputValue={place.locality}
              value={null}
              onInputChange={(_e, v, reason) => {
                if (reason !== 'input') return;
                typedCode.current = false; // typed by the user: a late answer of the postal code does not overwrite it
                onChange({ ...place, locality: v });
              }}
              onChange={(_e, v) => v && typeof v !== 'string' && onChange({ ...place, locality: v.city, province: v.province })}
              getOptionLabel={(o) => (typeof o === 'string' ? o : o.city)}
              renderOption={({ key, ...props }, o) => (
                <li key={key} {...props}>
                  {o.city} ({o.province})
                </li>
              )}
              renderInput={(params) => (
                <TextField
                  {...params}
                  size="small"
                  required
                  label={translate('calculator.locality')}
                  name={`${end}Locality`}
                  error={!!errors[`${end}Locality`]}
                  helperText={
                    text(errors[`${end}Locality`]) ??
                    (choices.length && !choices.some((c) => sameName(c.city, place.locality))
                      ? translate('calculator.choose_locality', { smart_count: choices.length, postal_code: place.postalCode })
                      : undefined)
                  }
                  slotProps={{ htmlInput: { ...params.inputProps, maxLength: 100, 'data-testid': `${end}-locality` } }}
                  sx={requiredSx}
                />
              )}
            />
            {italian && (
              <Field
                label={translate('calculator.province')}
                name={`${end}Province`}
                required
                value={place.province}
                onChange={(e) => {
                  typedCode.current = false;
                  onChange({ ...place, province: e.target.value.toUpperCase().replace(/[^A-Z]/g, '') });
                }}
                error={errors[`${end}Province`]}
                slotProps={{ htmlInput: { maxLength: 2 } }}
              />
            )}
          </>
        )}
      </Box>
    </Section>
  );
}

/** Pallet rows: the first row has the add button, the later rows a remove button (calculator document §5). */
export function PalletRows({ pallets, errors, onChange }: { pallets: PalletForm[]; errors: Record<string, string>; onChange: (p: PalletForm[]) => void }) {
  const translate = useTranslate();
  const set = (i: number, k: keyof PalletForm, v: string) => onChange(pallets.map((p, j) => (j === i ? { ...p, [k]: v } : p)));
  const cols: Array<[keyof PalletForm, string, string]> = [
    ['weight', 'palletWeight', 'calculator.weight_kg'],
    ['width', 'palletWidth', 'calculator.width_cm'],
    ['length', 'palletLength', 'calculator.length_cm'],
    ['height', 'palletHeight', 'calculator.height_cm'],
  ];
  return (
    <Section title={translate('calculator.pallets')} testId="calc-pallets">
      {pallets.map((p, i) => (
        <Box
          key={i}
          sx={{
            display: 'grid',
            gap: 1.5,
            mb: 1.5,
            alignItems: 'start',
            gridTemplateColumns: '1fr 1fr',
            '@container (min-width: 480px)': { gridTemplateColumns: 'repeat(4, 1fr) 40px' },
            '@container (min-width: 760px)': { gridTemplateColumns: '70px repeat(4, 1fr) 40px' },
          }}
          data-testid={`pallet-row-${i + 1}`}
        >
          <Typography sx={{ pt: 1, gridColumn: '1 / -1', '@container (min-width: 760px)': { gridColumn: 'auto' } }} variant="body2">
            {translate('calculator.pallet_row', { row: i + 1 })}
          </Typography>
          {cols.map(([k, name, label]) => (
            <Field
              key={k}
              label={translate(label)}
              name={`${name}[${i}]`}
              required
              value={p[k]}
              error={errors[`${name}.${i}`]}
              onChange={(e) => set(i, k, e.target.value)}
              slotProps={{ htmlInput: { inputMode: 'decimal' } }}
            />
          ))}
          {i === 0 ? (
            <Tooltip title={translate('calculator.add_pallet')}>
              <span style={{ justifySelf: 'start' }}>
                <IconButton
                  color="primary"
                  onClick={() => onChange([...pallets, { weight: '', width: '', length: '', height: '' }])}
                  aria-label={translate('calculator.add_pallet')}
                  data-testid="pallet-add"
                  disabled={pallets.length >= 33}
                >
                  <AddIcon />
                </IconButton>
              </span>
            </Tooltip>
          ) : (
            <Tooltip title={translate('calculator.remove_pallet', { row: i + 1 })}>
              <IconButton
                color="error"
                sx={{ justifySelf: 'start' }}
                onClick={() => onChange(pallets.filter((_p, j) => j !== i))}
                aria-label={translate('calculator.remove_pallet', { row: i + 1 })}
                data-testid={`pallet-remove-${i + 1}`}
              >
                <RemoveIcon />
              </IconButton>
            </Tooltip>
          )}
        </Box>
      ))}
    </Section>
  );
}

export function SelectField({
  options,
  ...props
}: Omit<TextFieldProps, 'error' | 'select'> & { error?: string; options: Array<{ value: string | number; label: string }> }) {
  return (
    <Field select {...props}>
      {options.map((o) => (
        <MenuItem key={o.value} value={o.value}>
          {o.label}
        </MenuItem>
      ))}
    </Field>
  );
}
