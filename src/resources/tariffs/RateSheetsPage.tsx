import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Confirm, DataTable, List, Title, useDataProvider, useGetIdentity, useLocale, useNotify, useStore, useTranslate } from 'react-admin';
import { Box, Button, IconButton, MenuItem, Paper, Stack, TextField, Tooltip, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import DownloadIcon from '@mui/icons-material/Download';
import VisibilityIcon from '@mui/icons-material/Visibility';
import type { PortalDataProvider } from '../../dataProvider';
import { RATE_TYPES, SHEET_ZONES } from '../../../model/tariffs';
import { useNamespace, useProviderRead } from './api';
import { CompanySelect, useTariffCompany } from './CompanySelect';
import { EnduserCategories } from './EnduserCategories';
import { formatDay, groupDigits } from './format';
import { NewSheetDialog } from './NewSheetDialog';
import { useQueryClient } from '@tanstack/react-query';
import { EmptyState } from '../../components/table/EmptyState';
import { StackedDataTable } from '../../components/table/PhoneCards';
import { stickyActionsColumn } from '../../components/table/stickyActions';

interface Category {
  id: number;
  code: string;
  rate_type: string;
  zone: string;
}
const PER_PAGE = 15;

/**
 * /rate-sheets (calculator document §2 "Rate sheets"): company (admins), zone and rate type filters,
 * the category choice (its versions are listed; the list runs only with a category and a company),
 * template downloads, the New Sheet modal, per-row view, download and delete; below, the customers'
 * categories (enduser_carrier_categories).
 */
export function RateSheetsPage() {
  const translate = useTranslate();
  const locale = useLocale();
  const notify = useNotify();
  const navigate = useNavigate();
  const dataProvider = useDataProvider<PortalDataProvider>();
  const { identity } = useGetIdentity();
  const { ns, isAdmin, ready } = useNamespace();
  const { companies, company, companyId: adminCompanyId, setCompanyId } = useTariffCompany(ready && isAdmin);
  const companyId: number | null = isAdmin ? adminCompanyId : (identity?.company?.id ?? null);
  const companyName: string = (isAdmin ? company?.legal_name : identity?.company?.legal_name) ?? '';
  // The filters survive a visit to a sheet's rows and back.
  const [zone, setZone] = useStore('rateSheets.zone', '');
  const [rateType, setRateType] = useStore('rateSheets.rate_type', '');
  const [categoryId, setCategoryId] = useStore('rateSheets.category_id', 0);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<any>(null);

  const catsQuery = { rate_type: rateType, zone, ...(isAdmin ? { company_id: companyId } : {}) };
  const cats = useProviderRead<{ category_list: Category[] }>(ready && companyId ? `category_list_filter ${JSON.stringify(catsQuery)}` : null, (dp, signal) =>
    dp.lookup('category_list_filter', catsQuery, signal),
  );
  const categories = cats.data?.category_list;
  // A category just created by New Sheet is selected once a refreshed list (a new answer) holds it.
  const wanted = useRef<{ id: number; before: unknown } | null>(null);
  useEffect(() => {
    if (!categories) return;
    const w = wanted.current;
    if (w && cats.data !== w.before) {
      wanted.current = null;
      if (categories.some((c) => c.id === w.id)) {
        setCategoryId(w.id);
        return;
      }
    }
    if (!w && !categories.some((c) => c.id === categoryId)) setCategoryId(categories[0]?.id ?? 0);
  }, [categories, categoryId, cats.data, setCategoryId]);

  const queryClient = useQueryClient();
  // The list (react-admin's, through the data provider) runs only with a category and a company.
  const refetchList = () => queryClient.invalidateQueries({ queryKey: ['rate-sheets'] });

  const remove = async () => {
    try {
      await dataProvider.deleteRateSheet({ id: deleting.id, companyId });
      refetchList();
    } catch (err: any) {
      notify(err?.message ?? 'ra.notification.http_error', { type: 'error' });
    }
    setDeleting(null);
  };
  const filterSelect = (label: string, value: string, set: (v: string) => void, values: readonly string[], key: string, testId: string) => (
    <TextField
      select
      fullWidth={false}
      margin="none"
      size="small"
      label={label}
      value={value}
      sx={{ minWidth: 190 }}
      slotProps={{ htmlInput: { 'data-testid': testId }, select: { displayEmpty: true }, inputLabel: { shrink: true } }}
      onChange={(e) => set(e.target.value)}
    >
      <MenuItem value="">{translate('rate_sheets.all')}</MenuItem>
      {values.map((v) => (
        <MenuItem key={v} value={v}>
          {translate(`rate_sheets.${key}_${v}`)}
        </MenuItem>
      ))}
    </TextField>
  );
  const yesNo = (v: number) => translate(v ? 'rate_sheets.yes' : 'rate_sheets.no');

  return (
    <Box data-testid="rate-sheets-page">
      <Title title={translate('text-rate-sheets')} />
      <Paper sx={{ p: 2, mb: 2 }}>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'center' }, mb: 2 }}>
          <Typography variant="h5" component="h1" sx={{ flex: 1 }}>
            {translate('text-rate-sheets')}
          </Typography>
          {(['EXP', 'STD'] as const).map((t) => (
            <Button
              key={t}
              variant="outlined"
              startIcon={<DownloadIcon />}
              data-testid={`template-${t}`}
              sx={{ whiteSpace: 'nowrap' }}
              onClick={() =>
                dataProvider
                  .downloadTemplate({ templateKey: t === 'EXP' ? 'express_rate_sheet' : 'standard_rate_sheet', fileName: `${t}.xlsx` })
                  .catch((e) => notify(e?.message, { type: 'error' }))
              }
            >
              {translate(`rate_sheets.template_${t.toLowerCase()}`)}
            </Button>
          ))}
          <Button
            variant="contained"
            startIcon={<AddIcon />}
            onClick={() => setCreating(true)}
            disabled={!companyId}
            data-testid="new-sheet"
            sx={{ whiteSpace: 'nowrap' }}
          >
            {translate('rate_sheets.new_sheet')}
          </Button>
        </Stack>
        <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
          {isAdmin && <CompanySelect companies={companies} companyId={adminCompanyId} onChange={(id) => setCompanyId(id)} />}
          {filterSelect(translate('rate_sheets.zone'), zone, setZone, SHEET_ZONES, 'zone', 'filter-zone')}
          {filterSelect(translate('rate_sheets.rate_type'), rateType, setRateType, RATE_TYPES, 'rate_type', 'filter-rate-type')}
          <TextField
            select
            fullWidth={false}
            margin="none"
            size="small"
            label={translate('rate_sheets.category')}
            value={categories?.length ? categoryId : ''}
            sx={{ minWidth: 260 }}
            onChange={(e) => setCategoryId(Number(e.target.value))}
            disabled={!categories?.length}
            helperText={categories && !categories.length ? translate('rate_sheets.no_category') : undefined}
            slotProps={{ htmlInput: { 'data-testid': 'filter-category' } }}
          >
            {(categories ?? []).map((c) => (
              <MenuItem key={c.id} value={c.id}>{`${c.code} · ${c.rate_type} ${c.zone}`}</MenuItem>
            ))}
          </TextField>
        </Stack>
      </Paper>
      {!categoryId || !companyId ? (
        <Paper variant="outlined" data-testid="rate-sheet-table">
          <EmptyState text="rate_sheets.empty" />
        </Paper>
      ) : (
        <List
          resource="rate-sheets"
          title={translate('text-rate-sheets')}
          component={Box}
          filter={{ category_id: categoryId, ...(isAdmin ? { company_id: companyId } : {}) }}
          sort={{ field: 'validate_from', order: 'DESC' }}
          perPage={PER_PAGE}
          actions={false}
          empty={false}
          storeKey={false}
          disableSyncWithLocation
        >
          <Paper variant="outlined" data-testid="rate-sheet-table">
            <StackedDataTable bulkActionButtons={false} rowClick={false} empty={<EmptyState text="rate_sheets.empty" />}>
              <DataTable.Col source="code" label="rate_sheets.code" />
              <DataTable.Col source="description" label="rate_sheets.description" />
              <DataTable.Col source="zone" label="rate_sheets.zone" />
              <DataTable.Col source="rate_type" label="rate_sheets.rate_type" />
              <DataTable.Col source="area" label="rate_sheets.area" render={(r: any) => translate(`rate_sheets.area_${r.area}`)} />
              <DataTable.Col source="is_standard" label="rate_sheets.is_standard" render={(r: any) => yesNo(r.is_standard)} />
              <DataTable.Col source="validate_from" label="rate_sheets.validate_from" render={(r: any) => formatDay(r.validate_from, locale)} />
              <DataTable.Col source="validate_to" label="rate_sheets.validate_to" render={(r: any) => formatDay(r.validate_to, locale)} />
              <DataTable.Col source="rows" label="rate_sheets.rows" disableSort align="right" render={(r: any) => groupDigits(r.rows, locale)} />
              <DataTable.Col
                label={translate('rate_sheets.actions')}
                disableSort
                {...stickyActionsColumn()}
                render={(r: any) => (
                  <Box sx={{ whiteSpace: 'nowrap' }}>
                    <Tooltip title={translate('rate_sheets.view_rows')}>
                      <IconButton
                        size="small"
                        aria-label={translate('rate_sheets.view_rows')}
                        data-testid={`view-${r.id}`}
                        onClick={() => navigate(`/rate-sheets/${r.id}/${r.company_id}`)}
                      >
                        <VisibilityIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                    <Tooltip title={translate('rate_sheets.download')}>
                      <IconButton
                        size="small"
                        aria-label={translate('rate_sheets.download')}
                        data-testid={`download-${r.id}`}
                        onClick={() =>
                          dataProvider
                            .downloadRateSheet({ id: r.id, companyId, fileName: `${r.code}.xlsx` })
                            .catch((e) => notify(e?.message, { type: 'error' }))
                        }
                      >
                        <DownloadIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                    <Tooltip title={translate('rate_sheets.delete')}>
                      <IconButton
                        size="small"
                        color="error"
                        aria-label={translate('rate_sheets.delete')}
                        data-testid={`delete-${r.id}`}
                        onClick={() => setDeleting(r)}
                      >
                        <DeleteIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  </Box>
                )}
              />
            </StackedDataTable>
          </Paper>
        </List>
      )}
      {companyId && <EnduserCategories ns={ns} isAdmin={isAdmin} companyId={companyId} refreshKey={cats.data} />}
      <NewSheetDialog
        open={creating}
        isAdmin={isAdmin}
        companyId={companyId}
        companyName={companyName}
        defaults={{ zone, rate_type: rateType }}
        onClose={() => setCreating(false)}
        onDone={(sheet) => {
          setCreating(false);
          if (sheet) {
            // Show the new version: its category, with filters that include it.
            if (zone && zone !== sheet.zone) setZone(sheet.zone);
            if (rateType && rateType !== sheet.rate_type) setRateType(sheet.rate_type);
            wanted.current = { id: sheet.category_id, before: cats.data };
          }
          cats.refetch();
          refetchList();
        }}
      />
      <Confirm
        isOpen={!!deleting}
        title={translate('rate_sheets.delete_title', { code: deleting?.code ?? '' })}
        content={translate('rate_sheets.delete_text', { count: groupDigits(deleting?.rows ?? 0, locale) })}
        confirm={translate('rate_sheets.delete')}
        confirmColor="warning"
        onConfirm={remove}
        onClose={() => setDeleting(null)}
      />
    </Box>
  );
}
