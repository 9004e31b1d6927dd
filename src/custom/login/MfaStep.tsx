import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { useLogin, useTranslate } from 'ra-core';
import { Alert, Box, Button, Link, Stack } from '@mui/material';
import { finishMfaEnrolment, mfaLoginSetup, type MfaChallenge } from '../../authProvider';
import { PlainTextField } from '../../components/forms/PlainTextField';
import { LoginFrame } from './LoginFrame';
import { MfaEnrolment, type Enrolment } from '../accounts/MfaEnrolment';
import { RecoveryCodes } from '../accounts/RecoveryCodes';

type Failure = { status?: number; message?: string; body?: { errors?: Record<string, string[]>; retryAfter?: number } };

/** The message of a failed step: the code's own, a lock's wait, or the server's message. */
function failureText(err: unknown, translate: (key: string, opts?: any) => string) {
  const e = (err ?? {}) as Failure;
  const retryAfter = e.status === 429 ? Number(e.body?.retryAfter) : 0;
  if (retryAfter > 0) return translate('login.locked', { smart_count: Math.ceil(retryAfter / 60) });
  return e.body?.errors?.code?.join(' ') ?? translate(e.message || 'ra.auth.sign_in_error', { _: e.message });
}

/**
 * The sign-in's second step (docs/two-factor.md): the app's 6-digit code, or "Usa un codice di recupero";
 * for an admin who must enrol first (REQUIRE_ADMIN_MFA=1), the QR code, the confirming code and the
 * recovery codes, then the session.
 */
export function MfaStep({ mfa, remember, onBack }: { mfa: MfaChallenge; remember: boolean; onBack: () => void }) {
  return mfa.setup ? <EnrolStep mfa={mfa} remember={remember} onBack={onBack} /> : <CodeStep mfa={mfa} remember={remember} onBack={onBack} />;
}

function CodeStep({ mfa, remember, onBack }: { mfa: MfaChallenge; remember: boolean; onBack: () => void }) {
  const translate = useTranslate();
  const login = useLogin();
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [expired, setExpired] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!code.trim()) return setError(translate('mfa.code_required'));
    setBusy(true);
    setError(null);
    try {
      await login({ challenge: mfa.challenge, code: code.trim(), remember });
    } catch (err) {
      setError(failureText(err, translate));
      setExpired((err as Failure)?.status === 401);
      setCode('');
      setBusy(false);
    }
  }

  return (
    <LoginFrame maxWidth={460} title={translate('mfa.login_title')} intro={translate(recovery ? 'mfa.recovery_intro' : 'mfa.login_intro')}>
      <Stack component="form" onSubmit={submit} noValidate spacing={2} data-testid="mfa-step">
        <PlainTextField
          key={recovery ? 'recovery' : 'app'}
          label={translate(recovery ? 'mfa.recovery_label' : 'mfa.code')}
          name="code"
          autoComplete="one-time-code"
          autoFocus
          inputProps={
            recovery ? { 'data-testid': 'mfa-code', autoCapitalize: 'characters' } : { inputMode: 'numeric', maxLength: 7, 'data-testid': 'mfa-code' }
          }
          required
          value={code}
          onChange={(e) => setCode(e.target.value)}
          error={!!error && !expired}
          helperText={error && !expired ? <span data-testid="mfa-error">{error}</span> : ' '}
        />
        {expired && (
          <Alert severity="error" role="alert" data-testid="mfa-error">
            {error}
          </Alert>
        )}
        <Button type="submit" variant="contained" size="large" disabled={busy || expired} data-testid="mfa-submit">
          {translate('mfa.verify')}
        </Button>
        <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, flexWrap: 'wrap' }}>
          <Link
            component="button"
            type="button"
            variant="body2"
            onClick={() => {
              setRecovery((r) => !r);
              setCode('');
              setError(null);
            }}
            data-testid="mfa-toggle-recovery"
          >
            {translate(recovery ? 'mfa.use_app' : 'mfa.use_recovery')}
          </Link>
          <Link component="button" type="button" variant="body2" onClick={onBack}>
            {translate('mfa.back')}
          </Link>
        </Box>
      </Stack>
    </LoginFrame>
  );
}

function EnrolStep({ mfa, remember, onBack }: { mfa: MfaChallenge; remember: boolean; onBack: () => void }) {
  const translate = useTranslate();
  const navigate = useNavigate();
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [done, setDone] = useState<{ codes: string[]; enter: () => void } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    mfaLoginSetup(mfa.challenge).then(
      (e) => live && setEnrolment(e),
      (err) => live && setFailure(failureText(err, translate)),
    );
    return () => {
      live = false;
    };
  }, [mfa.challenge, translate]);

  async function confirm(code: string): Promise<string | null> {
    try {
      const { recoveryCodes, enter } = await finishMfaEnrolment(mfa.challenge, code, remember);
      setDone({ codes: recoveryCodes, enter });
      return null;
    } catch (err) {
      return failureText(err, translate);
    }
  }

  return (
    <LoginFrame maxWidth={460} title={translate('mfa.setup_title')} intro={translate('mfa.setup_intro')}>
      {done ? (
        <RecoveryCodes
          codes={done.codes}
          doneLabel={translate('mfa.continue')}
          onDone={() => {
            done.enter();
            navigate('/');
          }}
        />
      ) : enrolment ? (
        <MfaEnrolment enrolment={enrolment} confirm={confirm} onCancel={onBack} cancelLabel={translate('mfa.back')} />
      ) : failure ? (
        <>
          <Alert severity="error" role="alert">
            {failure}
          </Alert>
          <Button onClick={onBack}>{translate('mfa.back')}</Button>
        </>
      ) : null}
    </LoginFrame>
  );
}
