import { DataTable, List, SelectInput, TopToolbar, useListContext, usePermissions, useTranslate } from 'react-admin';
import { Box, Button, Chip, Typography } from '@mui/material';
import ClearIcon from '@mui/icons-material/FilterAltOff';
import { EmptyState } from '../../components/table/EmptyState';
import { useFormat } from '../../components/format';
import { PortalDateInput } from '../../components/dates/inputs';
import { InvitationLink } from './InvitationLink';
import { StatusActions } from './StatusActions';
import { ExportMenu } from '../../components/table/ExportMenu';
import { StackedDataTable } from '../../components/table/PhoneCards';

export const STATUSES = ['OP', 'CF', 'RF'] as const;
const COLORS: Record<string, 'info' | 'success' | 'error' | 'default'> = { OP: 'info', CF: 'success', RF: 'error' };

export function StatusChip({ status }: { status: string }) {
  const translate = useTranslate();
  return (
    <Chip size="small" color={COLORS[status] ?? 'default'} label={translate(`request_access.status.${status}`, { _: status })} data-testid="status-chip" />
  );
}

/** Clear: back to no filters (date and status). */
function ClearFilters() {
  const translate = useTranslate();
  const { filterValues, setFilters } = useListContext();
  return (
    <Button
      size="small"
      startIcon={<ClearIcon />}
      onClick={() => setFilters({}, [])}
      disabled={!Object.keys(filterValues ?? {}).length}
      data-testid="clear-filters"
    >
      {translate('request_access.clear')}
    </Button>
  );
}

const lines = (...parts: Array<string | null | undefined>) =>
  parts.filter(Boolean).map((p, i) => (
    <Typography key={i} variant={i ? 'caption' : 'body2'} component="div" color={i ? 'text.secondary' : 'text.primary'}>
      {p}
    </Typography>
  ));

/**
 * /request-access: date and status filters (OP, CF, RF), Clear, a paged table with confirm and refuse
 * on open rows. Admins see the requests for new carriers, a carrier those addressed to it.
 */
export function RequestAccessList() {
  const translate = useTranslate();
  const format = useFormat();
  const { permissions } = usePermissions();
  const filters = [
    <PortalDateInput key="date" source="date" alwaysOn label="resources.request-access.fields.date" />,
    <SelectInput
      key="status"
      source="status"
      alwaysOn
      label="resources.request-access.fields.status"
      choices={STATUSES.map((s) => ({ id: s, name: translate(`request_access.status.${s}`) }))}
    />,
  ];
  return (
    <Box>
      <Typography variant="h5" component="h1" sx={{ mb: permissions === 'admin' ? 0.5 : 2 }}>
        {translate('request_access.title')}
      </Typography>
      {permissions === 'admin' && (
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {translate('request_access.admin_scope')}
        </Typography>
      )}
      <InvitationLink />
      <List
        title={translate('request_access.title')}
        filters={filters}
        actions={
          <TopToolbar>
            <ExportMenu />
            <ClearFilters />
          </TopToolbar>
        }
        sort={{ field: 'created_at', order: 'DESC' }}
        perPage={15}
      >
        <StackedDataTable bulkActionButtons={false} rowClick={false} empty={<EmptyState />}>
          <DataTable.Col source="created_at" label="resources.request-access.fields.created_at" render={(r: any) => format.dateTime(r.created_at)} />
          <DataTable.Col source="status" label="resources.request-access.fields.status" render={(r: any) => <StatusChip status={r.status} />} />
          <DataTable.Col
            source="carrier_name"
            label="resources.request-access.fields.carrier_name"
            render={(r: any) => lines(r.carrier_name, r.carrier_email, r.carrier_phone, r.carrier_website_url)}
          />
          <DataTable.Col
            label="resources.request-access.fields.place"
            disableSort
            render={(r: any) => lines(r.carrier_address, `${r.carrier_postal_code} ${r.carrier_city} (${r.carrier_province})`, r.carrier_country)}
          />
          <DataTable.Col
            label="resources.request-access.fields.contact"
            disableSort
            render={(r: any) => lines(`${r.user_first_name} ${r.user_last_name}`, r.user_email, r.user_phone, r.carrier_language)}
          />
          <DataTable.Col label="" disableSort render={() => <StatusActions />} />
        </StackedDataTable>
      </List>
    </Box>
  );
}
