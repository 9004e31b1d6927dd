import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import {
  Alert,
  Button,
  Checkbox,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormHelperText,
  FormLabel,
  Stack,
} from '@mui/material';
import { normalizeError } from '../../components/feedback/errors';

export type FormErrors = Record<string, string>;

/**
 * A settings card's create form (an API key, a webhook endpoint): its errors per field (`form` for one that
 * names no field) and whether it is being sent. `submit(local, send)` shows the browser's own checks
 * (`local`, field → message) and sends only when there are none; the server's field errors (`scopes.0` counts
 * for `scopes`) land on their fields.
 */
export function useDialogForm() {
  const [errors, setErrors] = useState<FormErrors>({});
  const [busy, setBusy] = useState(false);
  const clear = (field: string) => setErrors(({ [field]: _, ...rest }) => rest);
  async function submit(local: FormErrors, send: () => Promise<void>) {
    setErrors(local);
    if (Object.keys(local).length) return;
    setBusy(true);
    try {
      await send();
    } catch (err) {
      const n = normalizeError(err);
      const fields = Object.fromEntries(Object.entries(n.errors ?? {}).map(([f, m]) => [f.split('.')[0], [m].flat().join(' ')]));
      setErrors(Object.keys(fields).length ? fields : { form: n.message });
    } finally {
      setBusy(false);
    }
  }
  return { errors, busy, clear, submit };
}

/**
 * The frame of a create form in a dialog: the title (`titleId` names the dialog), the form-wide error, the
 * fields, Cancel and the submit button. `messages` is the card's key prefix (`<messages>.new_title`,
 * `.cancel`, `.create`); `testId` names the submit button.
 */
export function DialogForm({
  titleId,
  messages,
  testId,
  form,
  onSubmit,
  onCancel,
  children,
}: {
  titleId: string;
  messages: string;
  testId: string;
  form: { errors: FormErrors; busy: boolean };
  onSubmit: () => void;
  onCancel: () => void;
  children: ReactNode;
}) {
  const translate = useTranslate();
  return (
    <form
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        onSubmit();
      }}
      noValidate
    >
      <DialogTitle id={titleId}>{translate(`${messages}.new_title`)}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {form.errors.form && <Alert severity="error">{form.errors.form}</Alert>}
          {children}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={form.busy}>
          {translate(`${messages}.cancel`)}
        </Button>
        <Button type="submit" variant="contained" disabled={form.busy} data-testid={testId}>
          {translate(`${messages}.create`)}
        </Button>
      </DialogActions>
    </form>
  );
}

/** Checkboxes under a legend, for choosing some of `options` (a key's scopes, an endpoint's events), with the field's error. */
export function ChoiceGroup<T extends string>({
  legend,
  options,
  chosen,
  onChange,
  error,
  label,
  testId,
}: {
  legend: string;
  options: readonly T[];
  chosen: readonly T[];
  onChange: (chosen: T[]) => void;
  error: string | undefined;
  label: (option: T) => ReactNode;
  /** names each checkbox `<testId>-<option>` */
  testId?: string;
}) {
  const toggle = (o: T) => onChange(chosen.includes(o) ? chosen.filter((x) => x !== o) : [...chosen, o]);
  return (
    <FormControl error={!!error} component="fieldset">
      <FormLabel component="legend">{legend}</FormLabel>
      <FormGroup>
        {options.map((o) => (
          <FormControlLabel
            key={o}
            control={
              <Checkbox
                checked={chosen.includes(o)}
                onChange={() => toggle(o)}
                slotProps={testId ? { input: { 'data-testid': `${testId}-${o}` } as object } : undefined}
              />
            }
            label={label(o)}
          />
        ))}
      </FormGroup>
      {error && <FormHelperText>{error}</FormHelperText>}
    </FormControl>
  );
}
