import { useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { Button, Menu, MenuItem } from '@mui/material';
import LabelIcon from '@mui/icons-material/LocalOffer';
import { saveBlob } from '../../components/download';
import { normalizeError } from '../../components/feedback/errors';
import type { Kind } from '../../../model/roles';
import { usePortalData, type TransportRequest } from './api';

/**
 * "Etichette" on a confirmed request with pallets (issue 36 item 3, docs/pallet-labels.md): a small menu
 * with the A6 PDF and the ZPL for a thermal printer. The first print numbers the pallets (the server's SSCCs);
 * a refusal (no GS1 prefix yet, not confirmed) comes back as a toast in the caller's language.
 */
export function LabelsButton({ kind, r }: { kind: Kind; r: TransportRequest }) {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = usePortalData();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  if (!r.shipment.some((s) => s.shipment_detail.some((d) => d.shipment_type_id === 1))) return null;
  const download = (format: 'pdf' | 'zpl') => {
    setAnchor(null);
    dataProvider
      .downloadLabels(kind, r.id, format)
      .then((blob) => saveBlob(blob, `${translate('pallet_labels.file', { id: r.id })}.${format}`))
      .catch((e) => notify(normalizeError(e).message, { type: 'error' }));
  };
  return (
    <>
      <Button
        startIcon={<LabelIcon />}
        variant="outlined"
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        aria-controls={anchor ? 'pallet-labels-menu' : undefined}
        onClick={(e) => setAnchor(e.currentTarget)}
        data-testid="detail-labels"
      >
        {translate('pallet_labels.button')}
      </Button>
      <Menu id="pallet-labels-menu" anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)} aria-label={translate('pallet_labels.menu')}>
        <MenuItem onClick={() => download('pdf')} data-testid="detail-labels-pdf">
          {translate('pallet_labels.pdf')}
        </MenuItem>
        <MenuItem onClick={() => download('zpl')} data-testid="detail-labels-zpl">
          {translate('pallet_labels.zpl')}
        </MenuItem>
      </Menu>
    </>
  );
}
