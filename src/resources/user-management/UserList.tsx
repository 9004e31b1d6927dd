import { useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import {
  ColumnsButton,
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
import { rolesACarrierAssigns } from '../../../model/users';
import { EmptyState } from '../../components/table/EmptyState';
import { StackedDataTable } from '../../components/table/PhoneCards';
import { RowActions, type RowAction } from '../../components/table/RowActions';
import { StatusChip } from '../companies/StatusChip';
import { useRowCommands } from '../companies/useRowCommands';
import { UserEditDialog } from './UserEdit';
import { stickyActionsColumn } from '../../components/table/stickyActions';
import { ListTitle } from '../../components/table/ListTitle';
import { ExportMenu } from '../../components/table/ExportMenu';

const T = 'resources.user-management';

function AddButton() {
  const translate = useTranslate();
  return (
    <Button component={Link} to="/user-management/create" variant="contained" startIcon={<AddIcon />} data-testid="add">
      {translate(`${T}.add`)}
    </Button>
  );
}

/**
 * /user-management (accounts document §2): the users table (company, title, names, address, city,
 * postal code, phone, email, support email and Skype; the ids of company, status, country and language
 * hidden), an 'add new user' button to the create screen, and row actions edit (modal), delete (confirmation),
 * view, activate/deactivate. A carrier changes only the users it could create, and its own account.
 */
export function UserList() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const { permissions } = usePermissions();
  const { identity } = useGetIdentity();
  const [editing, setEditing] = useState<Identifier | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  const empty = <EmptyState text={`${T}.empty`} action={<AddButton />} />;
  const rows = useRowCommands('user-management');
  const mayChange = (r: RaRecord) =>
    permissions === 'admin' || r.id === identity?.id || rolesACarrierAssigns(Number(r.company_id) === Number(identity?.company_id)).includes(Number(r.role_id));
  const self = (r: RaRecord) => r.id === identity?.id;
  const actions: Array<RowAction<RaRecord>> = [
    {
      label: `${T}.actions.edit`,
      icon: <EditIcon fontSize="small" />,
      testid: 'row-edit',
      onClick: (r, o) => {
        opener.current = o;
        setEditing(r.id);
      },
      show: mayChange,
    },
    { label: `${T}.actions.view`, icon: <VisibilityIcon fontSize="small" />, testid: 'row-view', onClick: (r) => navigate(`/user-management/${r.id}`) },
    {
      label: `${T}.actions.deactivate`,
      icon: <ToggleOnIcon fontSize="small" />,
      testid: 'row-status',
      onClick: (r) => rows.toggleStatus(r.id),
      show: (r) => mayChange(r) && !self(r) && Number(r.status_id) === 1,
    },
    {
      label: `${T}.actions.activate`,
      icon: <ToggleOnIcon fontSize="small" />,
      testid: 'row-status',
      onClick: (r) => rows.toggleStatus(r.id),
      show: (r) => mayChange(r) && !self(r) && Number(r.status_id) !== 1,
    },
    {
      label: `${T}.actions.delete`,
      icon: <DeleteIcon fontSize="small" />,
      testid: 'row-delete',
      onClick: (r) => rows.askDelete(r),
      show: (r) => mayChange(r) && !self(r),
    },
  ];
  const filters = [
    <SearchInput key="search" source="search" alwaysOn />,
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
        resource="user-management"
        title={translate(`${T}.title`)}
        sort={{ field: 'last_name', order: 'ASC' }}
        perPage={15}
        filters={filters}
        actions={
          <TopToolbar>
            <ColumnsButton />
            <ExportMenu />
            <AddButton />
          </TopToolbar>
        }
        empty={empty}
        sx={{ '& .RaList-main': { minWidth: 0 }, '& .RaList-content': { overflowX: 'auto' }, '& td': { whiteSpace: 'nowrap' } }}
      >
        <StackedDataTable
          bulkActionButtons={false}
          rowClick={false}
          hiddenColumns={['company_id', 'status_id', 'country_id', 'language_id']}
          empty={empty}
          data-testid="users-table"
        >
          <DataTable.Col source="company_legal_name" />
          <DataTable.Col source="title" />
          <DataTable.Col source="first_name" />
          <DataTable.Col source="last_name" />
          <DataTable.Col source="address" />
          <DataTable.Col source="city" />
          <DataTable.Col source="postal_code" />
          <DataTable.Col source="phone" />
          <DataTable.Col source="email" />
          <DataTable.Col source="support_email" />
          <DataTable.Col source="support_skype" />
          <DataTable.Col source="company_id" />
          <DataTable.Col source="status_id" render={(r: RaRecord) => <StatusChip value={r.status_id} base={T} />} />
          <DataTable.Col source="country_id" />
          <DataTable.Col source="language_id" />
          <DataTable.Col label={translate(`${T}.actions_column`)} disableSort align="right" {...stickyActionsColumn()}>
            <RowActions<RaRecord> actions={actions} />
          </DataTable.Col>
        </StackedDataTable>
      </List>
      <UserEditDialog id={editing} onClose={() => setEditing(null)} returnFocusTo={opener.current} />
      <Confirm
        isOpen={!!rows.toDelete}
        loading={rows.deleting}
        title={`${T}.delete_title`}
        content={`${T}.delete_text`}
        translateOptions={{ name: rows.toDelete ? `${rows.toDelete.first_name} ${rows.toDelete.last_name}` : '' }}
        confirm={`${T}.actions.delete`}
        cancel={`${T}.actions.back`}
        confirmColor="warning"
        onConfirm={rows.confirmDelete}
        onClose={rows.cancelDelete}
      />
    </>
  );
}
