import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import {
  ColumnsButton, Confirm, DataTable, List, SearchInput, SelectInput, TopToolbar, useGetIdentity, usePermissions, useTranslate,
  type Identifier, type RaRecord,
} from 'react-admin';
import { Box, Button, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import EditIcon from '@mui/icons-material/Edit';
import DeleteIcon from '@mui/icons-material/Delete';
import VisibilityIcon from '@mui/icons-material/Visibility';
import ToggleOnIcon from '@mui/icons-material/ToggleOn';
import PeopleIcon from '@mui/icons-material/People';
import { rolesACarrierAssigns } from '../../schema/users';
import { RowMenu, type RowMenuAction } from '../companies/RowMenu';
import { StatusChip } from '../companies/StatusChip';
import { useRowCommands } from '../companies/useRowCommands';
import { UserEditDialog } from './UserEdit';

const T = 'resources.user-management';

function AddButton() {
  const translate = useTranslate();
  return <Button component={Link} to="/create-user" variant="contained" startIcon={<AddIcon />} data-testid="add">{translate(`${T}.add`)}</Button>;
}

function Empty() {
  const translate = useTranslate();
  return (
    <Box data-testid="empty" sx={{ textAlign: 'center', py: 6, color: 'text.secondary', width: '100%' }}>
      <PeopleIcon sx={{ fontSize: 48, opacity: 0.5 }} />
      <Typography sx={{ my: 1 }}>{translate(`${T}.empty`)}</Typography>
      <AddButton />
    </Box>
  );
}

/**
 * /user-management (accounts document §2): the users table (company, title, names, address, city,
 * postal code, phone, email, support email and Skype; the ids of company, status, country and language
 * hidden), an 'add new user' button to /create-user, and row actions edit (modal), delete (confirmation),
 * view, activate/deactivate. A carrier changes only the users it could create, and its own account.
 */
export function UserList() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const { permissions } = usePermissions();
  const { identity } = useGetIdentity();
  const [editing, setEditing] = useState<Identifier | null>(null);
  const rows = useRowCommands('user-management');
  const mayChange = (r: RaRecord) => permissions === 'admin' || r.id === identity?.id
    || rolesACarrierAssigns(Number(r.company_id) === Number(identity?.company_id)).includes(Number(r.role_id));
  const actionsOf = (r: RaRecord): RowMenuAction[] => {
    const self = r.id === identity?.id;
    const view = { label: `${T}.actions.view`, icon: <VisibilityIcon fontSize="small" />, testid: 'row-view', onClick: () => navigate(`/user-management/${r.id}`) };
    if (!mayChange(r)) return [view];
    return [
      { label: `${T}.actions.edit`, icon: <EditIcon fontSize="small" />, testid: 'row-edit', onClick: () => setEditing(r.id) },
      view,
      ...(self ? [] : [
        { label: `${T}.actions.${Number(r.status_id) === 1 ? 'deactivate' : 'activate'}`, icon: <ToggleOnIcon fontSize="small" />, testid: 'row-status', onClick: () => rows.toggleStatus(r.id) },
        { label: `${T}.actions.delete`, icon: <DeleteIcon fontSize="small" />, testid: 'row-delete', onClick: () => rows.askDelete(r) },
      ]),
    ];
  };
  const filters = [
    <SearchInput key="search" source="search" alwaysOn />,
    <SelectInput key="status" source="status_id" choices={[{ id: 1, name: `${T}.status.active` }, { id: 0, name: `${T}.status.inactive` }]} alwaysOn />,
  ];
  return (
    <>
      <List
        resource="user-management"
        title={translate(`${T}.title`)}
        sort={{ field: 'last_name', order: 'ASC' }}
        perPage={15}
        filters={filters}
        actions={<TopToolbar><ColumnsButton /><AddButton /></TopToolbar>}
        empty={<Empty />}
        sx={{ '& .RaList-main': { minWidth: 0 }, '& .RaList-content': { overflowX: 'auto' }, '& td': { whiteSpace: 'nowrap' } }}
      >
        <DataTable bulkActionButtons={false} rowClick={false} hiddenColumns={['company_id', 'status_id', 'country_id', 'language_id']} empty={<Empty />} data-testid="users-table">
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
          <DataTable.Col label={translate(`${T}.actions_column`)} disableSort align="right" render={(r: RaRecord) => <RowMenu actions={actionsOf(r)} />} />
        </DataTable>
      </List>
      <UserEditDialog id={editing} onClose={() => setEditing(null)} />
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
