import type { FormEvent } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import { Box, Button, Checkbox, Divider, FormControlLabel, Paper, Typography } from '@mui/material';
import { Field, PalletRows, PlaceFields, Section, SelectField } from './fields';
import { useCountryOptions, useEndUsers, useSellers } from './lookups';
import { ISLANDS, RATIOS, asksLocality } from './request';
import type { CalcForm, CalcKind } from './types';

/** Container query: the form is wide enough for two columns of places and one row of goods. */
export const WIDE = '@container (min-width: 860px)';

/**
 * Step 2, the service form (calculator document §3, §5): admin's carrier and end-user selectors (a
 * carrier may also price for one of its end users, pricing.md §1), origin and destination, pallets or
 * goods, the ratio for carriers and admins only, flow, island, ADR and tail lift.
 */
export function ServiceForm({
  kind,
  form,
  errors,
  busy,
  onChange,
  onSubmit,
}: {
  kind: CalcKind;
  form: CalcForm;
  errors: Record<string, string>;
  busy: boolean;
  onChange: (f: CalcForm) => void;
  onSubmit: () => void;
}) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const countries = useCountryOptions(locale);
  const sellers = useSellers(kind === 'admin');
  const endUsers = useEndUsers(kind === 'admin' ? form.companyId : null, kind === 'carrier' || (kind === 'admin' && !!form.companyId));
  const set = <K extends keyof CalcForm>(k: K, v: CalcForm[K]) => onChange({ ...form, [k]: v });
  const national = form.zone === 'national';
  const express = form.service === 'palletExpress';
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit();
  };

  return (
    // The form lays itself out on its own width (it narrows when the results panel opens beside it).
    <Paper component="form" noValidate onSubmit={submit} sx={{ p: 2, display: 'grid', gap: 2.5, containerType: 'inline-size' }} data-testid="calc-form">
      <Typography variant="h6" component="h2">
        {translate('calculator.step2')}
      </Typography>

      {(kind === 'admin' || kind === 'carrier') && (
        <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: '1fr', [WIDE]: { gridTemplateColumns: '1fr 1fr' } }}>
          {kind === 'admin' && (
            <SelectField
              label={translate('calculator.company')}
              name="company_id"
              required
              value={form.companyId}
              error={errors.company_id}
              onChange={(e) => onChange({ ...form, companyId: Number(e.target.value) || '', endUserId: '' })}
              options={(sellers.data ?? []).map((c) => ({ value: c.id, label: c.legal_name }))}
              helperText={translate('calculator.company_help')}
            />
          )}
          <SelectField
            label={translate('calculator.enduser')}
            name="enduser_id"
            value={form.endUserId}
            error={errors.enduser_id}
            disabled={kind === 'admin' && !form.companyId}
            onChange={(e) => set('endUserId', Number(e.target.value) || '')}
            options={[{ value: '', label: translate('calculator.enduser_none') }, ...(endUsers.data ?? []).map((c) => ({ value: c.id, label: c.legal_name }))]}
            slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          />
        </Box>
      )}

      <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: '1fr', [WIDE]: { gridTemplateColumns: '1fr 1fr' } }}>
        <PlaceFields
          end="origin"
          place={form.origin}
          showLocality={asksLocality(form, form.origin)}
          countries={countries}
          errors={errors}
          disabledCountry={national}
          onChange={(p) => set('origin', p)}
        />
        <PlaceFields
          end="destination"
          place={form.destination}
          showLocality={asksLocality(form, form.destination)}
          countries={countries}
          errors={errors}
          disabledCountry={national}
          onChange={(p) => set('destination', p)}
        />
      </Box>
      <Divider />

      {express ? (
        <PalletRows pallets={form.pallets} errors={errors} onChange={(p) => set('pallets', p)} />
      ) : (
        <Section title={translate('calculator.goods')} testId="calc-goods">
          <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: '1fr 1fr', [WIDE]: { gridTemplateColumns: 'repeat(5, 1fr)' } }}>
            <Field
              label={translate('calculator.units')}
              name="standardunits"
              required
              value={form.units}
              error={errors.standardunits}
              onChange={(e) => set('units', e.target.value)}
              slotProps={{ htmlInput: { inputMode: 'numeric' } }}
            />
            <Field
              label={translate('calculator.weight_total')}
              name="standardweight"
              required
              value={form.weight}
              error={errors.standardweight}
              onChange={(e) => set('weight', e.target.value)}
              slotProps={{ htmlInput: { inputMode: 'decimal' } }}
            />
            <SelectField
              label={translate('calculator.volume_type')}
              name="standardvolumeType"
              required
              value={form.volumeType}
              error={errors.standardvolumeType}
              onChange={(e) => onChange({ ...form, volumeType: e.target.value as CalcForm['volumeType'], ratio: '' })}
              options={(['CBM', 'LM'] as const).map((v) => ({ value: v, label: translate(`calculator.volume_type_${v}`) }))}
            />
            <Field
              label={translate(form.volumeType === 'LM' ? 'calculator.volume_LM' : 'calculator.volume_CBM')}
              name="standardvolume"
              required
              value={form.volume}
              error={errors.standardvolume}
              onChange={(e) => set('volume', e.target.value)}
              slotProps={{ htmlInput: { inputMode: 'decimal' } }}
            />
            {(kind === 'carrier' || kind === 'admin') && (
              <SelectField
                label={translate('calculator.ratio')}
                name="calculationRatio"
                required
                value={form.ratio}
                error={errors.calculationRatio}
                disabled={!form.volumeType}
                onChange={(e) => set('ratio', e.target.value as string)}
                options={(form.volumeType ? RATIOS[form.volumeType] : []).map((r) => ({
                  value: r,
                  label: translate('calculator.ratio_option', { name: r, kg: r.replace(/\D/g, ''), unit: translate(`calculator.unit_${form.volumeType}`) }),
                }))}
              />
            )}
          </Box>
        </Section>
      )}

      <Section title={translate('calculator.options')} testId="calc-options">
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
          {express && (
            <>
              <SelectField
                label={translate('calculator.flow')}
                name="flow"
                value={form.flow}
                sx={{ width: 290 }}
                onChange={(e) => set('flow', e.target.value as CalcForm['flow'])}
                options={(['OUT', 'IN'] as const).map((v) => ({ value: v, label: translate(`calculator.flow_${v}`) }))}
              />
              <SelectField
                label={translate('calculator.island')}
                name="island"
                value={form.island}
                sx={{ width: 240 }}
                onChange={(e) => set('island', e.target.value as string)}
                slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
                options={[{ value: '', label: translate('calculator.island_auto') }, ...ISLANDS.map((i) => ({ value: i, label: i }))]}
              />
            </>
          )}
          <FormControlLabel
            control={<Checkbox name="adr" checked={form.adr} onChange={(e) => set('adr', e.target.checked)} />}
            label={translate('calculator.adr')}
          />
          <FormControlLabel
            control={<Checkbox name="taillift" checked={form.taillift} onChange={(e) => set('taillift', e.target.checked)} />}
            label={translate('calculator.taillift')}
          />
        </Box>
      </Section>

      <Box>
        <Button type="submit" variant="contained" size="large" disabled={busy} data-testid="calc-submit">
          {translate(busy ? 'calculator.loading' : 'calculator.submit')}
        </Button>
      </Box>
    </Paper>
  );
}
