import { useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import {
  Confirm,
  DataTable,
  List,
  SearchInput,
  SelectInput,
  TopToolbar,
  useGetIdentity,
  usePermissions,
  useTranslate,
  type Identifier,
  type RaRecord,
} from 'react-admin';
import { Button } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import EditIcon from '@mui/icons-material/Edit';
import DeleteIcon from '@mui/icons-material/Delete';
import VisibilityIcon from '@mui/icons-material/Visibility';
import ToggleOnIcon from '@mui/icons-material/ToggleOn';
import { CompanyEditDialog } from './CompanyEdit';
import { EmptyState } from '../../components/table/EmptyState';
import { StackedDataTable } from '../../components/table/PhoneCards';
import { RowActions } from '../../components/table/RowActions';
import { StatusChip } from './StatusChip';
import { useRowCommands } from './useRowCommands';
import { useDisplayNames } from './lookups';
import { stickyActionsColumn } from '../../components/table/stickyActions';
import { ListTitle } from '../../components/table/ListTitle';
import { ExportMenu } from '../../components/table/ExportMenu';

const T = 'resources.companies';

function AddButton() {
  const translate = useTranslate();
  return (
    <Button component={Link} to="/companies/new" variant="contained" startIcon={<AddIcon />} data-testid="add">
      {translate(`${T}.add`)}
    </Button>
  );
}

/**
 * /companies (accounts document §2): a paged list with the role, price category, carrier and language
 * names; row actions edit (modal), delete (confirmation), view, and activate/deactivate; an add button
 * to /companies/new. A carrier sees its own company and its end-user companies (the server decides).
 */
export function CompanyList() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const { permissions } = usePermissions();
  const { identity } = useGetIdentity();
  const [editing, setEditing] = useState<Identifier | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  const empty = <EmptyState text={`${T}.empty`} action={<AddButton />} />;
  const rows = useRowCommands('companies');
  const names = useDisplayNames();
  const filters = [
    <SearchInput key="search" source="search" alwaysOn />,
    ...(permissions === 'admin'
      ? [<SelectInput key="role" source="company_role_id" choices={[1, 2, 3, 4].map((id) => ({ id, name: translate(`${T}.roles.${id}`) }))} alwaysOn />]
      : []),
    <SelectInput
      key="status"
      source="status_id"
      choices={[
        { id: 1, name: `${T}.status.active` },
        { id: 0, name: `${T}.status.inactive` },
      ]}
      alwaysOn
    />,
  ];
  return (
    <>
      <ListTitle>{translate(`${T}.title`)}</ListTitle>
      <List
        resource="companies"
        title={translate(`${T}.title`)}
        sort={{ field: 'legal_name', order: 'ASC' }}
        perPage={15}
        filters={filters}
        actions={
          <TopToolbar>
            <ExportMenu />
            <AddButton />
          </TopToolbar>
        }
        empty={empty}
        sx={{ '& .RaList-main': { minWidth: 0 }, '& .RaList-content': { overflowX: 'auto' }, '& td': { whiteSpace: 'nowrap' } }}
      >
        <StackedDataTable bulkActionButtons={false} rowClick={false} empty={empty} data-testid="companies-table">
          <DataTable.Col source="legal_name" />
          <DataTable.Col source="role_name" render={(r: RaRecord) => translate(`${T}.roles.${r.company_role_id}`, { _: r.role_name })} />
          <DataTable.Col source="price_category_name" />
          <DataTable.Col source="carrier_name" />
          <DataTable.Col source="language_name" render={(r: RaRecord) => names.language(r.language_code, r.language_name)} />
          <DataTable.Col source="city" />
          <DataTable.Col source="status_id" render={(r: RaRecord) => <StatusChip value={r.status_id} base={T} />} />
          <DataTable.Col label={translate(`${T}.actions_column`)} disableSort align="right" {...stickyActionsColumn()}>
            <RowActions<RaRecord>
              actions={[
                {
                  label: `${T}.actions.edit`,
                  icon: <EditIcon fontSize="small" />,
                  testid: 'row-edit',
                  onClick: (r, o) => {
                    opener.current = o;
                    setEditing(r.id);
                  },
                },
                { label: `${T}.actions.view`, icon: <VisibilityIcon fontSize="small" />, testid: 'row-view', onClick: (r) => navigate(`/companies/${r.id}`) },
                // One's own company is neither deactivated nor deleted from here (the server refuses it too).
                {
                  label: `${T}.actions.deactivate`,
                  icon: <ToggleOnIcon fontSize="small" />,
                  testid: 'row-status',
                  onClick: (r) => rows.toggleStatus(r.id),
                  show: (r) => r.id !== identity?.company_id && Number(r.status_id) === 1,
                },
                {
                  label: `${T}.actions.activate`,
                  icon: <ToggleOnIcon fontSize="small" />,
                  testid: 'row-status',
                  onClick: (r) => rows.toggleStatus(r.id),
                  show: (r) => r.id !== identity?.company_id && Number(r.status_id) !== 1,
                },
                {
                  label: `${T}.actions.delete`,
                  icon: <DeleteIcon fontSize="small" />,
                  testid: 'row-delete',
                  onClick: (r) => rows.askDelete(r),
                  show: (r) => r.id !== identity?.company_id,
                },
              ]}
            />
          </DataTable.Col>
        </StackedDataTable>
      </List>
      <CompanyEditDialog id={editing} onClose={() => setEditing(null)} returnFocusTo={opener.current} />
      <Confirm
        isOpen={!!rows.toDelete}
        loading={rows.deleting}
        title={`${T}.delete_title`}
        content={`${T}.delete_text`}
        translateOptions={{ name: rows.toDelete?.legal_name ?? '' }}
        confirm={`${T}.actions.delete`}
        cancel={`${T}.actions.back`}
        confirmColor="warning"
        onConfirm={rows.confirmDelete}
        onClose={rows.cancelDelete}
      />
    </>
  );
}
