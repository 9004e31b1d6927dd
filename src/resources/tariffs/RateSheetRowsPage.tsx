import { useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { Title, useDataProvider, useLocale, useNotify, useTranslate } from 'react-admin';
import type { PortalDataProvider } from '../../dataProvider';
import { Box, Button, Paper, Stack, Typography } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import DownloadIcon from '@mui/icons-material/Download';
import { rateRowsSpec } from '../../../model/tariffs';
import { useNamespace, useProviderRead } from './api';
import { formatCell, formatDay, groupDigits } from './format';
import { PagedTable, type Sort } from './PagedTable';
import { ExportButton } from './ExportButton';
import { SearchBox } from './SearchBox';

const PER_PAGE = 25;

/** rate-sheets/{id}/{companyId}: the parsed rows of one sheet, read-only, paged (calculator document §2). */
export function RateSheetRowsPage() {
  const { id, companyId } = useParams();
  const translate = useTranslate();
  const locale = useLocale();
  const notify = useNotify();
  const dataProvider = useDataProvider<PortalDataProvider>();
  const { ns, isAdmin, ready } = useNamespace();
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState<Sort>({ field: 'id', order: 'asc' });
  const [q, setQ] = useState('');
  const adminQuery = isAdmin ? { company_id: Number(companyId) } : undefined;
  const rowsQuery = { page, per_page: PER_PAGE, sort: sort.field, order: sort.order, ...adminQuery, ...(q ? { q } : {}) };
  const rows = useProviderRead<any>(ready && /^\d+$/.test(id ?? '') ? `rate-sheet-rows ${ns} ${id} ${JSON.stringify(rowsQuery)}` : null, (dp, signal) =>
    dp.rateSheetRows(id!, rowsQuery, signal),
  );
  const sheet = rows.data?.sheet;
  const spec = rateRowsSpec(sheet?.rate_type ?? 'EXP');
  const title = translate('rate_sheets.rows_title', { code: sheet?.code ?? '' });

  return (
    <Box data-testid="rate-sheet-rows-page">
      <Title title={title} />
      <Paper sx={{ p: 2, mb: 2 }}>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'center' } }}>
          <Box sx={{ flex: 1 }}>
            <Typography variant="h5" component="h1">
              {title}
            </Typography>
            {sheet && (
              <Typography variant="body2" color="text.secondary" data-testid="sheet-summary">
                {[
                  sheet.description,
                  `${sheet.rate_type} ${sheet.zone}`,
                  translate(`rate_sheets.area_${sheet.area}`),
                  translate('rate_sheets.validity', { from: formatDay(sheet.validate_from, locale), to: formatDay(sheet.validate_to, locale) }),
                  // while searching the total is the rows found (said under the search box)
                  !q && translate('tariffs.rows', { count: groupDigits(rows.data.total, locale), smart_count: rows.data.total }),
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </Typography>
            )}
          </Box>
          <Button component={RouterLink} to="/rate-sheets" startIcon={<ArrowBackIcon />}>
            {translate('rate_sheets.back')}
          </Button>
          <Button
            variant="outlined"
            startIcon={<DownloadIcon />}
            disabled={!sheet}
            data-testid="download-sheet"
            onClick={() =>
              dataProvider
                .downloadRateSheet({ id: id!, companyId: isAdmin ? companyId : null, fileName: `${sheet?.code}.xlsx` })
                .catch((e) => notify(e?.message, { type: 'error' }))
            }
          >
            {translate('rate_sheets.download')}
          </Button>
          <ExportButton target={{ sheetId: id! }} companyId={isAdmin ? companyId : null} fileName={`${sheet?.code}.xlsx`} disabled={!sheet} />
        </Stack>
      </Paper>
      <Box sx={{ mb: 2 }}>
        <SearchBox
          value={q}
          found={rows.data?.total}
          onChange={(next) => {
            setQ(next);
            setPage(1);
          }}
        />
      </Box>
      <PagedTable
        testId="rate-rows-table"
        rows={rows.data?.data}
        total={rows.data?.total ?? 0}
        page={page}
        perPage={PER_PAGE}
        onPage={setPage}
        sort={sort}
        onSort={(s) => {
          setSort(s);
          setPage(1);
        }}
        loading={rows.loading}
        error={rows.error}
        emptyText={translate('rate_sheets.empty')}
        onRetry={rows.refetch}
        columns={spec.columns.map((c) => ({
          key: c.name,
          label: translate(`tariffs.columns.${c.name}`),
          title: c.name,
          sortable: true,
          align: c.kind === 'text' ? undefined : ('right' as const),
          render: (r: Record<string, unknown>) => formatCell(c, r[c.name], locale, translate),
        }))}
      />
    </Box>
  );
}
