import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useNotify, useTranslate } from 'react-admin';
import { Box, Button, Typography } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import { sizeText } from '../../../model/fileParts';
import { saveBlob } from '../../components/download';
import { normalizeError } from '../../components/feedback/errors';
import { useFormat } from '../../components/format';
import { usePortalData, type PodAnswer } from './api';
import { Field, Section } from './parts';

/** The extension of a POD's download, from its type. */
const extensionOf = (type: string) => (type === 'application/pdf' ? 'pdf' : type === 'image/jpeg' ? 'jpg' : type === 'image/webp' ? 'webp' : 'png');

/** An object URL for a Blob, revoked when the Blob changes or the card goes. */
function useObjectUrl(blob: Blob | undefined) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) return setUrl(null);
    const u = URL.createObjectURL(blob);
    setUrl(u);
    return () => URL.revokeObjectURL(u);
  }, [blob]);
  return url;
}

/**
 * The proof of delivery on the request (issue 36 item 3), for the carrier, the admin and the end user (the
 * server answers `pod` to whoever may read the request): who received it, when, the reservations, and the
 * signature or the signed document. The file is read through the data provider with the user's bearer
 * (`download(pod.file_path)`), never as a bare address: the route needs the header, and an address in an
 * `<img src>` would carry no token. An image shows in the card; a PDF opens in a new tab (a blob: URL) or downloads.
 */
export function PodCard({ requestId, pod }: { requestId: number; pod: PodAnswer }) {
  const translate = useTranslate();
  const notify = useNotify();
  const { dateTime } = useFormat();
  const dataProvider = usePortalData();
  const isImage = pod.content_type.startsWith('image/');
  const file = useQuery({
    queryKey: ['transport_request', 'pod', pod.file_path, pod.created_at],
    queryFn: () => dataProvider.download(pod.file_path),
    staleTime: Infinity,
  });
  const url = useObjectUrl(file.data);
  const fileName = `${translate('pod.file_name', { id: requestId })}.${extensionOf(pod.content_type)}`;
  return (
    <Section title={translate('pod.card_title')} testId="pod-card">
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, mb: 2 }}>
        <Field label={translate('pod.received_by')} testId="pod-received-by">
          {pod.name}
        </Field>
        <Field label={translate('pod.delivered_at')} testId="pod-delivered-at">
          {dateTime(pod.delivered_at)}
        </Field>
        <Box sx={{ gridColumn: '1 / -1' }}>
          <Field label={translate('pod.reservations')} testId="pod-notes">
            <Box component="span" sx={{ whiteSpace: 'pre-wrap' }}>
              {pod.notes || translate('pod.no_reservations')}
            </Box>
          </Field>
        </Box>
      </Box>
      <Typography variant="caption" color="text.secondary" component="div" sx={{ mb: 0.5 }}>
        {pod.kind === 'signature' ? translate('pod.signature') : translate('pod.document')}
      </Typography>
      {file.isPending ? (
        <Typography color="text.secondary">{translate('pod.loading')}</Typography>
      ) : file.error ? (
        <Typography color="error" data-testid="pod-load-failed">
          {translate('pod.load_failed', { reason: normalizeError(file.error).message })}
        </Typography>
      ) : isImage && url ? (
        <Box
          component="img"
          src={url}
          alt={translate(pod.kind === 'signature' ? 'pod.signature_alt' : 'pod.document_alt', { name: pod.name })}
          data-testid="pod-image"
          sx={{
            display: 'block',
            maxWidth: '100%',
            maxHeight: pod.kind === 'signature' ? 160 : 480,
            bgcolor: '#fff',
            border: 1,
            borderColor: 'divider',
            borderRadius: 1,
          }}
        />
      ) : null}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 1, alignItems: 'center' }}>
        {!isImage && url && (
          <Button size="small" startIcon={<OpenInNewIcon />} href={url} target="_blank" rel="noopener" data-testid="pod-open">
            {translate('pod.open_document')}
          </Button>
        )}
        {file.data && (
          <Button
            size="small"
            startIcon={<DownloadIcon />}
            data-testid="pod-download"
            onClick={() => {
              try {
                saveBlob(file.data, fileName);
              } catch (e) {
                notify(normalizeError(e).message, { type: 'error' });
              }
            }}
          >
            {translate('pod.download_document')}
          </Button>
        )}
        <Typography variant="caption" color="text.secondary">
          {/* at least 1 kB, as the documents' list counts (a tiny scan would read "0 kB") */}
          {sizeText(Math.max(pod.bytes, 1024))}
          {pod.width && pod.height ? ` · ${pod.width} × ${pod.height} px` : ''}
        </Typography>
      </Box>
    </Section>
  );
}
