import { lazy, Suspense, useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useLogin, useTranslate } from 'react-admin';
import { Alert, Box, Button, Checkbox, FormControlLabel, Link } from '@mui/material';
import { PlainTextField } from '../../components/forms/PlainTextField';
import { LoginFrame } from './LoginFrame';
import { MfaChallengeError, type MfaChallenge } from '../../authProvider';
import { withMessages } from '../../publicI18n';
import { useFocusAfterCommit } from '../../components/afterFirstPaint';

// The second step (docs/two-factor.md) loads when a password step asks for it, not with the login, with its texts.
const MfaStep = lazy(() =>
  withMessages(
    import('./MfaStep'),
    import('../accounts/mfaMessages').then((m) => m.mfaMessages),
  ).then((m) => ({ default: m.MfaStep })),
);

/** /login: email, password, remember me, forgot-password link, access-request button; errors below the form. */
export function LoginPage() {
  const translate = useTranslate();
  const login = useLogin();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [mfa, setMfa] = useState<MfaChallenge | null>(null);
  const emailRef = useFocusAfterCommit<HTMLInputElement>(!mfa);

  const emailMissing = touched && !email.trim();
  const passwordMissing = touched && !password;

  async function submit(e: FormEvent) {
    e.preventDefault();
    setTouched(true);
    setError(null);
    if (!email.trim() || !password) return;
    setBusy(true);
    try {
      await login({ email: email.trim(), password, remember });
    } catch (err: any) {
      if (err instanceof MfaChallengeError) return setMfa(err.mfa);
      const retryAfter = err?.status === 429 ? Number(err?.body?.retryAfter) : 0;
      if (retryAfter > 0) setError(translate('login.locked', { smart_count: Math.ceil(retryAfter / 60) }));
      else setError(translate(err?.message || 'ra.auth.sign_in_error', { _: err?.message }));
    } finally {
      setBusy(false);
    }
  }

  if (mfa) {
    const back = () => {
      setMfa(null);
      setPassword('');
    };
    return (
      <Suspense fallback={null}>
        <MfaStep mfa={mfa} remember={remember} onBack={back} />
      </Suspense>
    );
  }

  return (
    <LoginFrame title={translate('login.title')} intro={translate('login.subtitle')} onSubmit={submit}>
      <PlainTextField
        label={translate('login.email')}
        type="email"
        name="email"
        autoComplete="email"
        required
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        error={emailMissing}
        helperText={emailMissing ? translate('login.email_required') : ' '}
        inputRef={emailRef}
      />
      <PlainTextField
        label={translate('login.password')}
        type="password"
        name="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={passwordMissing}
        helperText={passwordMissing ? translate('login.password_required') : ' '}
      />
      <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
        <FormControlLabel
          control={<Checkbox checked={remember} onChange={(e) => setRemember(e.target.checked)} name="remember" />}
          label={translate('login.remember')}
        />
        <Link component={RouterLink} to="/forget-password" variant="body2">
          {translate('login.forgot')}
        </Link>
      </Box>
      <Button type="submit" variant="contained" size="large" disabled={busy} data-testid="login-submit">
        {translate('login.submit')}
      </Button>
      {error && (
        <Alert severity="error" role="alert" data-testid="login-error">
          {error}
        </Alert>
      )}
      <Button component={RouterLink} to="/access-request" variant="outlined">
        {translate('login.access_request')}
      </Button>
      <Box sx={{ display: 'flex', justifyContent: 'center', flexWrap: 'wrap', columnGap: 3, rowGap: 1 }}>
        <Link component={RouterLink} to="/quote" variant="body2" data-testid="login-quote-link">
          {translate('login.quote_link')}
        </Link>
        <Link component={RouterLink} to="/track" variant="body2" data-testid="login-track-link">
          {translate('tracking.link')}
        </Link>
      </Box>
    </LoginFrame>
  );
}
