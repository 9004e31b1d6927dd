import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import { Alert, Box, Button, FormHelperText, Link, Stack, TextField } from '@mui/material';
import type { PortalDataProvider } from '../../dataProvider';
import { PublicCard } from '../accounts/PublicCard';
import { OtpInput, otpComplete, otpFrom } from '../accounts/OtpInput';
import { alertText, readApiError } from '../accounts/errors';
import { useTimedMessage } from '../accounts/useTimedMessage';

/** The reset screen's own messages clear after 2 seconds (accounts document §5, §9). */
const RESET_ERROR_MS = 2000;

/** /reset-password?email=…: the 4-box code, a new password and its confirmation; success goes to /login. */
export function ResetPasswordPage() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<PortalDataProvider>();
  const notify = useNotify();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const sent = (useLocation().state as { message?: string } | null)?.message;
  const [email, setEmail] = useState(params.get('email') ?? '');
  const [digits, setDigits] = useState(() => otpFrom(params.get('otp')));
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [clientError, showClientError] = useTimedMessage(RESET_ERROR_MS);
  const [serverError, setServerError] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setServerError(null);
    setFields({});
    // The document's two checks, in its words; the password rule itself is the server's (only a hint here).
    if (!otpComplete(digits)) return showClientError(translate('accounts.reset.otp_required'));
    if (password !== confirmation) return showClientError(translate('accounts.reset.mismatch'));
    if (!email.trim()) return setFields({ email: translate('accounts.required') });
    showClientError(null);
    setBusy(true);
    try {
      const answer = await dataProvider.resetPassword({ otp: digits.join(''), email: email.trim(), password, password_confirmation: confirmation });
      notify(answer.message, { type: 'success' });
      navigate('/login');
    } catch (err) {
      const { message, fields: f } = readApiError(err, translate);
      setFields(f);
      setServerError(alertText(message, f, ['email', 'otp', 'password', 'password_confirmation']));
    } finally {
      setBusy(false);
    }
  }

  const otpQuery = `/reset-password-otp?email=${encodeURIComponent(email.trim())}`;
  return (
    <PublicCard title={translate('accounts.reset.title')} subtitle={translate('accounts.reset.subtitle')}>
      <Stack component="form" spacing={2} onSubmit={submit} noValidate>
        {sent && (
          <Alert severity="success" data-testid="reset-sent">
            {sent}
          </Alert>
        )}
        <TextField
          label={translate('accounts.reset.email')}
          type="email"
          name="email"
          autoComplete="username"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={!!fields.email}
          helperText={fields.email}
        />
        <Box>
          <OtpInput digits={digits} onChange={setDigits} error={!!fields.otp} autoFocus={!!email} />
          {fields.otp && (
            <FormHelperText error sx={{ textAlign: 'center' }} data-testid="otp-error">
              {fields.otp}
            </FormHelperText>
          )}
        </Box>
        <TextField
          label={translate('accounts.reset.password')}
          type="password"
          name="password"
          autoComplete="new-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={!!fields.password}
          helperText={fields.password ?? translate('accounts.password_hint')}
        />
        <TextField
          label={translate('accounts.reset.password_confirmation')}
          type="password"
          name="password_confirmation"
          autoComplete="new-password"
          required
          value={confirmation}
          onChange={(e) => setConfirmation(e.target.value)}
          error={!!fields.password_confirmation}
          helperText={fields.password_confirmation}
        />
        {clientError && (
          <Alert severity="error" role="alert" data-testid="reset-error">
            {clientError}
          </Alert>
        )}
        {serverError && (
          <Alert severity="error" role="alert" data-testid="reset-server-error">
            {serverError}
          </Alert>
        )}
        <Button type="submit" variant="contained" size="large" disabled={busy} data-testid="reset-submit">
          {translate('accounts.reset.submit')}
        </Button>
        <Box sx={{ display: 'flex', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}>
          <Link component={RouterLink} to={otpQuery} variant="body2">
            {translate('accounts.reset.no_code')}
          </Link>
          <Link component={RouterLink} to="/login" variant="body2">
            {translate('accounts.back_to_login')}
          </Link>
        </Box>
      </Stack>
    </PublicCard>
  );
}
