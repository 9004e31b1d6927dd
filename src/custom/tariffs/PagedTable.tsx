import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import {
  Alert, Box, LinearProgress, Pagination, Paper, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, TableSortLabel, Typography,
} from '@mui/material';

export interface TableColumn<R> {
  key: string;
  label: string;
  /** Shown on hover: the column's name in the file. */
  title?: string;
  align?: 'left' | 'right' | 'center';
  sortable?: boolean;
  render?: (row: R) => ReactNode;
}

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
  testId?: string;
  rowKey?: (row: R) => string | number;
}

/**
 * A paged, read-only table: sortable headers, the pager of the documents (first, previous, current
 * page with up to two neighbours each side, next, last), the empty text, and an error block in place of
 * the rows when the list fails to load.
 */
export function PagedTable<R extends Record<string, any>>(props: Props<R>) {
  const translate = useTranslate();
  const { columns, rows, total, page, perPage, onPage, sort, onSort, loading, error, emptyText, testId } = props;
  const pages = Math.max(1, Math.ceil(total / perPage));
  if (error) {
    return <Alert severity="error" data-testid={testId ? `${testId}-error` : undefined}>{translate('tariffs.error_loading', { message: error.message })}</Alert>;
  }
  return (
    <Paper variant="outlined" data-testid={testId}>
      {loading ? <LinearProgress /> : <Box sx={{ height: 4 }} />}
      <TableContainer>
        <Table size="small">
          <TableHead>
            <TableRow>
              {columns.map((c) => (
                <TableCell key={c.key} align={c.align} title={c.title} sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
                  {c.sortable && onSort ? (
                    <TableSortLabel
                      active={sort?.field === c.key}
                      direction={sort?.field === c.key ? sort.order : 'asc'}
                      onClick={() => onSort({ field: c.key, order: sort?.field === c.key && sort.order === 'asc' ? 'desc' : 'asc' })}
                    >
                      {c.label}
                    </TableSortLabel>
                  ) : c.label}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {(rows ?? []).map((row, i) => (
              <TableRow key={props.rowKey ? props.rowKey(row) : (row.id ?? i)} hover>
                {columns.map((c) => (
                  <TableCell key={c.key} align={c.align}>{c.render ? c.render(row) : String(row[c.key] ?? '')}</TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {!loading && (rows ?? []).length === 0 && (
        <Typography sx={{ p: 3, textAlign: 'center' }} color="text.secondary" data-testid="empty-text">{emptyText}</Typography>
      )}
      {pages > 1 && (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 1.5 }}>
          <Pagination count={pages} page={Math.min(page, pages)} onChange={(_e, p) => onPage(p)} siblingCount={2} showFirstButton showLastButton color="primary" />
        </Box>
      )}
    </Paper>
  );
}
