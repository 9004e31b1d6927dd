import { useEffect } from 'react';
import { useStore, useTranslate } from 'react-admin';
import { MenuItem, TextField } from '@mui/material';
import { useProviderRead } from './api';

export interface TariffCompany {
  id: number;
  legal_name: string;
}

/**
 * The admin's company chooser of the tariff screens: the carriers and resellers, the first one
 * preselected; the choice is remembered across the tariff screens. Carriers never see it.
 */
export function useTariffCompany(enabled: boolean) {
  const { data } = useProviderRead<{ data: TariffCompany[] }>(enabled ? 'tariff-companies' : null, (dp, signal) => dp.tariffCompanies(signal));
  const [companyId, setCompanyId] = useStore<number | null>('tariffs.company_id', null);
  const companies = data?.data;
  useEffect(() => {
    if (companies && companies.length && !companies.some((c) => c.id === companyId)) setCompanyId(companies[0].id);
  }, [companies, companyId, setCompanyId]);
  const company = companies?.find((c) => c.id === companyId) ?? null;
  return { companies, company, companyId: company?.id ?? null, setCompanyId };
}

export function CompanySelect({ companies, companyId, onChange }: { companies?: TariffCompany[]; companyId: number | null; onChange: (id: number) => void }) {
  const translate = useTranslate();
  return (
    <TextField
      select
      fullWidth={false}
      margin="none"
      size="small"
      label={translate('tariffs.company')}
      value={companyId ?? ''}
      onChange={(e) => onChange(Number(e.target.value))}
      sx={{ minWidth: 280 }}
      slotProps={{ htmlInput: { 'data-testid': 'company-select' } }}
      disabled={!companies?.length}
      helperText={companies && !companies.length ? translate('tariffs.no_company') : undefined}
    >
      {(companies ?? []).map((c) => (
        <MenuItem key={c.id} value={c.id}>
          {c.legal_name}
        </MenuItem>
      ))}
    </TextField>
  );
}
