import { useEffect, useState } from 'react';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import { Box, MenuItem, TextField, Typography } from '@mui/material';
import type { PortalDataProvider } from '../../dataProvider';
import { useProviderRead } from './api';
import { PagedTable } from './PagedTable';

interface Category {
  id: number;
  code: string;
  rate_type: string;
  zone: string;
}
const PER_PAGE = 10;

/**
 * enduser_carrier_categories: which express and standard category each end-user company of the carrier
 * is priced with (pricing.md §1: without one, the carrier's standard sheet). Each choice is saved at once.
 */
export function EnduserCategories({ ns, isAdmin, companyId, refreshKey }: { ns: string; isAdmin: boolean; companyId: number; refreshKey?: unknown }) {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<PortalDataProvider>();
  const [page, setPage] = useState(1);
  const adminQuery = isAdmin ? { company_id: companyId } : {};
  const listQuery = { page, per_page: PER_PAGE, ...adminQuery };
  const list = useProviderRead<any>(`enduser-categories ${ns} ${JSON.stringify(listQuery)}`, (dp, signal) => dp.enduserCategories(listQuery, signal));
  // refreshKey changes when the rate sheets page reloads its categories (a new sheet may have added one).
  const cats = useProviderRead<{ category_list: Category[] }>(`category_list ${JSON.stringify(adminQuery)}`, (dp, signal) =>
    dp.lookup('category_list', adminQuery, signal),
  );
  const { refetch } = cats;
  useEffect(() => {
    if (refreshKey) refetch();
  }, [refreshKey, refetch]);
  const all = cats.data?.category_list ?? [];

  const save = async (enduserId: number, field: 'exp_category_id' | 'std_category_id', value: number) => {
    try {
      await dataProvider.saveEnduserCategory({ enduserId, field, value: value || null, companyId: isAdmin ? companyId : null });
    } catch (err: any) {
      notify(err?.message ?? 'ra.notification.http_error', { type: 'error' });
    }
    list.refetch();
  };
  const picker = (row: any, field: 'exp_category_id' | 'std_category_id', rateType: 'EXP' | 'STD') => (
    <TextField
      select
      size="small"
      fullWidth
      margin="none"
      value={row[field] ?? 0}
      onChange={(e) => save(row.id, field, Number(e.target.value))}
      slotProps={{
        htmlInput: { 'aria-label': `${translate(`rate_sheets.${rateType.toLowerCase()}_category`)} ${row.legal_name}`, 'data-testid': `${field}-${row.id}` },
      }}
    >
      <MenuItem value={0}>
        <em>{translate('rate_sheets.none')}</em>
      </MenuItem>
      {all
        .filter((c) => c.rate_type === rateType)
        .map((c) => (
          <MenuItem key={c.id} value={c.id}>{`${c.code} · ${c.zone}`}</MenuItem>
        ))}
    </TextField>
  );

  return (
    <Box sx={{ mt: 4 }} data-testid="enduser-categories">
      <Typography variant="h6" component="h2">
        {translate('rate_sheets.customers_title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {translate('rate_sheets.customers_help')}
      </Typography>
      <PagedTable
        rows={list.data?.data}
        total={list.data?.total ?? 0}
        page={page}
        perPage={PER_PAGE}
        onPage={setPage}
        loading={list.loading}
        error={list.error}
        emptyText={translate('rate_sheets.customers_empty')}
        columns={[
          { key: 'legal_name', label: translate('rate_sheets.customer') },
          { key: 'city', label: translate('tariffs.columns.city') },
          { key: 'exp', label: translate('rate_sheets.exp_category'), render: (r) => picker(r, 'exp_category_id', 'EXP') },
          { key: 'std', label: translate('rate_sheets.std_category'), render: (r) => picker(r, 'std_category_id', 'STD') },
        ]}
      />
    </Box>
  );
}
