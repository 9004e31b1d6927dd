import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import { useDataProvider, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { Alert, Box, Button, CircularProgress, Link, Stack, TextField, Typography } from '@mui/material';
import type { PortalDataProvider } from '../../dataProvider';
import { PublicCard } from '../accounts/PublicCard';
import { alertText, readApiError } from '../accounts/errors';

type Invitation = { email: string; first_name: string; expires_at: string };
type State = { kind: 'checking' } | { kind: 'open'; invitation: Invitation } | { kind: 'refused'; message: string };
const PORTAL_LANGS = ['it', 'en', 'fr'];

/**
 * /set-password?token=…&lang=…: the page of an invitation link (issue 35 item 9). It opens in the new user's
 * language (the link names it; the switcher still changes it), asks the server whose account the link opens,
 * and takes the password with the rule of every other password form (the server's: passwordProblem). A used,
 * expired or unknown link shows the server's message, which says what to do instead; success goes to /login.
 */
export function SetPasswordPage() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<PortalDataProvider>();
  const notify = useNotify();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [locale, setLocale] = useLocaleState();
  const [state, setState] = useState<State>({ kind: 'checking' });
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [fields, setFields] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // The link's language once, at the first render; a later choice of the switcher stays.
  const languageSet = useRef(false);
  useEffect(() => {
    if (languageSet.current) return;
    languageSet.current = true;
    const lang = params.get('lang');
    if (lang && PORTAL_LANGS.includes(lang) && lang !== locale) setLocale(lang);
  }, [params, locale, setLocale]);

  // Asked again when the language changes, so a refusal reads in the language shown.
  useEffect(() => {
    let live = true;
    setState({ kind: 'checking' });
    dataProvider
      .checkInvitation(token || '-')
      .then((invitation) => live && setState({ kind: 'open', invitation }))
      .catch((err) => live && setState({ kind: 'refused', message: readApiError(err, translate).message }));
    return () => {
      live = false;
    };
  }, [dataProvider, token, locale, translate]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setFailure(null);
    setFields({});
    if (password !== confirmation) return setFields({ password_confirmation: translate('accounts.invite.mismatch') });
    setBusy(true);
    try {
      const answer = await dataProvider.acceptInvitation({ token, password, password_confirmation: confirmation });
      notify(answer.message, { type: 'success' });
      navigate('/login');
    } catch (err) {
      const { message, fields: f } = readApiError(err, translate);
      // The link stopped working meanwhile (used in another tab, expired): the page says so instead of the form.
      if (f.token) return setState({ kind: 'refused', message: f.token });
      setFields(f);
      setFailure(alertText(message, f, ['password', 'password_confirmation']));
    } finally {
      setBusy(false);
    }
  }

  const links = (
    <Box sx={{ display: 'flex', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}>
      <Link component={RouterLink} to="/forget-password" variant="body2">
        {translate('accounts.invite.forgot')}
      </Link>
      <Link component={RouterLink} to="/login" variant="body2">
        {translate('accounts.back_to_login')}
      </Link>
    </Box>
  );

  if (state.kind !== 'open') {
    return (
      <PublicCard title={translate('accounts.invite.title')}>
        <Stack spacing={2}>
          {state.kind === 'checking' ? (
            <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }} role="status">
              <CircularProgress size={20} />
              <Typography variant="body2">{translate('accounts.invite.checking')}</Typography>
            </Stack>
          ) : (
            <Alert severity="error" role="alert" data-testid="invite-refused">
              {state.message}
            </Alert>
          )}
          {links}
        </Stack>
      </PublicCard>
    );
  }

  const { invitation } = state;
  return (
    <PublicCard
      title={translate('accounts.invite.title')}
      subtitle={translate('accounts.invite.subtitle', { name: invitation.first_name, email: invitation.email })}
    >
      <Stack component="form" spacing={2} onSubmit={submit} noValidate data-testid="invite-form">
        {/* The sign-in name, for the browser's password manager. */}
        <input type="hidden" name="email" autoComplete="username" value={invitation.email} readOnly />
        <TextField
          label={translate('accounts.invite.password')}
          type="password"
          name="password"
          autoComplete="new-password"
          required
          autoFocus
          value={password}
          onChange={(e) => {
            setPassword(e.target.value);
            setFields(({ password: _shown, ...rest }) => rest);
          }}
          error={!!fields.password}
          helperText={fields.password ?? translate('accounts.password_hint')}
        />
        <TextField
          label={translate('accounts.invite.password_confirmation')}
          type="password"
          name="password_confirmation"
          autoComplete="new-password"
          required
          value={confirmation}
          onChange={(e) => {
            setConfirmation(e.target.value);
            setFields(({ password_confirmation: _shown, ...rest }) => rest);
          }}
          error={!!fields.password_confirmation}
          helperText={fields.password_confirmation}
        />
        {failure && (
          <Alert severity="error" role="alert" data-testid="invite-error">
            {failure}
          </Alert>
        )}
        <Button type="submit" variant="contained" size="large" disabled={busy} data-testid="invite-submit">
          {translate('accounts.invite.submit')}
        </Button>
        {links}
      </Stack>
    </PublicCard>
  );
}
