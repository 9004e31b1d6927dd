import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { DataTable, List, TopToolbar, useListContext, usePermissions, useRefresh, useTranslate } from 'react-admin';
import { Box, Button, IconButton, MenuItem, TextField, Tooltip } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import VisibilityIcon from '@mui/icons-material/Visibility';
import CheckIcon from '@mui/icons-material/CheckCircleOutline';
import CloseIcon from '@mui/icons-material/HighlightOff';
import EditIcon from '@mui/icons-material/Edit';
import { useFormat } from '../../components/format';
import { PortalPickerField } from '../../components/dates/PortalPickers';
import { EmptyState } from '../../components/table/EmptyState';
import { TRANSPORT_REQUEST_STATUSES } from '../../../model/transportStatuses';
import type { Kind } from '../../../model/roles';
import { usePortalData, type TransportRequest } from './api';
import { StatusChip, requesterOf, routeOf, useServiceLabel } from './parts';
import { CONFIRM, REFUSE, isOpen, useStatusAction } from './statusActions';
import { NOWRAP_WIDE, PHONE_COMPACT, WIDE_ONLY, stickyActionsColumn } from '../../components/table/stickyActions';

import { REQUESTS_RESOURCE } from './resource';
import { ListTitle } from '../../components/table/ListTitle';
import { ExportMenu } from '../../components/table/ExportMenu';
import { RequestSearchField } from './RequestSearch';

export { REQUESTS_RESOURCE };

/** Refused rows red, confirmed rows green (calculator document §2). */
const rowColour = (r: TransportRequest) => (r.transport_request_status_id === 4 ? '#fdecea' : r.transport_request_status_id === 3 ? '#e8f5e9' : undefined);

/** Date, status, Clear; a company selector for admins, an end-user selector for carriers (and admins). */
function FilterBar({ kind }: { kind: Kind }) {
  const translate = useTranslate();
  const { filterValues, setFilters } = useListContext();
  const set = (patch: Record<string, unknown>) => {
    const next = { ...filterValues, ...patch };
    for (const k of Object.keys(next)) if (next[k] === '' || next[k] === undefined) delete next[k];
    setFilters(next, undefined, false);
  };
  const dataProvider = usePortalData();
  const companies = useQuery({ queryKey: ['lookup', 'companies_list'], queryFn: () => dataProvider.companies(), enabled: kind === 'admin', staleTime: 60_000 });
  const companyId = filterValues.company_id ? Number(filterValues.company_id) : undefined;
  const endusers = useQuery({
    queryKey: ['lookup', 'enduser_list', companyId ?? 0],
    queryFn: () => dataProvider.endusers(companyId),
    enabled: kind !== 'enduser',
    staleTime: 60_000,
  });
  const carriers = (companies.data ?? []).filter((c) => c.company_role_id === 2 || c.company_role_id === 4);
  const field = { size: 'small', variant: 'outlined', fullWidth: false, sx: { width: { xs: '100%', sm: 200 } } } as const;
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'center', p: 2 }} data-testid="request-filters">
      <RequestSearchField sx={{ width: { xs: '100%', sm: 280 } }} />
      <PortalPickerField
        kind="date"
        label={translate('requests.filter_date')}
        value={filterValues.date ?? ''}
        onChange={(v) => set({ date: v })}
        testId="filter-date"
        variant={field.variant}
        sx={field.sx}
      />
      <TextField
        {...field}
        select
        label={translate('requests.filter_status')}
        value={filterValues.transport_request_status_id ?? ''}
        onChange={(e) => set({ transport_request_status_id: e.target.value })}
        slotProps={{ htmlInput: { 'data-testid': 'filter-status' } }}
      >
        <MenuItem value="">{translate('requests.all')}</MenuItem>
        {TRANSPORT_REQUEST_STATUSES.map((s) => (
          <MenuItem key={s.id} value={String(s.id)}>
            {translate(`requests.statuses.${s.id}`)}
          </MenuItem>
        ))}
      </TextField>
      {kind === 'admin' && (
        <TextField
          {...field}
          select
          label={translate('requests.filter_company')}
          value={filterValues.company_id ?? ''}
          onChange={(e) => set({ company_id: e.target.value, enduser_id: '' })}
          slotProps={{ htmlInput: { 'data-testid': 'filter-company' } }}
        >
          <MenuItem value="">{translate('requests.all')}</MenuItem>
          {carriers.map((c) => (
            <MenuItem key={c.id} value={String(c.id)}>
              {c.legal_name}
            </MenuItem>
          ))}
        </TextField>
      )}
      {kind !== 'enduser' && (
        <TextField
          {...field}
          select
          label={translate('requests.filter_enduser')}
          value={filterValues.enduser_id ?? ''}
          onChange={(e) => set({ enduser_id: e.target.value })}
          slotProps={{ htmlInput: { 'data-testid': 'filter-enduser' } }}
        >
          <MenuItem value="">{translate('requests.all')}</MenuItem>
          {(endusers.data ?? []).map((c) => (
            <MenuItem key={c.id} value={String(c.id)}>
              {c.legal_name}
            </MenuItem>
          ))}
        </TextField>
      )}
      <Button onClick={() => set({ date: '', transport_request_status_id: '', q: '' })} data-testid="filter-clear">
        {translate('requests.clear')}
      </Button>
    </Box>
  );
}

/** Row actions: view for every row; for a carrier's open rows also edit, confirm (once priced) and refuse. */
function Actions({ r, kind, page, onAsk }: { r: TransportRequest; kind: Kind; page: number; onAsk: (r: TransportRequest, s: 3 | 4) => void }) {
  const translate = useTranslate();
  const navigate = useNavigate();
  const carrierOpen = kind === 'carrier' && isOpen(r);
  const canEdit = carrierOpen || kind === 'admin';
  const act = (label: string, icon: React.ReactNode, onClick: () => void, testid: string, color?: 'success' | 'error' | 'primary') => (
    <Tooltip title={label}>
      <IconButton
        size="small"
        color={color}
        aria-label={label}
        onClick={(e) => {
          e.stopPropagation();
          onClick();
        }}
        data-testid={testid}
      >
        {icon}
      </IconButton>
    </Tooltip>
  );
  return (
    <Box sx={{ display: 'flex', justifyContent: 'flex-end', whiteSpace: 'nowrap' }}>
      {act(translate('requests.view'), <VisibilityIcon fontSize="small" />, () => navigate(`/transport-requests-visuals/${r.id}/${page}`), 'row-view')}
      {canEdit &&
        act(translate('requests.edit'), <EditIcon fontSize="small" />, () => navigate(`/edit-transport-requests/${r.id}/${page}`), 'row-edit', 'primary')}
      {carrierOpen && !r.to_be_quoted && act(translate('requests.confirm'), <CheckIcon fontSize="small" />, () => onAsk(r, CONFIRM), 'row-confirm', 'success')}
      {carrierOpen && act(translate('requests.refuse'), <CloseIcon fontSize="small" />, () => onAsk(r, REFUSE), 'row-refuse', 'error')}
    </Box>
  );
}

function Table({ kind }: { kind: Kind }) {
  const translate = useTranslate();
  const { page } = useListContext();
  const { money, dateTime } = useFormat();
  const service = useServiceLabel();
  const refresh = useRefresh();
  const { ask, dialog } = useStatusAction(() => refresh());
  return (
    <>
      <DataTable<TransportRequest>
        bulkActionButtons={false}
        // A row opens its request (the eye too, for the keyboard): the list's page comes along for Back.
        rowClick={(id) => `/transport-requests-visuals/${id}/${page}`}
        sx={PHONE_COMPACT}
        empty={<EmptyState text="requests.empty" />}
        rowSx={(r) => {
          const c = rowColour(r);
          return c ? { bgcolor: `${c} !important` } : {};
        }}
      >
        <DataTable.Col source="id" label={translate('requests.col_id')} />
        <DataTable.Col source="created_at" label={translate('requests.col_date')} sx={WIDE_ONLY} render={(r) => dateTime(r.created_at)} />
        {kind !== 'enduser' && (
          <DataTable.Col label={translate('requests.col_client')} disableSort sx={WIDE_ONLY} render={(r) => requesterOf(r as TransportRequest)} />
        )}
        {kind === 'admin' && <DataTable.Col label={translate('requests.col_carrier')} disableSort sx={WIDE_ONLY} render={(r) => r.carrier.legal_name} />}
        <DataTable.Col
          label={translate('requests.col_route')}
          disableSort
          render={(r) => (
            <Box component="span" sx={NOWRAP_WIDE}>
              {routeOf(r as TransportRequest)}
            </Box>
          )}
        />
        <DataTable.Col label={translate('requests.col_type')} disableSort sx={WIDE_ONLY} render={(r) => service(r as TransportRequest)} />
        <DataTable.Col
          source="cost"
          label={translate('requests.col_total')}
          align="right"
          render={(r) =>
            r.to_be_quoted ? (
              <Box component="span" sx={{ color: 'warning.dark', fontWeight: 600 }}>
                {translate('requests.to_be_quoted')}
              </Box>
            ) : (
              money(r.total)
            )
          }
        />
        <DataTable.Col
          source="transport_request_status_id"
          label={translate('requests.col_status')}
          render={(r) => <StatusChip status={r.transport_request_status_id} />}
        />
        <DataTable.Col
          label={translate('requests.col_actions')}
          disableSort
          align="right"
          {...stickyActionsColumn(rowColour)}
          render={(r) => <Actions r={r as TransportRequest} kind={kind} page={page} onAsk={ask} />}
        />
      </DataTable>
      {dialog}
    </>
  );
}

/** /transport-requests-visuals (calculator document §2): the caller's requests, scoped by the server. */
export function RequestList() {
  const translate = useTranslate();
  const { permissions: kind } = usePermissions<Kind>();
  if (!kind) return null;
  const add =
    kind === 'enduser' ? (
      <Button component={RouterLink} to="/transport-requests" variant="contained" startIcon={<AddIcon />} data-testid="add-request">
        {translate('requests.add_new')}
      </Button>
    ) : null;
  return (
    <Box sx={{ minWidth: 0, maxWidth: '100%' }}>
      <ListTitle>{translate('requests.title_list')}</ListTitle>
      <List
        resource={REQUESTS_RESOURCE}
        title={translate('requests.title_list')}
        sort={{ field: 'created_at', order: 'DESC' }}
        perPage={15}
        actions={
          <TopToolbar>
            <ExportMenu />
            {add}
          </TopToolbar>
        }
        empty={<EmptyState text="requests.empty" action={add} />}
        storeKey={`transport_requests.${kind}`}
        // On a phone the table scrolls sideways inside its card, never the page.
        sx={{ '& .RaList-main': { minWidth: 0 }, '& .RaList-content': { overflowX: 'auto' } }}
      >
        <FilterBar kind={kind} />
        <Table kind={kind} />
      </List>
    </Box>
  );
}
