import { useRef, useState, type ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  Stack,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { SPREADSHEET_ACCEPT } from '../../../model/tariffs';
import { CheckErrors, type CheckError } from './CheckErrors';

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

/** What a check answers at least: the bad cells (none: the file may be published). */
type AnyCheck = { errors: readonly CheckError[] };

interface Props<C extends AnyCheck> {
  open: boolean;
  title: string;
  help: string;
  /** The dialog's width before a check: 'md' for a form with several selects in a row (a rate sheet's). */
  formWidth?: 'sm' | 'md';
  /** The other fields of the form are complete (false: the check waits). */
  ready?: boolean;
  /** The fields the check depends on: when they change, the file must be checked again before a publish. */
  checkKey?: string;
  /** Checks the file (dry_run=1 through the data provider), with the progress: stores nothing. */
  check: (file: File, onProgress: (percent: number) => void) => Promise<C>;
  /**
   * How a clean check reads: the tariff panels (summary, changed rows, effect on recent requests:
   * resources/tariffs/CheckPanels.tsx `tariffCheckView`), a declared resource's import summary and changes.
   */
  renderCheck: (check: C) => ReactNode;
  /** Publishes the same file (the resource's create through the data provider), with the progress. */
  send: (file: File, onProgress: (percent: number) => void) => Promise<unknown>;
  children?: ReactNode;
  onClose: () => void;
}

type Phase = 'idle' | 'checking' | 'publishing';

/**
 * The upload modal (issue 20): choosing a .xlsx/.xls/.ods/.csv file sends it for a check with its
 * progress; the answer shows the bad cells as a table (nothing saved, choose another file), or what a
 * publish would change (summary, changed rows, effect on recent requests) with Pubblica and Annulla.
 * Pubblica sends the same file without dry_run; Annulla stores nothing. The success message is the data
 * provider's toast; a refusal of the file as a whole (not a spreadsheet, no header…) is listed in red.
 */
export function UploadDialog<C extends AnyCheck>({
  open,
  title,
  help,
  formWidth = 'sm',
  ready = true,
  checkKey = '',
  check,
  renderCheck,
  send,
  children,
  onClose,
}: Props<C>) {
  const translate = useTranslate();
  const phone = useMediaQuery((t: Theme) => t.breakpoints.down('sm'));
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [phase, setPhase] = useState<Phase>('idle');
  const [progress, setProgress] = useState(0);
  const [result, setResult] = useState<{ check: C; key: string } | null>(null);
  const [error, setError] = useState<any>(null);
  const busy = phase !== 'idle';
  const current = result && result.key === checkKey ? result.check : null;
  const stale = !!result && !current;
  const canPublish = !!current && current.errors.length === 0 && ready;

  const reset = () => {
    setFile(null);
    setPhase('idle');
    setResult(null);
    setError(null);
    if (input.current) input.current.value = '';
  };
  const close = () => {
    if (busy) return;
    reset();
    onClose();
  };
  const runCheck = async (chosen: File | null = file) => {
    if (!chosen || !ready) return;
    setError(null);
    setResult(null);
    setProgress(0);
    setPhase('checking');
    try {
      const answer = await check(chosen, setProgress);
      setResult({ check: answer, key: checkKey });
    } catch (err) {
      setError(err);
    } finally {
      setPhase('idle');
    }
  };
  const publish = async () => {
    if (!file || !canPublish) return;
    setError(null);
    setProgress(0);
    setPhase('publishing');
    try {
      await send(file, setProgress);
      reset();
    } catch (err) {
      setPhase('idle');
      setResult(null);
      setError(err);
    }
  };
  const chooseAgain = () => {
    if (input.current) {
      input.current.value = '';
      input.current.click();
    }
  };
  const wide = !!current;
  return (
    // A rate sheet's form (three selects in a row: "Pallet Express (EXP)") needs more than 'sm' not to cut its values.
    <Dialog open={open} onClose={close} fullWidth maxWidth={wide ? 'lg' : formWidth} fullScreen={phone && wide} data-testid="upload-dialog">
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {help}
        </Typography>
        {children}
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mt: 1, flexWrap: 'wrap' }}>
          <Button variant="outlined" component="label" startIcon={<UploadFileIcon />} disabled={busy}>
            {translate('tariffs.choose_file')}
            <input
              ref={input}
              hidden
              type="file"
              accept={SPREADSHEET_ACCEPT}
              data-testid="upload-input"
              onChange={(e) => {
                const chosen = e.target.files?.[0] ?? null;
                setFile(chosen);
                setResult(null);
                setError(null);
                if (chosen) void runCheck(chosen);
              }}
            />
          </Button>
          <Typography variant="body2" noWrap data-testid="upload-filename" sx={{ minWidth: 0 }}>
            {file?.name ?? translate('tariffs.no_file')}
          </Typography>
        </Box>
        {busy && (
          <Box sx={{ mt: 2 }} data-testid="upload-progress">
            <LinearProgress
              variant={progress < 100 ? 'determinate' : 'indeterminate'}
              value={progress}
              aria-label={translate('tariff_check.progress_label')}
              aria-valuetext={`${progress}%`}
            />
            <Typography variant="caption" color="text.secondary" aria-live="polite">
              {phase === 'checking'
                ? translate(progress < 100 ? 'tariff_check.sending_check' : 'tariff_check.checking', { percent: progress })
                : translate(progress < 100 ? 'tariff_check.sending_publish' : 'tariff_check.publishing', { percent: progress })}
            </Typography>
          </Box>
        )}
        <ServerErrors error={error} />
        {stale && !busy && (
          <Alert severity="warning" sx={{ mt: 2 }} data-testid="check-stale">
            {translate('tariff_check.stale')}
          </Alert>
        )}
        {current && (
          <Stack spacing={2} sx={{ mt: 2 }} data-testid="upload-check">
            {current.errors.length > 0 ? <CheckErrors errors={current.errors} /> : renderCheck(current)}
          </Stack>
        )}
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={close} disabled={busy} data-testid="upload-cancel">
          {translate('tariff_check.cancel')}
        </Button>
        {(current && current.errors.length > 0) || (error && !busy) ? (
          <Button variant="contained" onClick={chooseAgain} disabled={busy} data-testid="upload-choose-again">
            {translate('tariff_check.choose_other')}
          </Button>
        ) : canPublish ? (
          <Button variant="contained" onClick={publish} disabled={busy} data-testid="upload-publish">
            {translate('tariff_check.publish')}
          </Button>
        ) : (
          <Button variant="contained" onClick={() => runCheck()} disabled={!file || !ready || busy} data-testid="upload-submit">
            {translate('tariff_check.check')}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
