import type { ReactNode } from 'react';
import { ListPaginationContext, useTranslate } from 'react-admin';
import {
  Alert,
  AlertTitle,
  Box,
  Button,
  LinearProgress,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TableSortLabel,
} from '@mui/material';
import RefreshIcon from '@mui/icons-material/Refresh';
import { EmptyState } from '../../components/table/EmptyState';
import { Pager } from '../../components/table/Pager';
import { STICKY_RIGHT } from '../../components/table/stickyActions';
import { PHONE_ACTIONS, phoneLabel, stackedOnPhone } from '../../components/table/PhoneCards';

export interface TableColumn<R> {
  key: string;
  label: string;
  /** Shown on hover: the column's name in the file. */
  title?: string;
  align?: 'left' | 'right' | 'center';
  sortable?: boolean;
  render?: (row: R) => ReactNode;
}

// Headers may wrap ("Valido / dal") so that a table fits its box; the actions column stays in sight.
const stickyCell = (key: string, head: boolean) => (key === 'actions' ? { ...STICKY_RIGHT, ...(head ? {} : { bgcolor: 'background.paper' }) } : {});

export interface Sort {
  field: string;
  order: 'asc' | 'desc';
}

interface Props<R> {
  columns: TableColumn<R>[];
  rows: R[] | undefined;
  total: number;
  page: number;
  perPage: number;
  onPage: (page: number) => void;
  sort?: Sort;
  onSort?: (sort: Sort) => void;
  loading?: boolean;
  error?: Error;
  emptyText: string;
  onRetry?: () => void;
  testId?: string;
  rowKey?: (row: R) => string | number;
}

/**
 * A paged, read-only table over a call that is not a react-admin resource: sortable headers, the shared
 * pager (fed through react-admin's pagination context), the shared empty state, and the "error loading
 * data" block in place of the rows when the list fails to load.
 */
export function PagedTable<R extends Record<string, any>>(props: Props<R>) {
  const translate = useTranslate();
  const { columns, rows, total, page, perPage, onPage, sort, onSort, loading, error, emptyText, testId } = props;
  const pages = Math.max(1, Math.ceil(total / perPage));
  if (error) {
    return (
      <Alert
        severity="error"
        data-testid={testId ? `${testId}-error` : 'list-error'}
        action={
          props.onRetry ? (
            <Button color="inherit" size="small" startIcon={<RefreshIcon />} onClick={props.onRetry}>
              {translate('portal.retry')}
            </Button>
          ) : undefined
        }
      >
        <AlertTitle>{translate('portal.error_loading_data')}</AlertTitle>
        {error.message}
      </Alert>
    );
  }
  const pagination = {
    page: Math.min(page, pages),
    perPage,
    total,
    setPage: onPage,
    setPerPage: () => undefined,
    isPending: !!loading && rows === undefined,
    isLoading: !!loading && rows === undefined,
    hasPreviousPage: page > 1,
    hasNextPage: page < pages,
    resource: testId ?? 'tariffs',
  };
  return (
    <Paper variant="outlined" data-testid={testId}>
      {loading ? <LinearProgress /> : <Box sx={{ height: 4 }} />}
      {/* Cards on a phone (PhoneCards.tsx): the rate sheet's rows were wider than the screen. */}
      <TableContainer sx={stackedOnPhone}>
        <Table size="small">
          <TableHead>
            <TableRow>
              {columns.map((c) => (
                <TableCell key={c.key} align={c.align} title={c.title} sx={{ fontWeight: 600, ...stickyCell(c.key, true) }}>
                  {c.sortable && onSort ? (
                    <TableSortLabel
                      active={sort?.field === c.key}
                      direction={sort?.field === c.key ? sort.order : 'asc'}
                      onClick={() => onSort({ field: c.key, order: sort?.field === c.key && sort.order === 'asc' ? 'desc' : 'asc' })}
                    >
                      {c.label}
                    </TableSortLabel>
                  ) : (
                    c.label
                  )}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {(rows ?? []).map((row, i) => (
              <TableRow key={props.rowKey ? props.rowKey(row) : (row.id ?? i)} hover>
                {columns.map((c) => (
                  <TableCell key={c.key} align={c.align} sx={stickyCell(c.key, false)} {...(c.key === 'actions' ? PHONE_ACTIONS : phoneLabel(c.label))}>
                    {c.render ? c.render(row) : String(row[c.key] ?? '')}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {!loading && (rows ?? []).length === 0 && <EmptyState text={emptyText} />}
      {total > perPage && (
        <ListPaginationContext.Provider value={pagination}>
          <Pager />
        </ListPaginationContext.Provider>
      )}
    </Paper>
  );
}
