import { useRef, useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  FormControlLabel,
  Radio,
  RadioGroup,
  TextField,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import PhotoCameraIcon from '@mui/icons-material/PhotoCamera';
import { POD_FIELDS, POD_FILE_MAX, POD_FILE_TYPES, POD_NAME_MAX, POD_NOTES_MAX } from '../../../model/proofOfDelivery';
import { sizeText } from '../../../model/fileParts';
import { normalizeError } from '../../components/feedback/errors';
import { useInvalidateRequests, usePortalData, type TransportRequest } from './api';
import { SignaturePad, type SignaturePadHandle } from './SignaturePad';

type How = 'signature' | 'file';
type Errors = Partial<Record<'name' | 'signature' | 'file' | 'notes', string>>;

/** The server's field errors (`{errors: {pod_name: [...]}}`) on the dialog's fields; null when the answer has none of them. */
function fieldErrors(e: unknown): Errors | null {
  const errors = (e as { body?: { errors?: Record<string, string[]> } })?.body?.errors;
  if (!errors) return null;
  const out: Errors = {};
  if (errors[POD_FIELDS.name]?.[0]) out.name = errors[POD_FIELDS.name][0];
  if (errors[POD_FIELDS.signature]?.[0]) out.signature = errors[POD_FIELDS.signature][0];
  if (errors[POD_FIELDS.file]?.[0]) out.file = errors[POD_FIELDS.file][0];
  if (errors[POD_FIELDS.notes]?.[0]) out.notes = errors[POD_FIELDS.notes][0];
  return Object.keys(out).length ? out : null;
}

/**
 * The proof of delivery (issue 36 item 2), full-screen on a phone (the theme's dialogs): the receiver's name
 * (required), then EITHER the signature drawn on the screen OR a photo/PDF of the signed document, and the
 * notes of reservations. The checks mirror the server's (model/proofOfDelivery.ts): a name, one of the two, a
 * file of an accepted type within 5 MB (said before sending, with the file's size), so a phone on a slow
 * network does not upload 8 MB to hear "too large". The server's field errors land on the same fields.
 * A choice between the two (radio) rather than both on screen: on a 390 px phone the canvas and the file
 * picker together push the button below the fold, and the server refuses both at once anyway.
 */
export function PodDialog({ r, open, onClose, onDone }: { r: TransportRequest; open: boolean; onClose: () => void; onDone: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = usePortalData();
  const invalidate = useInvalidateRequests();
  const phone = useMediaQuery<Theme>((t) => t.breakpoints.down('sm'));
  const pad = useRef<SignaturePadHandle>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const [name, setName] = useState('');
  const [notes, setNotes] = useState('');
  const [how, setHow] = useState<How>('signature');
  const [drawn, setDrawn] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const max = sizeText(POD_FILE_MAX);

  const reset = () => {
    setName('');
    setNotes('');
    setHow('signature');
    setDrawn(false);
    setFile(null);
    setErrors({});
  };
  const close = () => {
    if (busy) return;
    reset();
    onClose();
  };

  /** The browser's checks before anything is sent (the server checks again: the file's bytes, the image's size). */
  const check = (): Errors => {
    const found: Errors = {};
    if (!name.trim()) found.name = translate('pod.name_missing');
    if (how === 'signature' && !drawn) found.signature = translate('pod.signature_missing');
    if (how === 'file') {
      if (!file) found.file = translate('pod.file_missing');
      else if (file.size > POD_FILE_MAX) found.file = translate('pod.file_too_large', { size: sizeText(file.size), max });
      else if (!(POD_FILE_TYPES as readonly string[]).includes(file.type)) found.file = translate('pod.file_wrong_type');
    }
    return found;
  };

  const submit = async () => {
    const found = check();
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      const signature = how === 'signature' ? await pad.current?.toPng() : undefined;
      await dataProvider.markDelivered(r.id, {
        name: name.trim(),
        notes: notes.trim() || undefined,
        ...(how === 'signature' && signature ? { signature } : {}),
        ...(how === 'file' && file ? { file } : {}),
      });
      notify(translate('progress.delivered_n', { id: r.id }), { type: 'success' });
      reset();
      onClose();
      await invalidate();
      onDone();
    } catch (e) {
      const onFields = fieldErrors(e);
      if (onFields) {
        // The server's word on a field: the dialog stays open with what was typed and drawn.
        setErrors(onFields);
        return;
      }
      // Someone else moved the request (409) or it is gone (404): the request is read again.
      notify(translate('progress.failed', { id: r.id, reason: normalizeError(e).message }), { type: 'error' });
      reset();
      onClose();
      await invalidate();
      onDone();
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm" fullScreen={phone} aria-labelledby="pod-title" data-testid="pod-dialog">
      <DialogTitle id="pod-title">{translate('pod.title', { id: r.id })}</DialogTitle>
      <DialogContent sx={{ display: 'grid', gap: 2, alignContent: 'start' }}>
        <DialogContentText>{translate('pod.intro')}</DialogContentText>
        <TextField
          label={translate('pod.name')}
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            setErrors((x) => ({ ...x, name: undefined }));
          }}
          required
          fullWidth
          autoComplete="off"
          error={!!errors.name}
          helperText={errors.name}
          slotProps={{ htmlInput: { maxLength: POD_NAME_MAX, 'data-testid': 'pod-name' } }}
        />
        <Box component="fieldset" sx={{ border: 0, m: 0, p: 0, minWidth: 0 }}>
          <Typography component="legend" variant="subtitle2" sx={{ p: 0 }}>
            {translate('pod.how')}
          </Typography>
          <RadioGroup
            value={how}
            onChange={(e) => {
              setHow(e.target.value as How);
              setErrors((x) => ({ ...x, signature: undefined, file: undefined }));
            }}
          >
            <FormControlLabel value="signature" control={<Radio />} label={translate('pod.how_signature')} data-testid="pod-how-signature" />
            <FormControlLabel value="file" control={<Radio />} label={translate('pod.how_file')} data-testid="pod-how-file" />
          </RadioGroup>
        </Box>
        {/* The pad stays mounted while the file is chosen (hidden), so switching back keeps the drawing. */}
        <Box sx={{ display: how === 'signature' ? 'block' : 'none' }}>
          <SignaturePad
            ref={pad}
            label={translate('pod.signature')}
            clearLabel={translate('pod.clear')}
            hint={translate('pod.signature_hint')}
            error={errors.signature}
            onChange={(d) => {
              setDrawn(d);
              if (d) setErrors((x) => ({ ...x, signature: undefined }));
            }}
          />
        </Box>
        {how === 'file' && (
          <Box sx={{ display: 'grid', gap: 1, justifyItems: 'start' }}>
            <Typography variant="subtitle2" component="label" htmlFor="pod-file-input">
              {translate('pod.file')}
            </Typography>
            {/* `capture` opens the camera on a phone (the back one), a file picker on a desktop. */}
            <input
              ref={fileInput}
              id="pod-file-input"
              type="file"
              accept="image/*,application/pdf"
              capture="environment"
              hidden
              data-testid="pod-file"
              aria-describedby="pod-file-hint"
              onChange={(e) => {
                const f = e.target.files?.[0] ?? null;
                e.target.value = '';
                if (!f) return;
                setFile(f);
                // The size is told at once, before anything is sent.
                setErrors((x) => ({
                  ...x,
                  file:
                    f.size > POD_FILE_MAX
                      ? translate('pod.file_too_large', { size: sizeText(f.size), max })
                      : !(POD_FILE_TYPES as readonly string[]).includes(f.type)
                        ? translate('pod.file_wrong_type')
                        : undefined,
                }));
              }}
            />
            <Button variant="outlined" startIcon={<PhotoCameraIcon />} onClick={() => fileInput.current?.click()} data-testid="pod-file-choose">
              {translate(file ? 'pod.file_change' : 'pod.file_choose')}
            </Button>
            {file && (
              <Typography variant="body2" data-testid="pod-file-chosen" sx={{ overflowWrap: 'anywhere' }}>
                {file.name} · {sizeText(file.size)}
              </Typography>
            )}
            <Typography variant="caption" id="pod-file-hint" color={errors.file ? 'error' : 'text.secondary'} data-testid="pod-file-hint">
              {errors.file ?? translate('pod.file_hint', { max })}
            </Typography>
          </Box>
        )}
        <TextField
          label={translate('pod.notes')}
          value={notes}
          onChange={(e) => {
            setNotes(e.target.value);
            setErrors((x) => ({ ...x, notes: undefined }));
          }}
          multiline
          minRows={2}
          fullWidth
          error={!!errors.notes}
          helperText={errors.notes ?? translate('pod.notes_hint')}
          slotProps={{ htmlInput: { maxLength: POD_NOTES_MAX, 'data-testid': 'pod-notes' } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={busy} data-testid="pod-cancel">
          {translate('pod.cancel')}
        </Button>
        <Button variant="contained" color="success" startIcon={<DoneAllIcon />} onClick={() => void submit()} disabled={busy} data-testid="pod-submit">
          {translate('pod.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
