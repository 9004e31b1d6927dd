import { useTranslate } from 'react-admin';
import { Alert, Box, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { visuallyHidden } from '@mui/utils';

/** One bad cell of an uploaded file, as every check answers it (tariffs, declared imports). */
export interface CheckError {
  row: number;
  column: string;
  message: string;
}

/** The cell's message without the "riga 3, colonna silver:" the server puts in front (the table has those columns). */
export function bareMessage(e: CheckError): string {
  const at = e.message.indexOf(`${e.column}`);
  if (at < 0 || at > 40 || !e.message.slice(0, at).includes(String(e.row))) return e.message;
  return e.message.slice(at + e.column.length).replace(/^\s*:\s*/, '');
}

const headCell = { fontWeight: 600, whiteSpace: 'nowrap' } as const;

export function CheckErrors({ errors }: { errors: readonly CheckError[] }) {
  const translate = useTranslate();
  return (
    <Box data-testid="check-errors">
      <Alert severity="error" sx={{ mb: 1 }}>
        <Typography fontWeight={600}>{translate('tariff_check.errors_title', { count: errors.length, smart_count: errors.length })}</Typography>
        <Typography variant="body2">{translate('tariff_check.errors_help')}</Typography>
      </Alert>
      <TableContainer sx={{ maxHeight: 320 }} tabIndex={0} aria-label={translate('tariff_check.errors_caption')}>
        <Table size="small" stickyHeader data-testid="check-errors-table">
          <caption style={visuallyHidden as React.CSSProperties}>{translate('tariff_check.errors_caption')}</caption>
          <TableHead>
            <TableRow>
              <TableCell sx={headCell} align="right">
                {translate('tariff_check.row')}
              </TableCell>
              <TableCell sx={headCell}>{translate('tariff_check.column')}</TableCell>
              <TableCell sx={headCell}>{translate('tariff_check.message')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {errors.map((e, i) => (
              <TableRow key={i}>
                <TableCell align="right">{e.row}</TableCell>
                <TableCell>{e.column}</TableCell>
                <TableCell>{bareMessage(e)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </Box>
  );
}

/** The four counts as a pricing manager reads them ("2 righe modificate"), and what publishing would do. */
