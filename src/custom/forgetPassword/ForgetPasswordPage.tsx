import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { useDataProvider, useTranslate } from 'react-admin';
import { Alert, Button, Link, Stack, TextField } from '@mui/material';
import type { PortalDataProvider } from '../../dataProvider';
import { PublicCard } from '../accounts/PublicCard';
import { EMAIL_RE, alertText, readApiError } from '../accounts/errors';

/** /forget-password: an email; on success the server's message and on to /reset-password?email=… */
export function ForgetPasswordPage() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<PortalDataProvider>();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const value = email.trim();
    if (!value) return setFieldError(translate('accounts.required'));
    if (!EMAIL_RE.test(value)) return setFieldError(translate('accounts.email_invalid'));
    setFieldError(null);
    setBusy(true);
    try {
      const answer = await dataProvider.forgetPassword(value);
      navigate(`/reset-password?email=${encodeURIComponent(value)}`, { state: { message: answer.message } });
    } catch (err) {
      const { message, fields } = readApiError(err, translate);
      if (fields.email) setFieldError(fields.email);
      setError(alertText(message, fields, ['email']));
    } finally {
      setBusy(false);
    }
  }

  return (
    <PublicCard title={translate('accounts.forget.title')} subtitle={translate('accounts.forget.subtitle')}>
      <Stack component="form" spacing={2} onSubmit={submit} noValidate>
        <TextField
          label={translate('accounts.forget.email')}
          type="email"
          name="email"
          autoComplete="email"
          required
          autoFocus
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={!!fieldError}
          helperText={fieldError ?? ' '}
        />
        <Button type="submit" variant="contained" size="large" disabled={busy} data-testid="forget-submit">
          {translate('accounts.forget.submit')}
        </Button>
        {error && (
          <Alert severity="error" role="alert" data-testid="forget-error">
            {error}
          </Alert>
        )}
        <Link component={RouterLink} to="/login" variant="body2" sx={{ alignSelf: 'center' }}>
          {translate('accounts.back_to_login')}
        </Link>
      </Stack>
    </PublicCard>
  );
}
