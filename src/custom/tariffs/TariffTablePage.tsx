import { useState } from 'react';
import { Confirm, Title, useGetIdentity, useLocale, useNotify, useTranslate } from 'react-admin';
import { Box, Button, Paper, Stack, Typography } from '@mui/material';
import DeleteIcon from '@mui/icons-material/Delete';
import DownloadIcon from '@mui/icons-material/Download';
import UploadIcon from '@mui/icons-material/Upload';
import { apiRequest } from '../../api/http';
import { TARIFF_LIMITS, listColumns, type TariffTableSpec } from '../../../model/tariffs';
import { downloadFile, useApiGet, useNamespace } from './api';
import { CompanySelect, useTariffCompany } from './CompanySelect';
import { formatCell } from './format';
import { PagedTable, type Sort } from './PagedTable';
import { UploadDialog } from './UploadDialog';

const PER_PAGE = 15;
export const groupDigits = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');

/**
 * One screen for each of the six tariff tables, driven by the table's declaration (calculator document
 * §2 "Tariff screens"): the admin's company selector (first carrier preselected), the template download,
 * the upload modal while the set is empty, the red Delete (whole set, after a confirmation) once it has
 * rows, and the paged table with the documented columns.
 */
export function TariffTablePage({ spec }: { spec: TariffTableSpec }) {
  const translate = useTranslate();
  const locale = useLocale();
  const notify = useNotify();
  const { ns, isAdmin, ready } = useNamespace();
  const { companies, company, companyId, setCompanyId } = useTariffCompany(ready && isAdmin);
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState<Sort>({ field: 'id', order: 'asc' });
  const [uploading, setUploading] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);

  const canLoad = ready && (!isAdmin || companyId !== null);
  const list = useApiGet<Record<string, any>>(canLoad ? `${ns}/${spec.key}` : null, {
    page, per_page: PER_PAGE, sort: sort.field, order: sort.order, ...(isAdmin ? { company_id: companyId } : {}),
  });
  const paged = list.data?.[spec.listKey];
  const total: number = paged?.total ?? 0;
  const title = translate(`text-${spec.route}`);
  const columns = listColumns(spec).map((c) => ({
    key: c.name,
    label: translate(`tariffs.columns.${c.name}`),
    title: c.name,
    sortable: true,
    align: c.kind === 'text' ? undefined : ('right' as const),
    render: (row: Record<string, unknown>) => formatCell(c, row[c.name], locale, translate),
  }));
  const { identity } = useGetIdentity();
  const companyName: string = (isAdmin ? company?.legal_name : identity?.company?.legal_name) ?? '';

  const remove = async () => {
    setDeleting(true);
    try {
      const answer = isAdmin
        ? await apiRequest(`${ns}/${spec.key}/destroy`, { method: 'POST', body: { company_id: companyId } })
        : await apiRequest(`${ns}/${spec.key}/destroy`);
      notify(answer?.message ?? 'ra.notification.deleted', { type: 'success' });
      setPage(1);
      list.refetch();
    } catch (err: any) {
      notify(err?.message ?? 'ra.notification.http_error', { type: 'error' });
    } finally {
      setDeleting(false);
      setConfirming(false);
    }
  };

  return (
    <Box data-testid={`tariff-page-${spec.key}`}>
      <Title title={title} />
      <Paper sx={{ p: 2, mb: 2 }}>
        <Stack direction="row" spacing={2} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <Box sx={{ flex: 1, minWidth: 220 }}>
            <Typography variant="h5" component="h1">{title}</Typography>
            <Typography variant="body2" color="text.secondary" data-testid="row-count">
              {total > 0 ? translate('tariffs.rows', { count: groupDigits(total) }) : '\u00a0'}
            </Typography>
          </Box>
          {isAdmin && <CompanySelect companies={companies} companyId={companyId} onChange={(id) => { setCompanyId(id); setPage(1); }} />}
          <Button
            variant="outlined"
            startIcon={<DownloadIcon />}
            data-testid="template-download"
            sx={{ whiteSpace: 'nowrap' }}
            onClick={() => downloadFile(`${ns}/tariff_templates/${spec.templateKey}`, undefined, spec.templateFile)
              .catch((e) => notify(e?.message ?? 'ra.notification.http_error', { type: 'error' }))}
          >
            {translate('tariffs.template')}
          </Button>
          {list.data && total === 0 && (
            <Button variant="contained" startIcon={<UploadIcon />} onClick={() => setUploading(true)} data-testid="upload-open" disabled={!canLoad} sx={{ whiteSpace: 'nowrap' }}>
              {translate('tariffs.upload')}
            </Button>
          )}
          {total > 0 && (
            <Button variant="contained" color="error" startIcon={<DeleteIcon />} onClick={() => setConfirming(true)} data-testid="delete-set" sx={{ whiteSpace: 'nowrap' }}>
              {translate('tariffs.delete')}
            </Button>
          )}
        </Stack>
      </Paper>
      <PagedTable
        testId="tariff-table"
        columns={columns}
        rows={paged?.data}
        total={total}
        page={page}
        perPage={PER_PAGE}
        onPage={setPage}
        sort={sort}
        onSort={(s) => { setSort(s); setPage(1); }}
        loading={list.loading}
        error={list.error}
        emptyText={translate('portal.empty')}
        onRetry={list.refetch}
      />
      <UploadDialog
        open={uploading}
        title={translate('tariffs.upload_title', { table: title })}
        help={translate('tariffs.upload_help', {
          mb: TARIFF_LIMITS.fileBytes / 1048576, rows: groupDigits(TARIFF_LIMITS.rows), columns: spec.columns.map((c) => c.name).join(', '),
        })}
        path={`${ns}/${spec.key}/store`}
        fileField={spec.fileField}
        fields={(): Record<string, number> | null => (isAdmin ? (companyId ? { company_id: companyId } : null) : {})}
        onClose={() => setUploading(false)}
        onDone={() => { setUploading(false); setPage(1); list.refetch(); }}
      />
      <Confirm
        isOpen={confirming}
        loading={deleting}
        title={translate('tariffs.delete_title')}
        content={translate('tariffs.delete_text', { count: groupDigits(total), table: title, company: companyName })}
        confirm={translate('tariffs.delete')}
        confirmColor="warning"
        onConfirm={remove}
        onClose={() => setConfirming(false)}
      />
    </Box>
  );
}
