import { useState } from 'react';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import { Button, Tooltip } from '@mui/material';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import type { PortalDataProvider } from '../../dataProvider';

/**
 * "Esporta": saves what is stored (a tariff table of a carrier, or one rate sheet) as an .xlsx in the
 * template's columns, through the data provider's export methods. Busy while the file comes.
 */
export function ExportButton(props: {
  target: { table: string } | { sheetId: number | string };
  companyId?: number | string | null;
  fileName: string;
  disabled?: boolean;
}) {
  const dataProvider = useDataProvider<PortalDataProvider>();
  const translate = useTranslate();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const { target, companyId, fileName } = props;
  const run = () => {
    setBusy(true);
    const done =
      'table' in target
        ? dataProvider.exportTariffTable(target.table, { companyId, fileName })
        : dataProvider.exportRateSheet({ id: target.sheetId, companyId, fileName });
    done.catch((e) => notify(e?.message ?? 'ra.notification.http_error', { type: 'error' })).finally(() => setBusy(false));
  };
  return (
    <Tooltip title={translate('tariffs.export_help')}>
      <span>
        <Button
          variant="outlined"
          startIcon={<FileDownloadIcon />}
          data-testid="export"
          disabled={props.disabled || busy}
          onClick={run}
          sx={{ whiteSpace: 'nowrap' }}
        >
          {translate('tariffs.export')}
        </Button>
      </span>
    </Tooltip>
  );
}
