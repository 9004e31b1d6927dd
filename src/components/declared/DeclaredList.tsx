import { useRef, useState } from 'react';
import { ColumnsButton, DataTable, List, SearchInput, TopToolbar, usePermissions, useTranslate, type Identifier, type RaRecord } from 'react-admin';
import { Button } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import EditIcon from '@mui/icons-material/Edit';
import { defaultsOf, type FieldsDecl } from '../../../model/fields';
import { EmptyState } from '../table/EmptyState';
import { RowActions } from '../table/RowActions';
import { FormDialog } from '../forms/FormDialog';
import { DeclaredInputs } from './DeclaredInputs';
import { declaredColumns, hiddenColumnsOf } from './DeclaredColumns';
import { stickyActionsColumn } from '../../components/table/stickyActions';
import { canAccess } from '../../../model/permissions';
import type { Kind } from '../../../model/roles';
import { ListTitle } from '../table/ListTitle';
import { ExportMenu } from '../table/ExportMenu';

export interface DeclaredListProps {
  resource: string;
  fields: FieldsDecl;
  sort?: { field: string; order: 'ASC' | 'DESC' };
  /** A search box (the list route takes `q`). */
  searchable?: boolean;
}

/**
 * A declared resource's screen (accounts document §2, reference data and shared table): a paged,
 * sortable table with the declaration's columns (hidden ones revealed with the columns button), a row
 * action menu with edit, an add button; add and edit happen in modals.
 */
export function DeclaredList({ resource, fields, sort = { field: 'name', order: 'ASC' }, searchable = true }: DeclaredListProps) {
  const translate = useTranslate();
  // Adding and editing are offered to the kinds the permission table lets create and edit (model/permissions.ts).
  const { permissions: kind } = usePermissions<Kind>();
  const canCreate = canAccess(kind, resource, 'create');
  const canEdit = canAccess(kind, resource, 'edit');
  const [dialog, setDialog] = useState<{ mode: 'create' | 'edit'; id?: Identifier } | null>(null);
  const focusBack = useRef<HTMLElement | null>(null);
  const openCreate = (e: React.MouseEvent<HTMLElement>) => {
    focusBack.current = e.currentTarget;
    setDialog({ mode: 'create' });
  };
  const add = canCreate ? (
    <Button variant="contained" startIcon={<AddIcon />} onClick={openCreate} data-testid="add">
      {translate('ra.action.add')}
    </Button>
  ) : null;
  return (
    <>
      <ListTitle>{translate(`resources.${resource}.name`, { smart_count: 2 })}</ListTitle>
      <List
        resource={resource}
        filters={searchable ? [<SearchInput key="q" source="q" alwaysOn />] : undefined}
        sort={sort}
        perPage={15}
        actions={
          <TopToolbar>
            <ColumnsButton />
            <ExportMenu />
            {add}
          </TopToolbar>
        }
        empty={<EmptyState action={add} />}
      >
        <DataTable hiddenColumns={hiddenColumnsOf(fields)} bulkActionButtons={false} rowClick={false}>
          {declaredColumns(fields)}
          {canEdit ? (
            <DataTable.Col label={translate('portal.actions')} disableSort align="right" {...stickyActionsColumn()}>
              <RowActions<RaRecord>
                actions={[
                  {
                    label: 'ra.action.edit',
                    icon: <EditIcon fontSize="small" />,
                    testid: 'row-edit',
                    onClick: (record, opener) => {
                      focusBack.current = opener;
                      setDialog({ mode: 'edit', id: record.id });
                    },
                  },
                ]}
              />
            </DataTable.Col>
          ) : null}
        </DataTable>
      </List>
      <FormDialog
        resource={resource}
        mode={dialog?.mode ?? 'create'}
        id={dialog?.id}
        open={!!dialog}
        onClose={() => setDialog(null)}
        title={dialog?.mode === 'edit' ? `resources.${resource}.edit_title` : `resources.${resource}.create_title`}
        defaultValues={dialog?.mode === 'create' ? defaultsOf(fields) : undefined}
        returnFocusTo={focusBack.current}
      >
        <DeclaredInputs fields={fields} mode={dialog?.mode ?? 'create'} />
      </FormDialog>
    </>
  );
}
