import { useState, type FormEvent } from 'react';
import { useTranslate } from 'ra-core';
import { Box, Button, Stack, Typography } from '@mui/material';
import { PlainTextField } from '../../components/forms/PlainTextField';

export interface Enrolment {
  secret: string;
  qr: string;
}

/** The secret in groups of four, as authenticator apps accept it typed. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

/**
 * Enrolment: the QR code, the secret as text for manual entry, and the 6-digit code that confirms it.
 * `confirm` answers null on success, else the message to show under the code. Shared by
 * the settings card and the login's enrolment of an admin (public shell: ra-core and MUI parts only).
 */
export function MfaEnrolment({
  enrolment,
  confirm,
  onCancel,
  cancelLabel,
}: {
  enrolment: Enrolment;
  confirm: (code: string) => Promise<string | null>;
  onCancel: () => void;
  cancelLabel?: string;
}) {
  const translate = useTranslate();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!code.trim()) return setError(translate('mfa.code_required'));
    setBusy(true);
    const problem = await confirm(code.trim());
    setBusy(false);
    setError(problem);
    if (problem) setCode('');
  }

  return (
    <Stack component="form" onSubmit={submit} noValidate spacing={2} data-testid="mfa-enrolment">
      <Typography variant="body2">{translate('mfa.scan')}</Typography>
      <Box
        component="img"
        src={enrolment.qr}
        alt={translate('mfa.qr_alt')}
        sx={{ width: 200, height: 200, alignSelf: 'center', border: 1, borderColor: 'divider', borderRadius: 1 }}
      />
      <Box>
        <Typography variant="body2">{translate('mfa.manual')}</Typography>
        <Typography
          component="code"
          data-testid="mfa-secret"
          data-secret={enrolment.secret}
          sx={{ display: 'block', mt: 0.5, p: 1, bgcolor: 'grey.100', borderRadius: 1, fontFamily: 'monospace', fontSize: '0.95rem', wordBreak: 'break-all' }}
        >
          {grouped(enrolment.secret)}
        </Typography>
      </Box>
      <Typography variant="body2">{translate('mfa.enter_code')}</Typography>
      <PlainTextField
        label={translate('mfa.code')}
        name="code"
        autoComplete="one-time-code"
        inputProps={{ inputMode: 'numeric', maxLength: 7, 'data-testid': 'mfa-enrol-code' }}
        required
        value={code}
        onChange={(e) => setCode(e.target.value)}
        error={!!error}
        helperText={error ? <span data-testid="mfa-enrol-error">{error}</span> : ' '}
      />
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        <Button type="submit" variant="contained" disabled={busy} data-testid="mfa-enrol-confirm">
          {translate('mfa.confirm')}
        </Button>
        <Button onClick={onCancel}>{cancelLabel ?? translate('mfa.cancel')}</Button>
      </Box>
    </Stack>
  );
}
