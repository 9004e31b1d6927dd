import { useState } from 'react';
import { Title, useDataProvider, useLocale, useNotify, useTranslate } from 'react-admin';
import type { PortalDataProvider } from '../../dataProvider';
import { Box, Button, MenuItem, Paper, Stack, TextField, Typography } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import { SHEET_ZONES, rateRowsSpec } from '../../../model/tariffs';
import { useProviderRead } from './api';
import { formatCell, formatDay } from './format';
import { PagedTable } from './PagedTable';

const PER_PAGE = 25;

/**
 * /enduser-rate-sheets: the end user's applicable standard (default) or express sheet, with its own
 * prices, paged and downloadable (calculator document §2 "Enduser rate sheets").
 */
export function EnduserRateSheetsPage() {
  const translate = useTranslate();
  const locale = useLocale();
  const notify = useNotify();
  const dataProvider = useDataProvider<PortalDataProvider>();
  const [rateType, setRateType] = useState<'STD' | 'EXP'>('STD');
  const [zone, setZone] = useState('NAT');
  const [page, setPage] = useState(1);
  const mine = useProviderRead<any>(`my-rate-sheet ${page} ${zone}`, (dp, signal) => dp.myRateSheet({ page, per_page: PER_PAGE, zone }, signal));
  const part = mine.data?.[rateType === 'STD' ? 'standard_rate_sheet' : 'express_rate_sheet'];
  const sheet = part?.sheet;
  const spec = rateRowsSpec(rateType);
  const title = translate('enduser_rate_sheets.title');

  return (
    <Box data-testid="enduser-rate-sheets-page">
      <Title title={title} />
      <Paper sx={{ p: 2, mb: 2 }}>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'center' } }}>
          <Typography variant="h5" component="h1" sx={{ flex: 1 }}>
            {title}
          </Typography>
          <TextField
            select
            fullWidth={false}
            margin="none"
            size="small"
            label={translate('enduser_rate_sheets.rate_type')}
            value={rateType}
            sx={{ minWidth: 220 }}
            onChange={(e) => {
              setRateType(e.target.value as 'STD' | 'EXP');
              setPage(1);
            }}
            slotProps={{ htmlInput: { 'data-testid': 'rate-type' } }}
          >
            <MenuItem value="STD">{translate('rate_sheets.rate_type_STD')}</MenuItem>
            <MenuItem value="EXP">{translate('rate_sheets.rate_type_EXP')}</MenuItem>
          </TextField>
          {rateType === 'STD' && (
            <TextField
              select
              fullWidth={false}
              margin="none"
              size="small"
              label={translate('enduser_rate_sheets.zone')}
              value={zone}
              sx={{ minWidth: 200 }}
              onChange={(e) => {
                setZone(e.target.value);
                setPage(1);
              }}
              slotProps={{ htmlInput: { 'data-testid': 'zone' } }}
            >
              {SHEET_ZONES.map((z) => (
                <MenuItem key={z} value={z}>
                  {translate(`rate_sheets.zone_${z}`)}
                </MenuItem>
              ))}
            </TextField>
          )}
          <Button
            variant="outlined"
            startIcon={<DownloadIcon />}
            disabled={!sheet}
            data-testid="download-my-sheet"
            onClick={() =>
              dataProvider.downloadMyRateSheet({ rateType, zone, fileName: `${sheet?.code}.xlsx` }).catch((e) => notify(e?.message, { type: 'error' }))
            }
          >
            {translate('enduser_rate_sheets.download')}
          </Button>
        </Stack>
        {sheet && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }} data-testid="my-sheet-summary">
            {[
              sheet.code,
              sheet.description,
              translate('rate_sheets.validity', { from: formatDay(sheet.validate_from, locale), to: formatDay(sheet.validate_to, locale) }),
              translate('enduser_rate_sheets.prices_note'),
            ]
              .filter(Boolean)
              .join(' · ')}
          </Typography>
        )}
      </Paper>
      <PagedTable
        testId="my-rate-rows"
        rows={part?.data}
        total={part?.total ?? 0}
        page={page}
        perPage={PER_PAGE}
        onPage={setPage}
        loading={mine.loading}
        error={mine.error}
        emptyText={translate(rateType === 'STD' ? 'enduser_rate_sheets.empty_std' : 'enduser_rate_sheets.empty_exp')}
        onRetry={mine.refetch}
        columns={spec.columns.map((c) => ({
          key: c.name,
          label: translate(`tariffs.columns.${c.name}`),
          title: c.name,
          align: c.kind === 'text' ? undefined : ('right' as const),
          render: (r: Record<string, unknown>) => formatCell(c, r[c.name], locale, translate),
        }))}
      />
    </Box>
  );
}
