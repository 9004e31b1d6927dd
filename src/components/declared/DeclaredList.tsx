import { useRef, useState } from 'react';
import { ColumnsButton, DataTable, FilterButton, List, TopToolbar, usePermissions, useTranslate, type Identifier, type RaRecord } from 'react-admin';
import { Button } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import EditIcon from '@mui/icons-material/Edit';
import VisibilityIcon from '@mui/icons-material/Visibility';
import { useNavigate } from 'react-router-dom';
import { defaultsOf } from '../../../model/fields';
import type { ResourceDecl } from '../../../model/resource';
import { EmptyState } from '../table/EmptyState';
import { RowActions, type RowAction } from '../table/RowActions';
import { FormDialog } from '../forms/FormDialog';
import { DeclaredInputs } from './DeclaredInputs';
import { declaredColumns, hiddenColumnsOf } from './DeclaredColumns';
import { useDeclaredFilters } from './DeclaredFilters';
import { DeclaredBulkActions } from './DeclaredBulkActions';
import { DeclaredImport } from './DeclaredImport';
import { stickyActionsColumn } from '../../components/table/stickyActions';
import { canAccess } from '../../../model/permissions';
import type { Kind } from '../../../model/roles';
import { ListTitle } from '../table/ListTitle';
import { ExportMenu } from '../table/ExportMenu';
import { StackedDataTable } from '../table/PhoneCards';

export interface DeclaredListProps {
  decl: ResourceDecl;
}

/**
 * A declared resource's screen (accounts document §2, reference data and shared table; issue 34): a
 * paged, sortable table with the declaration's columns (references by name; hidden ones revealed with the
 * columns button), the search and the declared filters, a row action menu with edit, an add button (add
 * and edit happen in modals), a row click opening the show page; with `delete` permission the rows are
 * selectable for "Elimina" and "Esporta selezionati"; with `import: true` and create permission "Importa".
 * An admin on a company-tenancy resource reads every company's rows: a company column and filter, and the
 * company named on add and import.
 */
export function DeclaredList({ decl }: DeclaredListProps) {
  const translate = useTranslate();
  const navigate = useNavigate();
  const resource = decl.name;
  const fields = decl.fields;
  const sort = { field: decl.list?.sort ?? 'name', order: decl.list?.order ?? 'ASC' };
  // Adding, editing and deleting are offered to the kinds the permission table lets (model/permissions.ts).
  const { permissions: kind } = usePermissions<Kind>();
  const canCreate = canAccess(kind, resource, 'create');
  const canEdit = canAccess(kind, resource, 'edit');
  const canDelete = canAccess(kind, resource, 'delete');
  const canShow = canAccess(kind, resource, 'show');
  const company = decl.tenancy === 'company' && kind === 'admin';
  const filters = useDeclaredFilters(resource, fields, { search: !!decl.list?.search?.length, company });
  const hasMoreFilters = (filters?.length ?? 0) > (decl.list?.search?.length ? 1 : 0);
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
  const importing = decl.import && canCreate ? <DeclaredImport resource={resource} fields={fields} company={company} /> : null;
  // The row menu is there for who may edit (a reader opens the show page by clicking the row, and finds
  // no empty menu); it also names "Mostra" for a keyboard user, as the row click has no key of its own.
  const rowActions: Array<RowAction<RaRecord>> = [
    ...(canShow && canEdit
      ? [
          {
            label: 'ra.action.show',
            icon: <VisibilityIcon fontSize="small" />,
            testid: 'row-show',
            onClick: (record: RaRecord) => navigate(`/${resource}/${record.id}/show`),
          },
        ]
      : []),
    ...(canEdit
      ? [
          {
            label: 'ra.action.edit',
            icon: <EditIcon fontSize="small" />,
            testid: 'row-edit',
            onClick: (record: RaRecord, opener: HTMLElement | null) => {
              focusBack.current = opener;
              setDialog({ mode: 'edit', id: record.id });
            },
          },
        ]
      : []),
  ];
  return (
    <>
      <ListTitle>{translate(`resources.${resource}.name`, { smart_count: 2 })}</ListTitle>
      <List
        resource={resource}
        filters={filters}
        // A table wider than the screen scrolls inside its own box (the row actions stay at its right edge), not
        // the page: on a 390 px phone and beside the sidebar of a 1280 px laptop the address book's eleven
        // columns otherwise pushed the page, and the toolbar's buttons, off the screen. The box is the table's
        // wrapper, not the list's card: react-admin lifts the bulk actions' bar above the card's top edge, and a
        // scrolling card cut it off.
        sx={{ '& .RaList-main': { minWidth: 0 }, '& .RaDataTable-tableWrapper': { overflowX: 'auto' } }}
        sort={sort}
        perPage={15}
        actions={
          // Wraps below md (a phone, a tablet): the buttons go to a second line rather than past the screen's
          // edge. Wider, one line: the toolbar shares its row with the filters and wrapping split even two buttons.
          <TopToolbar sx={{ flexWrap: { xs: 'wrap', md: 'nowrap' }, rowGap: 1 }}>
            {hasMoreFilters ? <FilterButton /> : null}
            <ColumnsButton />
            <ExportMenu />
            {importing}
            {add}
          </TopToolbar>
        }
        empty={
          <EmptyState
            action={
              importing || add ? (
                <>
                  {importing}
                  {add}
                </>
              ) : null
            }
          />
        }
      >
        {/* Cards on a phone (PhoneCards.tsx), the table on wider screens. */}
        <StackedDataTable
          hiddenColumns={hiddenColumnsOf(fields)}
          bulkActionButtons={canDelete ? <DeclaredBulkActions canDelete={canDelete} /> : false}
          // A row opens its show page (`#/<name>/<id>/show`): every field in words and its Attività.
          rowClick={canShow ? 'show' : false}
        >
          {declaredColumns(fields, { company })}
          {canEdit ? (
            <DataTable.Col label={translate('portal.actions')} disableSort align="right" {...stickyActionsColumn()}>
              <RowActions<RaRecord> actions={rowActions} />
            </DataTable.Col>
          ) : null}
        </StackedDataTable>
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
        <DeclaredInputs fields={fields} mode={dialog?.mode ?? 'create'} company={company} />
      </FormDialog>
    </>
  );
}
