import { useRef, useState, type ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, LinearProgress, Typography } from '@mui/material';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { SPREADSHEET_ACCEPT } from '../../../model/tariffs';

/** The server's refusal as lines: its message, then every field or cell message ("Riga 5, p300: …"). */
export function errorLines(error: any): { message: string; lines: string[] } {
  const body = error?.body ?? {};
  const message = String(body.message ?? error?.message ?? '');
  const lines: string[] = [];
  for (const [key, list] of Object.entries((body.errors ?? {}) as Record<string, string[]>)) {
    for (const m of Array.isArray(list) ? list : [list]) lines.push(/^(riga|row|ligne) /i.test(key) ? `${key}: ${m}` : m);
  }
  return { message, lines: lines.filter((l) => l !== message) };
}

export function ServerErrors({ error }: { error: any }) {
  if (!error) return null;
  const { message, lines } = errorLines(error);
  return (
    <Alert severity="error" data-testid="upload-errors" sx={{ mt: 2, maxHeight: 260, overflow: 'auto' }}>
      <Typography fontWeight={600}>{message}</Typography>
      {lines.length > 0 && (
        <Box component="ul" sx={{ m: 0, pl: 2.5, color: 'error.main' }}>
          {lines.map((l, i) => (
            <li key={i}>{l}</li>
          ))}
        </Box>
      )}
    </Alert>
  );
}

interface Props {
  open: boolean;
  title: string;
  help: string;
  /** The other fields of the form are complete (false: the submit waits). */
  ready?: boolean;
  /** Sends the file (and the caller's fields): the resource's create through the data provider, with the progress. */
  send: (file: File, onProgress: (percent: number) => void) => Promise<unknown>;
  children?: ReactNode;
  /** The submit button's text (default "Carica"). */
  submitLabel?: string;
  onClose: () => void;
}

/**
 * The upload modal: one .xlsx/.xls/.ods/.csv file (and any extra fields), sent with its progress shown; every
 * message the server answers (each bad cell with its row and column) is listed in red. The success
 * message is the data provider's toast.
 */
export function UploadDialog({ open, title, help, ready = true, send, children, submitLabel, onClose }: Props) {
  const translate = useTranslate();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<any>(null);
  const busy = progress !== null;

  const reset = () => {
    setFile(null);
    setProgress(null);
    setError(null);
    if (input.current) input.current.value = '';
  };
  const close = () => {
    if (busy) return;
    reset();
    onClose();
  };
  const submit = async () => {
    if (!file || !ready) return;
    setError(null);
    setProgress(0);
    try {
      await send(file, setProgress);
      reset();
    } catch (err) {
      setProgress(null);
      setError(err);
    }
  };
  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm" data-testid="upload-dialog">
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {help}
        </Typography>
        {children}
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mt: 1 }}>
          <Button variant="outlined" component="label" startIcon={<UploadFileIcon />} disabled={busy}>
            {translate('tariffs.choose_file')}
            <input
              ref={input}
              hidden
              type="file"
              accept={SPREADSHEET_ACCEPT}
              data-testid="upload-input"
              onChange={(e) => {
                setFile(e.target.files?.[0] ?? null);
                setError(null);
              }}
            />
          </Button>
          <Typography variant="body2" noWrap data-testid="upload-filename">
            {file?.name ?? translate('tariffs.no_file')}
          </Typography>
        </Box>
        {busy && (
          <Box sx={{ mt: 2 }} data-testid="upload-progress">
            <LinearProgress variant={progress! < 100 ? 'determinate' : 'indeterminate'} value={progress!} />
            <Typography variant="caption" color="text.secondary">
              {progress! < 100 ? translate('tariffs.sending', { percent: progress }) : translate('tariffs.importing')}
            </Typography>
          </Box>
        )}
        <ServerErrors error={error} />
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={busy}>
          {translate('tariffs.cancel')}
        </Button>
        <Button variant="contained" onClick={submit} disabled={!file || !ready || busy} data-testid="upload-submit">
          {submitLabel ?? translate('tariffs.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
