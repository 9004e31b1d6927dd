import { useState, type ReactNode } from 'react';
import {
  Confirm,
  DataTable,
  List,
  useCanAccess,
  useDataProvider,
  useGetIdentity,
  useGetList,
  useListContext,
  useNotify,
  usePermissions,
  useTranslate,
} from 'react-admin';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Box, Button, Paper, Stack, Typography } from '@mui/material';
import DeleteIcon from '@mui/icons-material/Delete';
import DownloadIcon from '@mui/icons-material/Download';
import UploadIcon from '@mui/icons-material/Upload';
import { TARIFF_LIMITS, listColumns, type TariffTableSpec } from '../../../model/tariffs';
import type { PortalDataProvider } from '../../dataProvider';
import { EmptyState } from '../../components/table/EmptyState';
import { NotFound } from '../../layout/NotFound';
import { useFormat } from '../../components/format';
import { CompanySelect, useTariffCompany, type TariffCompany } from './CompanySelect';
import { formatCell, groupDigits } from './format';
import { UploadDialog } from '../../components/upload/UploadDialog';
import { tariffCheckView } from './CheckPanels';
import { ExportButton } from './ExportButton';
import { SearchBox } from './SearchBox';
import { ActivitySection } from '../../components/audit/ActivitySection';
import { StackedDataTable } from '../../components/table/PhoneCards';

const PER_PAGE = 15;

/** A screen only for the kinds the declaration allows (react-admin's canAccess): the others get the not-found page, as for any unknown path. */
export function TariffGate({ resource, children }: { resource: string; children: ReactNode }) {
  const { canAccess, isPending } = useCanAccess({ resource, action: 'list' });
  if (isPending) return null;
  return canAccess ? children : <NotFound />;
}

/**
 * One screen for each of the six tariff tables, a react-admin list over the table's declaration
 * (calculator document §2 "Tariff screens"): the admin's company selector (first carrier preselected,
 * the list's `company_id` filter), the template download, the upload (the resource's create) while the
 * set is empty, the red Delete (whole set, after a confirmation) once it has rows, and the paged table.
 */
export function TariffList({ spec }: { spec: TariffTableSpec }) {
  return (
    <TariffGate resource={spec.route}>
      <TariffListScreen spec={spec} />
    </TariffGate>
  );
}

function TariffListScreen({ spec }: { spec: TariffTableSpec }) {
  const translate = useTranslate();
  const { permissions, isPending } = usePermissions();
  const isAdmin = permissions === 'admin';
  const { companies, company, companyId, setCompanyId } = useTariffCompany(!isPending && isAdmin);
  if (isPending) return null;
  const title = translate(`text-${spec.route}`);
  return (
    <Box data-testid={`tariff-page-${spec.key}`}>
      <List
        resource={spec.route}
        title={title}
        component={Box}
        filter={isAdmin ? { company_id: companyId ?? 0 } : undefined}
        sort={{ field: 'id', order: 'ASC' }}
        perPage={PER_PAGE}
        actions={false}
        empty={false}
        storeKey={false}
        disableSyncWithLocation
        queryOptions={{ enabled: !isAdmin || companyId !== null }}
      >
        <TariffHeader spec={spec} title={title} isAdmin={isAdmin} companies={companies} company={company} companyId={companyId} setCompanyId={setCompanyId} />
        <TariffSearch />
        <TariffTable spec={spec} />
      </List>
      {/* The set's history: the admin's for the selected carrier (as actor or target), a carrier's its own tenant's. */}
      {(!isAdmin || companyId !== null) && <ActivitySection resource={spec.table} companyId={isAdmin ? companyId : null} />}
    </Box>
  );
}

interface HeaderProps {
  spec: TariffTableSpec;
  title: string;
  isAdmin: boolean;
  companies?: TariffCompany[];
  company: TariffCompany | null;
  companyId: number | null;
  setCompanyId: (id: number) => void;
}

function TariffHeader({ spec, title, isAdmin, companies, company, companyId, setCompanyId }: HeaderProps) {
  const translate = useTranslate();
  const { locale } = useFormat();
  const notify = useNotify();
  const dataProvider = useDataProvider<PortalDataProvider>();
  const queryClient = useQueryClient();
  const { total, data, setPage, resource, filterValues } = useListContext();
  const { identity } = useGetIdentity();
  const [uploading, setUploading] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const canLoad = !isAdmin || companyId !== null;
  // While a search narrows the list, the set's own size (the row count, what an upload replaces, Delete) is asked apart.
  const searching = !!filterValues?.q;
  const whole = useGetList(
    resource,
    { filter: isAdmin ? { company_id: companyId ?? 0 } : {}, pagination: { page: 1, perPage: 1 } },
    { enabled: searching && canLoad },
  );
  const count = (searching ? whole.total : total) ?? 0;
  const companyName: string = (isAdmin ? company?.legal_name : identity?.company?.legal_name) ?? '';
  const refresh = () => {
    setPage(1);
    return queryClient.invalidateQueries({ queryKey: [resource] });
  };
  const removal = useMutation({
    mutationFn: () => dataProvider.deleteTariffSet(resource, { companyId }),
    onSuccess: refresh,
    onError: (err: any) => notify(err?.message ?? 'ra.notification.http_error', { type: 'error' }),
    onSettled: () => setConfirming(false),
  });
  // The check and the publish send the same fields and file; the check adds dry_run=1.
  const uploadData = (file: File) => ({ ...(isAdmin ? { company_id: companyId } : {}), [spec.fileField]: file });
  const upload = useMutation({
    mutationFn: ({ file, onProgress }: { file: File; onProgress: (p: number) => void }) =>
      dataProvider.create(resource, { data: uploadData(file), meta: { onProgress } }),
    onSuccess: () => {
      setUploading(false);
      return refresh();
    },
  });

  return (
    <Paper sx={{ p: 2, mb: 2 }}>
      <Stack direction="row" spacing={2} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Box sx={{ flex: 1, minWidth: 220 }}>
          <Typography variant="h5" component="h1">
            {title}
          </Typography>
          <Typography variant="body2" color="text.secondary" data-testid="row-count">
            {count > 0 ? translate('tariffs.rows', { count: groupDigits(count, locale), smart_count: count }) : '\u00a0'}
          </Typography>
        </Box>
        {isAdmin && (
          <CompanySelect
            companies={companies}
            companyId={companyId}
            onChange={(id) => {
              setCompanyId(id);
              setPage(1);
            }}
          />
        )}
        <Button
          variant="outlined"
          startIcon={<DownloadIcon />}
          data-testid="template-download"
          sx={{ whiteSpace: 'nowrap' }}
          onClick={() =>
            dataProvider
              .downloadTemplate({ templateKey: spec.templateKey, fileName: spec.templateFile })
              .catch((e) => notify(e?.message ?? 'ra.notification.http_error', { type: 'error' }))
          }
        >
          {translate('tariffs.template')}
        </Button>
        <ExportButton target={{ table: resource }} companyId={isAdmin ? companyId : null} fileName={`${spec.key}.xlsx`} disabled={!data || !canLoad} />
        {/* Always offered: a file over a stored set replaces it in one transaction (the dialog says so). */}
        {data && (
          <Button
            variant="contained"
            startIcon={<UploadIcon />}
            onClick={() => setUploading(true)}
            data-testid="upload-open"
            disabled={!canLoad}
            sx={{ whiteSpace: 'nowrap' }}
          >
            {translate('tariffs.upload')}
          </Button>
        )}
        {count > 0 && (
          <Button
            variant="contained"
            color="error"
            startIcon={<DeleteIcon />}
            onClick={() => setConfirming(true)}
            data-testid="delete-set"
            sx={{ whiteSpace: 'nowrap' }}
          >
            {translate('tariffs.delete')}
          </Button>
        )}
      </Stack>
      <UploadDialog
        open={uploading}
        title={translate(`resources.${resource}.create_title`)}
        help={translate('tariffs.upload_help', {
          mb: TARIFF_LIMITS.fileBytes / 1048576,
          rows: groupDigits(TARIFF_LIMITS.rows, locale),
          columns: spec.columns.map((c) => c.name).join(', '),
        })}
        renderCheck={tariffCheckView({ spec })}
        ready={canLoad}
        checkKey={String(companyId)}
        check={(file, onProgress) => dataProvider.checkUpload(resource, { data: uploadData(file), onProgress })}
        send={(file, onProgress) => upload.mutateAsync({ file, onProgress })}
        onClose={() => setUploading(false)}
      >
        {count > 0 && (
          <Alert severity="info" sx={{ mt: 2 }} data-testid="upload-replaces">
            {translate('tariffs.replaces', { count: groupDigits(count, locale), smart_count: count, table: title, company: companyName })}
          </Alert>
        )}
      </UploadDialog>
      <Confirm
        isOpen={confirming}
        loading={removal.isPending}
        title={translate('tariffs.delete_title')}
        content={translate('tariffs.delete_text', { count: groupDigits(count, locale), table: title, company: companyName })}
        confirm={translate('tariffs.delete')}
        ConfirmIcon={DeleteIcon}
        confirmColor="warning"
        onConfirm={() => removal.mutate()}
        onClose={() => setConfirming(false)}
      />
    </Paper>
  );
}

/** The search over the set (the list's `q`, issue 35): codes, places, zones, the class words. */
function TariffSearch() {
  const { filterValues, displayedFilters, setFilters, total } = useListContext();
  const q = typeof filterValues?.q === 'string' ? filterValues.q : '';
  return (
    <Box sx={{ mb: 2 }}>
      <SearchBox
        value={q}
        found={total}
        onChange={(next) => {
          const { q: _q, ...others } = filterValues ?? {};
          setFilters(next ? { ...others, q: next } : others, displayedFilters, false);
        }}
      />
    </Box>
  );
}

/** The rows: the declared columns (the file's column name on hover), money in euros in the user's language. */
function TariffTable({ spec }: { spec: TariffTableSpec }) {
  const translate = useTranslate();
  const { locale } = useFormat();
  return (
    <Paper variant="outlined" data-testid="tariff-table">
      {/* Cards on a phone (PhoneCards.tsx): the seven to nine columns were 1 035 px wide. */}
      <StackedDataTable bulkActionButtons={false} rowClick={false} empty={<EmptyState text="portal.empty" />}>
        {listColumns(spec).map((c) => (
          <DataTable.Col
            key={c.name}
            source={c.name}
            label={`tariffs.columns.${c.name}`}
            title={c.name}
            align={c.kind === 'text' ? undefined : 'right'}
            render={(row: Record<string, unknown>) => formatCell(c, row[c.name], locale, translate)}
          />
        ))}
      </StackedDataTable>
    </Paper>
  );
}
