import { useState, type FormEvent } from 'react';
import { useDataProvider, useTranslate } from 'react-admin';
import { Alert, Box, Button, Card, CardContent, Stack, TextField, Typography } from '@mui/material';
import type { PortalDataProvider } from '../../dataProvider';
import { alertText, readApiError } from '../accounts/errors';
import { useTimedMessage } from '../accounts/useTimedMessage';

const empty = { oldPassword: '', password: '', password_confirmation: '' };

/** Change password: the old one checked by the server, the confirmation matching; the other sessions end. */
export function PasswordCard() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<PortalDataProvider>();
  const [values, setValues] = useState(empty);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [notice, showNotice] = useTimedMessage(5000);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setFailure(null);
    const found: Record<string, string> = {};
    if (!values.oldPassword) found.oldPassword = translate('accounts.settings.old_required');
    if (!values.password) found.password = translate('accounts.required');
    if (values.password !== values.password_confirmation) found.password_confirmation = translate('accounts.settings.mismatch');
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      const answer = await dataProvider.changePassword(values);
      setValues(empty);
      showNotice(answer.message);
    } catch (err) {
      const { message, fields } = readApiError(err, translate);
      setErrors(fields);
      setFailure(alertText(message, fields, ['oldPassword', 'password', 'password_confirmation']));
    } finally {
      setBusy(false);
    }
  }

  const field = (name: keyof typeof empty, label: string, autoComplete: string, hint?: string) => (
    <TextField
      name={name}
      type="password"
      label={label}
      autoComplete={autoComplete}
      required
      value={values[name]}
      onChange={(e) => setValues((v) => ({ ...v, [name]: e.target.value }))}
      error={!!errors[name]}
      helperText={errors[name] ?? hint}
    />
  );
  return (
    <Card component="section" aria-labelledby="password-title">
      <CardContent component="form" onSubmit={submit} noValidate sx={{ p: 3 }}>
        <Typography id="password-title" variant="h6" component="h2" sx={{ mb: 2 }}>
          {translate('accounts.settings.password')}
        </Typography>
        <Stack spacing={2}>
          {field('oldPassword', translate('accounts.settings.old_password'), 'current-password')}
          {field('password', translate('accounts.settings.new_password'), 'new-password', translate('accounts.password_hint'))}
          {field('password_confirmation', translate('accounts.settings.password_confirmation'), 'new-password')}
          {notice && (
            <Alert severity="success" role="status" data-testid="password-notice">
              {notice}
            </Alert>
          )}
          {failure && (
            <Alert severity="error" role="alert" data-testid="password-error">
              {failure}
            </Alert>
          )}
          <Box>
            <Button type="submit" variant="contained" disabled={busy} data-testid="password-save">
              {translate('accounts.settings.save_password')}
            </Button>
          </Box>
        </Stack>
      </CardContent>
    </Card>
  );
}
