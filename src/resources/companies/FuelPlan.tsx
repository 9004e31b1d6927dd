import { useGetList, useLocaleState, useTranslate, type Validator } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { Alert, Box, InputAdornment, Typography } from '@mui/material';
import LocalGasStationIcon from '@mui/icons-material/LocalGasStation';
import { companyFields, type CompanyField } from '../../../model/companies';
import type { DieselPrice, FuelPlan } from '../../../model/fuel';
import { validatorsOf } from '../../components/declared/validators';
import { DecimalInput } from '../../components/forms/DecimalInput';
import { fuelPreviewText, romeMonth } from './fuelPreview';

const K = 'resources.companies.fuel';
const v = (name: CompanyField): Validator[] => validatorsOf(companyFields[name]);

/**
 * The diesel reference prices around this month, through the data provider (admins read
 * /admin/diesel_prices, carriers /company/diesel_prices). The latest 100 months, newest first: enough
 * to find this month's row or the latest earlier one even with a few future months entered.
 */
export function useDieselPrices() {
  const { data, isPending, isError } = useGetList<DieselPrice & { id: number }>('diesel-prices', {
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'month', order: 'DESC' },
  });
  return { rows: data ?? [], isPending, isError };
}

/** The preview sentence of a plan (updates as the plan changes), announced politely to screen readers. */
export function FuelPreview({ plan }: { plan: FuelPlan }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { rows, isPending, isError } = useDieselPrices();
  if (isPending || isError) return null;
  const text = fuelPreviewText(plan, rows, romeMonth(), locale, translate);
  return (
    <Alert severity="info" icon={<LocalGasStationIcon fontSize="inherit" />} role="status" aria-live="polite" data-testid="fuel-preview" sx={{ mt: 1 }}>
      {text}
    </Alert>
  );
}

/** The four inputs of the plan (pricing.md §7) and the live preview under them, in a carrier-like company's form. */
export function FuelPlanInputs() {
  const translate = useTranslate();
  const [fuel_base_price, fuel_step, fuel_step_percent, fuel_max_percent] = useWatch({
    name: ['fuel_base_price', 'fuel_step', 'fuel_step_percent', 'fuel_max_percent'],
  });
  const perLitre = { input: { endAdornment: <InputAdornment position="end">€/l</InputAdornment> } };
  const percent = { input: { endAdornment: <InputAdornment position="end">%</InputAdornment> } };
  return (
    <Box component="fieldset" data-testid="fuel-plan" sx={{ border: 0, p: 0, m: 0, mt: 2, minWidth: 0 }}>
      <Typography component="legend" variant="subtitle2" sx={{ fontWeight: 600 }}>
        {translate(`${K}.title`)}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {translate(`${K}.hint`)}
      </Typography>
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, columnGap: 2 }}>
        <DecimalInput source="fuel_base_price" min={0} step={0.001} validate={v('fuel_base_price')} slotProps={perLitre} fullWidth />
        <DecimalInput source="fuel_step" min={0} step={0.001} validate={v('fuel_step')} slotProps={perLitre} fullWidth />
        <DecimalInput source="fuel_step_percent" min={0} max={100} step={0.01} validate={v('fuel_step_percent')} slotProps={percent} fullWidth />
        <DecimalInput source="fuel_max_percent" min={0} max={100} step={0.01} validate={v('fuel_max_percent')} slotProps={percent} fullWidth />
      </Box>
      <FuelPreview plan={{ fuel_base_price, fuel_step, fuel_step_percent, fuel_max_percent }} />
    </Box>
  );
}
