import { useEffect, useState } from 'react';
import { useDataProvider, useLocale, useTranslate } from 'react-admin';
import { Checkbox, FormControlLabel, Grid, MenuItem, TextField } from '@mui/material';
import { RATE_TYPES, SHEET_AREAS, SHEET_ZONES, TARIFF_LIMITS, rateRowsSpec } from '../../../model/tariffs';
import { useProviderRead } from './api';
import { groupDigits } from './format';
import type { PortalDataProvider } from '../../dataProvider';
import { UploadDialog } from '../../components/upload/UploadDialog';
import { tariffCheckView } from './CheckPanels';
import { PortalPickerField } from '../../components/dates/PortalPickers';

interface Category {
  id: number;
  code: string;
  rate_type: string;
  zone: string;
}

/** Today in Europe/Rome as YYYY-MM-DD (the server dates the code the same way). */
const romeToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Rome', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());

/** What the code will look like (calculator document §5); the server generates it and adds -2, -3… when taken. */
export function codePreview(legalName: string, rateType: string, zone: string) {
  const letters = (
    legalName
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toUpperCase()
      .replace(/[^A-Z]/g, '') + 'XX'
  ).slice(0, 2);
  return `${letters}${rateType}${zone}${romeToday().replace(/-/g, '')}`;
}

interface Props {
  open: boolean;
  isAdmin: boolean;
  companyId: number | null;
  companyName: string;
  defaults: { zone?: string; rate_type?: string };
  onClose: () => void;
  onDone: (sheet: any) => void;
}

/**
 * The New Sheet modal: the documented payload (zone, rate type, area, validity, is_standard, company for
 * admins, the file) and an optional existing category of the same type and zone (else a new category).
 */
export function NewSheetDialog({ open, isAdmin, companyId, companyName, defaults, onClose, onDone }: Props) {
  const translate = useTranslate();
  const locale = useLocale();
  const dataProvider = useDataProvider<PortalDataProvider>();
  const [v, setV] = useState({
    description: '',
    zone: 'NAT',
    rate_type: 'EXP',
    area: 'Customer',
    validate_from: romeToday(),
    validate_to: '',
    is_standard: true,
    category_id: 0,
  });
  useEffect(() => {
    if (open) setV((s) => ({ ...s, zone: defaults.zone || s.zone, rate_type: defaults.rate_type || s.rate_type, category_id: 0 }));
  }, [open, defaults.zone, defaults.rate_type]);
  const zone = v.rate_type === 'EXP' ? 'NAT' : v.zone;
  const catsQuery = { rate_type: v.rate_type, zone, ...(isAdmin ? { company_id: companyId } : {}) };
  const cats = useProviderRead<{ category_list: Category[] }>(
    open && (!isAdmin || companyId) ? `category_list_filter ${JSON.stringify(catsQuery)}` : null,
    (dp, signal) => dp.lookup('category_list_filter', catsQuery, signal),
  );
  const datesBad = !!v.validate_to && !!v.validate_from && v.validate_to <= v.validate_from;
  const set = (k: keyof typeof v) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setV((s) => ({
      ...s,
      [k]: k === 'category_id' ? Number(e.target.value) : e.target.value,
      ...(k === 'rate_type' || k === 'zone' ? { category_id: 0 } : {}),
    }));

  const fields = () => {
    if (!v.validate_from || !v.validate_to || datesBad || (isAdmin && !companyId)) return null;
    return {
      code: codePreview(companyName, v.rate_type, zone),
      description: v.description,
      zone,
      rate_type: v.rate_type,
      area: v.area,
      validate_from: v.validate_from,
      validate_to: v.validate_to,
      is_standard: v.is_standard ? 1 : 0,
      ...(v.category_id ? { category_id: v.category_id } : {}),
      ...(isAdmin ? { company_id: companyId! } : {}),
    };
  };
  const spec = rateRowsSpec(v.rate_type);

  return (
    <UploadDialog
      open={open}
      title={translate('rate_sheets.new_title')}
      help={translate('tariffs.upload_help', {
        mb: TARIFF_LIMITS.fileBytes / 1048576,
        rows: groupDigits(TARIFF_LIMITS.rows, locale),
        columns: spec.columns.map((c) => c.name).join(', '),
      })}
      renderCheck={tariffCheckView({ spec, sheet: true })}
      formWidth="md"
      ready={fields() !== null}
      checkKey={JSON.stringify([v.rate_type, zone, v.area, v.category_id, companyId])}
      check={(file, onProgress) => dataProvider.checkUpload('rate-sheets', { data: { ...fields(), rate_sheet: file }, onProgress })}
      send={async (file, onProgress) => {
        const answer = await dataProvider.create('rate-sheets', { data: { ...fields(), rate_sheet: file }, meta: { onProgress } });
        onDone(answer.data?.id ? answer.data : null);
      }}
      onClose={onClose}
    >
      <Grid container spacing={2} sx={{ mb: 1 }}>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField
            fullWidth
            size="small"
            label={translate('rate_sheets.code')}
            value={codePreview(companyName, v.rate_type, zone)}
            helperText={translate('rate_sheets.code_help')}
            slotProps={{ input: { readOnly: true } }}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField
            fullWidth
            size="small"
            label={translate('rate_sheets.description')}
            value={v.description}
            onChange={set('description')}
            slotProps={{ htmlInput: { maxLength: 255, 'data-testid': 'sheet-description' } }}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 4 }}>
          <TextField
            select
            fullWidth
            size="small"
            label={translate('rate_sheets.rate_type')}
            value={v.rate_type}
            onChange={set('rate_type')}
            required
            slotProps={{ htmlInput: { 'data-testid': 'sheet-rate-type' } }}
          >
            {RATE_TYPES.map((t) => (
              <MenuItem key={t} value={t}>
                {translate(`rate_sheets.rate_type_${t}`)}
              </MenuItem>
            ))}
          </TextField>
        </Grid>
        <Grid size={{ xs: 12, sm: 4 }}>
          <TextField
            select
            fullWidth
            size="small"
            label={translate('rate_sheets.zone')}
            value={zone}
            onChange={set('zone')}
            required
            disabled={v.rate_type === 'EXP'}
            slotProps={{ htmlInput: { 'data-testid': 'sheet-zone' } }}
          >
            {SHEET_ZONES.map((z) => (
              <MenuItem key={z} value={z}>
                {translate(`rate_sheets.zone_${z}`)}
              </MenuItem>
            ))}
          </TextField>
        </Grid>
        <Grid size={{ xs: 12, sm: 4 }}>
          <TextField select fullWidth size="small" label={translate('rate_sheets.area')} value={v.area} onChange={set('area')} required>
            {SHEET_AREAS.map((a) => (
              <MenuItem key={a} value={a}>
                {translate(`rate_sheets.area_${a}`)}
              </MenuItem>
            ))}
          </TextField>
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <PortalPickerField
            kind="date"
            fullWidth
            label={translate('rate_sheets.validate_from')}
            value={v.validate_from}
            onChange={(d) => setV((s) => ({ ...s, validate_from: d }))}
            required
            error={!v.validate_from}
            testId="sheet-from"
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <PortalPickerField
            kind="date"
            fullWidth
            label={translate('rate_sheets.validate_to')}
            value={v.validate_to}
            onChange={(d) => setV((s) => ({ ...s, validate_to: d }))}
            required
            error={datesBad}
            helperText={datesBad ? translate('rate_sheets.dates_order') : undefined}
            testId="sheet-to"
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField select fullWidth size="small" label={translate('rate_sheets.category')} value={v.category_id} onChange={set('category_id')}>
            <MenuItem value={0}>{translate('rate_sheets.new_category')}</MenuItem>
            {(cats.data?.category_list ?? []).map((c) => (
              <MenuItem key={c.id} value={c.id}>
                {c.code}
              </MenuItem>
            ))}
          </TextField>
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <FormControlLabel
            control={<Checkbox checked={v.is_standard} onChange={(e) => setV((s) => ({ ...s, is_standard: e.target.checked }))} />}
            label={translate('rate_sheets.is_standard_help')}
          />
        </Grid>
      </Grid>
    </UploadDialog>
  );
}
